"""A user's own hook, Python or Java, checked by the conformance suite under all six driver x
hook-language combinations (``python -m jhooks conformance --hook-factory`` /
``--java-hook-factory`` with ``--classpath``): a well-behaved hook passes everywhere, one that
raises fails everywhere, naming the hook and the callback, in the language it was written in.

The Java hooks are compiled here, against the jhooks jar, into a directory given as --classpath.
"""

import os
import subprocess
import textwrap
import xml.etree.ElementTree as ET

import pytest

from jhooks.bridge.process.classpath import classpath
from jhooks.cli.main import main
from jhooks.conformance import combos

# diverse scenarios: order, an error, end of input, checkpoints, recovery, a stop, model-dependent
SCENARIOS = [
    "normal_end_hook_order",
    "error_hook_after_run",
    "end_of_input_results",
    "checkpoint_saver_every_2_steps",
    "recovery_fault_mid_run",
    "stop_run_context_after_run",
    "model_dependent_hook",
    "on_error_each_hook_once",
]

PYTHON_HOOKS = textwrap.dedent("""
    from jhooks import Hook, ModelDependentHook, SessionRunArgs

    class StepReader(Hook):
        def __init__(self):
            self.steps = []

        def beforeSessionRun(self, runContext):
            return SessionRunArgs("global_step_read:0")

        def afterSessionRun(self, runContext, runValues):
            self.steps.append(int(runValues.results))

    class LossWatcher(ModelDependentHook):
        def beforeSessionRun(self, runContext):
            return SessionRunArgs(self.modelInstance.loss)

    class BrokenInAfterRun(Hook):
        def afterSessionRun(self, runContext, runValues):
            raise ValueError("the user's Python hook breaks")

    def returnsNone():
        return None

    class TensorFlowStyle:  # a TensorFlow SessionRunHook-style hook (snake_case), not a jhooks.Hook
        def before_run(self, run_context):
            return None
""")

JAVA_HOOKS = {
    "StepReader.java": """
        package com.example;

        import org.jhooks.Hook;
        import org.jhooks.SessionRunArgs;
        import org.jhooks.SessionRunContext;
        import org.jhooks.SessionRunValues;

        /** Reads the global step each run; made by the static method make(). */
        public class StepReader implements Hook {
          public static Hook make() {
            return new StepReader();
          }

          @Override
          public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
            return SessionRunArgs.of("global_step_read:0");
          }

          @Override
          public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
            if (runValues.results() == null) {
              throw new IllegalStateException("no global step");
            }
          }
        }
    """,
    "LossWatcherSupplier.java": """
        package com.example;

        import java.util.function.Supplier;
        import org.jhooks.Hook;
        import org.jhooks.ModelDependentHook;
        import org.jhooks.SessionRunArgs;
        import org.jhooks.SessionRunContext;

        /** A Supplier of a model-dependent hook that fetches the model's loss. */
        public class LossWatcherSupplier implements Supplier<Hook> {
          @Override
          public Hook get() {
            return new ModelDependentHook() {
              @Override
              public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
                return SessionRunArgs.of(modelInstance().loss());
              }
            };
          }
        }
    """,
    "BrokenInBeforeRun.java": """
        package com.example;

        import org.jhooks.Hook;
        import org.jhooks.SessionRunArgs;
        import org.jhooks.SessionRunContext;

        /** Throws in beforeSessionRun(). */
        public class BrokenInBeforeRun implements Hook {
          public static Hook create() {
            return new BrokenInBeforeRun();
          }

          @Override
          public SessionRunArgs beforeSessionRun(SessionRunContext runContext) {
            throw new IllegalStateException("the user's Java hook breaks");
          }
        }
    """,
    "NullSupplier.java": """
        package com.example;

        import java.util.function.Supplier;
        import org.jhooks.Hook;

        /** A factory that returns null. */
        public class NullSupplier implements Supplier<Hook> {
          @Override
          public Hook get() {
            return null;
          }
        }
    """,
}


@pytest.fixture(scope="module")
def java_classes(tmp_path_factory):
    src = tmp_path_factory.mktemp("user-java-src")
    out = tmp_path_factory.mktemp("user-java-classes")
    files = []
    for name, text in JAVA_HOOKS.items():
        (src / name).write_text(textwrap.dedent(text))
        files.append(str(src / name))
    done = subprocess.run(
        ["javac", "-d", str(out), "-cp", os.pathsep.join(classpath()), *files], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return str(out)


@pytest.fixture
def python_hooks(tmp_path, monkeypatch):
    (tmp_path / "users_conformance_hooks.py").write_text(PYTHON_HOOKS)
    monkeypatch.syspath_prepend(str(tmp_path))


def _run(capsys, *flags):
    args = ["conformance"] + [a for n in SCENARIOS for a in ("--scenario", n)] + list(flags)
    code = main(args)
    out = capsys.readouterr().out
    lines = out.splitlines()
    header = lines[0].split()
    rows = {line.split()[0]: dict(zip(header[1:], line.split()[1:])) for line in lines[1 : 1 + len(SCENARIOS)]}
    return code, out, rows


def _all_six(rows, outcome):
    assert sorted(next(iter(rows.values()))) == sorted(c.id for c in combos.ALL)
    for scenario, by_combo in rows.items():
        for combo, got in by_combo.items():
            assert got in (outcome, "skipped"), f"{scenario}[{combo}]: {got}"
    ran = [got for by_combo in rows.values() for got in by_combo.values() if got == outcome]
    assert len(ran) >= 6 * len(SCENARIOS) - 6, "nearly every case runs (some scenarios fix a hook language)"


@pytest.mark.parametrize("factory", ["users_conformance_hooks:StepReader", "users_conformance_hooks:LossWatcher"])
def test_a_well_behaved_python_hook_passes_under_all_six_combinations(python_hooks, capsys, factory):
    code, out, rows = _run(capsys, "--hook-factory", factory)
    assert code == 0, out
    _all_six(rows, "passed")


@pytest.mark.parametrize("factory", ["com.example.StepReader", "com.example.LossWatcherSupplier"])
def test_a_well_behaved_java_hook_passes_under_all_six_combinations(java_classes, capsys, factory):
    code, out, rows = _run(capsys, "--java-hook-factory", factory, "--classpath", java_classes)
    assert code == 0, out
    _all_six(rows, "passed")


def test_a_python_hook_that_raises_fails_under_all_six_naming_hook_and_callback(python_hooks, capsys):
    code, out, rows = _run(capsys, "--hook-factory", "users_conformance_hooks:BrokenInAfterRun")
    assert code == 1
    _all_six(rows, "failed")
    failures = [line for line in out.splitlines() if line.startswith("FAILED ")]
    assert failures and all(
        "your hook users_conformance_hooks.BrokenInAfterRun raised in afterSessionRun: ValueError: "
        "the user's Python hook breaks" in line
        for line in failures
    ), failures


def test_a_java_hook_that_raises_fails_under_all_six_naming_hook_and_callback(java_classes, capsys):
    code, out, rows = _run(
        capsys, "--java-hook-factory", "com.example.BrokenInBeforeRun::create", "--classpath", java_classes
    )
    assert code == 1
    _all_six(rows, "failed")
    failures = [line for line in out.splitlines() if line.startswith("FAILED ")]
    assert failures and all(
        "your hook com.example.BrokenInBeforeRun raised in beforeSessionRun: java.lang.IllegalStateException: "
        "the user's Java hook breaks" in line
        for line in failures
    ), failures


@pytest.mark.parametrize(
    "spec,message",
    [
        ("com.example.Missing", "class com.example.Missing not found"),
        ("com.example.StepReader::nope", "exactly one public static no-argument method returning a Hook named nope"),
    ],
)
def test_a_java_factory_that_cannot_be_loaded_exits_2(java_classes, capsys, spec, message):
    code = main(
        ["conformance", "--scenario", "normal_end_one_hook", "--java-hook-factory", spec, "--classpath", java_classes]
    )
    captured = capsys.readouterr()
    assert (code, captured.out) == (2, "")
    assert captured.err.startswith(f"jhooks conformance: --java-hook-factory {spec}: ") and message in captured.err


def test_both_factories_together_and_the_junit_xml_names_them(python_hooks, java_classes, tmp_path, capsys):
    report = tmp_path / "conformance.xml"
    code = main(
        [
            "conformance",
            "--scenario",
            "normal_end_hook_order",
            "--hook-factory",
            "users_conformance_hooks:StepReader",
            "--java-hook-factory",
            "com.example.StepReader",
            "--classpath",
            java_classes,
            "--junit-xml",
            str(report),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.splitlines()[-1] == "6 passed, 0 failed, 0 xfailed, 0 skipped"

    properties = {p.get("name"): p.get("value") for p in ET.parse(report).getroot().iter("property")}
    assert properties["hook-factory"] == "users_conformance_hooks:StepReader"
    assert properties["java-hook-factory"] == "com.example.StepReader"


def test_an_unknown_combination_exits_2(capsys):
    code = main(["conformance", "--combo", "nowhere-driver-python-hooks"])
    captured = capsys.readouterr()
    assert code == 2 and "unknown combination 'nowhere-driver-python-hooks'" in captured.err


@pytest.mark.parametrize(
    "flag,spec,message",
    [
        ("--hook-factory", "users_conformance_hooks:returnsNone", "the hook factory returned None, not a Hook"),
        ("--java-hook-factory", "com.example.NullSupplier", "the hook factory returned null, not a Hook"),
        (
            "--hook-factory",
            "users_conformance_hooks:TensorFlowStyle",
            "users_conformance_hooks.TensorFlowStyle is not a jhooks.Hook; subclass jhooks.Hook",
        ),
    ],
)
def test_a_factory_that_returns_no_hook_fails_each_case_saying_so_in_both_languages(
    python_hooks, java_classes, capsys, flag, spec, message
):
    """A Python factory returning None or a non-jhooks hook failed each case with an AttributeError
    from the guard ("'NoneType' object has no attribute 'beginSession'") where the Java twin says
    what is wrong; now both say it, and the Python one is checked as a driver checks hooks."""
    code = main(
        ["conformance", "--scenario", "normal_end_one_hook", "--combo", "python-driver-python-hooks"]
        + ["--combo", "jvm-driver-python-hooks", flag, spec, "--classpath", java_classes]
    )
    out = capsys.readouterr().out
    failures = [line for line in out.splitlines() if line.startswith("FAILED ")]
    assert code == 1 and len(failures) == 2, out
    assert all(message in line and "AttributeError" not in line for line in failures), failures
