"""Every Python and Java block of README.md and docs/*.md runs as written: Sybil finds the fenced
blocks; each Python block runs in a fresh interpreter (its own graph, eager mode as TensorFlow 2
starts) in an empty working directory, each Java block compiles against what a user's build
would give it: the library jar (org.jhooks:jhooks) and its dependencies, the jhooks-conformance
jar only when the block uses the suite (org.jhooks.conformance, org.jhooks.testing), JUnit 4 from
Gradle's cache only when it uses org.junit, and never the checkout's demo or bench jars.

A block that is a fragment by design is marked just above with ``<!-- skip: next -->`` (Sybil's
skip directive) and a reason in prose; there are few, and this test lists them so none is added
silently."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from sybil import Sybil
from sybil.parsers.markdown import CodeBlockParser, SkipParser

from jhooks.api.version import VERSION
from jhooks.bridge.process import classpath

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# (document, first line of the block): fragments shown on purpose, each marked in the document
FRAGMENTS = {
    ("docs/contract.md", "try (MonitoredSession s = MonitoredTrainingSession.builder(graph)...build()) {"),
    ("docs/distributed.md", "from jhooks.tf import Cluster, ClusterServer"),  # a ps: serves until killed
}


def _run_python(example) -> None:
    workdir = example.namespace["tmp_path"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-c", example.parsed],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    example.namespace["result"] = proc
    if proc.returncode != 0:
        raise AssertionError(f"exit {proc.returncode}\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr[-6000:]}")


def _junit_jars() -> list[str]:
    """JUnit 4 and Hamcrest from Gradle's cache (the jhooks build compiles against JUnit, so
    ``gradle assemble`` has fetched them)."""
    cache = Path(os.environ.get("GRADLE_USER_HOME", Path.home() / ".gradle")) / "caches" / "modules-2" / "files-2.1"
    jars = sorted(cache.glob("junit/junit/4.*/*/junit-4.*.jar")) + sorted(
        cache.glob("org.hamcrest/hamcrest-core/1.3/*/hamcrest-core-1.3.jar")
    )
    jars = [j for j in jars if not j.name.endswith(("-sources.jar", "-javadoc.jar"))]
    assert jars, f"JUnit 4 is not in Gradle's cache {cache}: run gradle assemble first"
    return [str(j) for j in jars]


def _java_classpath(source: str) -> list[str]:
    """The checkout's classpath as a user's build sees it for ``source`` (module docstring)."""
    uses_suite = re.search(r"\borg\.jhooks\.(conformance|testing)\b", source) is not None
    jars = [
        j
        for j in classpath.classpath()
        if not re.match(r"jhooks-(demo|bench)-", Path(j).name)
        and (uses_suite or not Path(j).name.startswith("jhooks-conformance-"))
    ]
    return jars + (_junit_jars() if "org.junit" in source else [])


def _run_java(example) -> None:
    workdir: Path = example.namespace["tmp_path"]
    source = example.parsed
    match = re.search(r"^(?:public\s+)?(?:final\s+)?class\s+(\w+)", source, re.M)
    if match:
        name, text = match.group(1), source
    else:  # statements: compiled as a method body, its imports hoisted
        imports = [line for line in source.splitlines() if line.startswith("import ")]
        body = [line for line in source.splitlines() if not line.startswith("import ")]
        name = "Snippet"
        text = "\n".join(imports) + "\nclass Snippet {\n  static void snippet() throws Exception {\n"
        text += "\n".join(body) + "\n  }\n}\n"
    src = workdir / f"{name}.java"
    src.write_text(text)
    proc = subprocess.run(
        [
            "javac",
            "-Xlint:all",
            "-Werror",
            "-d",
            str(workdir / "classes"),
            "-cp",
            os.pathsep.join(_java_classpath(text)),
            str(src),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if proc.returncode != 0:
        raise AssertionError(f"javac failed:\n{proc.stdout}{proc.stderr}\n--- source\n{text}")


SYBIL = Sybil(
    parsers=[
        CodeBlockParser(language="python", evaluator=_run_python),
        CodeBlockParser(language="java", evaluator=_run_java),
        SkipParser(),
    ]
)


def _examples():
    for path in DOCUMENTS:
        skip_next = None
        for example in SYBIL.parse(path).examples():
            if not isinstance(example.parsed, str):  # a skip directive: (action, reason)
                skip_next = example.parsed
                continue
            marks = []
            if skip_next is not None:
                key = (str(path.relative_to(ROOT)), example.parsed.strip().splitlines()[0])
                assert key in FRAGMENTS, f"a block is skipped that is not a listed fragment: {key}"
                marks.append(pytest.mark.skip(reason="a fragment shown on purpose"))
                skip_next = None
            yield pytest.param(example, id=f"{path.relative_to(ROOT)}:{example.line}", marks=marks)


@pytest.mark.parametrize("example", list(_examples()))
def test_block_runs_as_written(example, tmp_path):
    example.namespace["tmp_path"] = tmp_path
    example.region.evaluator(example)


def test_every_fragment_is_marked():
    blocks = {
        (str(Path(p.values[0].path).relative_to(ROOT)), p.values[0].parsed.strip().splitlines()[0]) for p in _examples()
    }
    assert FRAGMENTS <= blocks


def test_a_java_block_gets_the_conformance_jar_only_when_it_uses_the_suite():
    library = [Path(j).name for j in _java_classpath("import org.jhooks.Hook;")]
    assert library[0] == f"jhooks-{VERSION}.jar"
    assert not any(n.startswith(("jhooks-conformance-", "jhooks-demo-", "jhooks-bench-")) for n in library)
    names = [Path(j).name for j in _java_classpath("import org.jhooks.conformance.ConformanceRunner;")]
    assert any(n.startswith("jhooks-conformance-") for n in names)
    assert not any(n.startswith(("jhooks-demo-", "jhooks-bench-")) for n in names)


def test_quick_start_logs_each_step_once_in_order(tmp_path):
    """The README's first quick start prints the global step each run made, never a racy read:
    exactly 20, 40, ..., 100, the loss falling to 0 (w → 3)."""
    first = next(p.values[0] for p in _examples() if p.values[0].path.endswith("README.md"))
    first.namespace["tmp_path"] = tmp_path
    first.region.evaluator(first)
    lines = [line.split() for line in first.namespace["result"].stdout.splitlines()]
    assert [int(step) for step, _ in lines] == [20, 40, 60, 80, 100]
    losses = [float(loss) for _, loss in lines]
    assert losses == sorted(losses, reverse=True) and losses[-1] < 1e-6
    assert (tmp_path / "quickstart-ckpt" / "checkpoint").is_file()


def test_java_hooks_quick_start_logs_each_line_once(tmp_path):
    """The README's second quick start shows the Java hooks' INFO lines through Python's logging,
    each once, and no TensorFlow INFO line (TensorFlow's logger has a handler of its own: INFO on
    the root would print each of its lines twice)."""
    second = [p.values[0] for p in _examples() if p.values[0].path.endswith("README.md")][1]
    assert "JavaHook" in second.parsed
    second.namespace["tmp_path"] = tmp_path
    second.region.evaluator(second)
    stderr = second.namespace["result"].stderr
    logged = [re.sub(r" \(\d+\.\d+ sec\)$", "", line) for line in stderr.splitlines()]
    logged = [line for line in logged if line.startswith(("org.jhooks", "jhooks", "tensorflow", "INFO:tensorflow"))]
    assert logged == [f"org.jhooks.hooks.LoggingTensorHook: step before = {n}" for n in (0, 10, 20)], stderr
