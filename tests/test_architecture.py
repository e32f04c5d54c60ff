"""The Python layer rules (import-linter contracts in pyproject.toml): nothing imports a layer above
its own (jhooks' layers, and the bridge's own sub-layers), every subpackage has a layer, only the
bridge's two backends import JPype or jep, and the hook API and the merger import neither
TensorFlow nor JPype; and no two jhooks modules import each other, directly or through others,
even inside functions. The Java twin is org.jhooks.ArchitectureTest (ArchUnit, run by `gradle test`)."""

import os
import subprocess
import sys

import grimp

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_import_linter_contracts_are_kept():
    lint_imports = os.path.join(os.path.dirname(sys.executable), "lint-imports")
    done = subprocess.run(
        [lint_imports, "--no-cache", "--config", os.path.join(REPO, "pyproject.toml")],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def import_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Every import cycle among the modules of ``graph``: one shortest cycle through each group of
    modules that import each other (strongly connected components, Tarjan), as ``[a, b, ..., a]``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[module] = min(low[module], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == module:
                        break
                if len(group) > 1:
                    groups.append(group)
    cycles = []
    for group in groups:
        start = min(group)
        back = [m for m in graph.find_modules_that_directly_import(start) if m in group]
        path = min(
            (graph.find_shortest_chain(importer=start, imported=m) or () for m in back), key=lambda c: len(c) or 10**9
        )
        cycles.append(list(path) + [start])
    return cycles


def test_no_module_of_jhooks_imports_itself_through_others():
    # grimp sees every import, those inside functions included
    cycles = import_cycles(grimp.build_graph("jhooks"))
    assert not cycles, "import cycles among jhooks modules:\n" + "\n".join("  " + " -> ".join(c) for c in cycles)
