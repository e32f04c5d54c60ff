"""Which tests CI also runs on a TensorFlow release other than the pinned one, and which run only
when asked for.

The marker ``anytf`` (pyproject.toml) selects the Python-driven suites: Python hooks in Python
sessions, and Java hooks in Python sessions, which run in a hooks-only JVM on another TensorFlow
(docs/bridge.md, "Start-up and the runtime rule"). ``scripts/test-other-tf`` runs ``pytest -m
anytf`` on tensorflow-cpu 2.21.0; the README's support matrix states the same. The lists live here,
in one place, rather than in each file, because they are a CI policy about whole suites.
"""

import os
import re
import signal

import pytest

# Node ids (paths relative to the repository root); "*" matches anything, everything else is literal.
ANY_TF = (
    "tests/api/*",
    "tests/merger/*",
    "tests/tf/*",
    "tests/test_smoke.py::*",
    "tests/hooks/*",
    "tests/keras/*",
    "tests/bridge/test_python_driver_java_hooks.py::*",
    "tests/bridge/test_java_hook_group.py::*",
    "tests/bridge/test_exceptions.py::*",
    "tests/bridge/test_threads.py::*",
    "tests/bridge/test_arrays.py::*",
    "tests/bridge/test_classpath.py::*",
    "tests/bridge/test_runtime_modes.py::*",
    "tests/conformance/test_conformance.py::test_conformance[*python-driver-*",
    "tests/conformance/test_scripted_hook.py::*",
    "tests/conformance/test_model_python.py::*",
)

# Inside those: tests that need tensorflow-java's natives (the JVM driver, tensors made in Java,
# the Java asynchronous saver's own SaveV2 session). On another TensorFlow these get the clear
# TensorFlowRuntimeError that tests/bridge/test_runtime_modes.py checks.
NEEDS_NATIVES = (
    "tests/hooks/test_cross_python_hooks_jvm_driver.py::*",
    "tests/keras/test_keras_checkpoint_in_java.py::*",
    "tests/hooks/test_python_checkpoint_restored_in_java.py::*",
    "tests/hooks/test_checkpoint_safety.py::*",
    "tests/hooks/test_missing_global_step.py::*",
    "tests/hooks/test_large_model.py::test_a_model_of_several_variables_crosses_languages_and_drivers",
    "tests/hooks/test_checkpoint_saver.py::*[java-AsyncCheckpointSaverHook]",
    "tests/hooks/test_snapshot_buffers.py::test_a_java_async_saver_in_the_python_session_fetches_its_snapshot",
    "tests/hooks/test_jvm_driver_guard_and_veto.py::*",
    "tests/hooks/test_best_checkpoints_kill.py::*[jvm]",
    "tests/hooks/test_async_checkpoint_kill.py::*[jvm-*]",
    "tests/hooks/test_large_model.py::test_a_java_saver_in_the_python_driver_saves_a_model_larger_than_the_view_budget",
    "tests/hooks/test_listener_veto.py::*java_saver*[AsyncCheckpointSaverHook]",
    "tests/hooks/test_no_poisoned_checkpoints.py::*java_saver*[*AsyncCheckpointSaverHook]",
    "tests/hooks/test_cross_java_hooks_python_driver.py::*[AsyncCheckpointSaverHook]",
    "tests/bridge/test_arrays.py::test_bfloat16_crosses_as_tensorflow_javas_bfloat16_layout",
    "tests/bridge/test_arrays.py::test_tensors_report_their_tensorflow_dtype",
    "tests/conformance/test_conformance.py::test_conformance[async_checkpoint_saver_*[python-driver-java-hooks]]",
    "tests/conformance/test_conformance.py::test_conformance[async_checkpoint_saver_*[python-driver-mixed-hooks]]",
)


def _pattern(globs: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("|".join(re.escape(g).replace(r"\*", ".*") for g in globs))


_ANY_TF, _NEEDS_NATIVES = _pattern(ANY_TF), _pattern(NEEDS_NATIVES)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Tests marked slow (long repeats of fault tests) run only with -m slow or JHOOKS_SLOW=1; CI's
    # default run keeps their short versions.
    run_slow = os.environ.get("JHOOKS_SLOW") == "1" or "slow" in (config.option.markexpr or "")
    skip_slow = pytest.mark.skip(reason="slow: run with -m slow or JHOOKS_SLOW=1")
    for item in items:
        if _ANY_TF.fullmatch(item.nodeid) and not _NEEDS_NATIVES.fullmatch(item.nodeid):
            item.add_marker(pytest.mark.anytf)
        if not run_slow and "slow" in item.keywords:
            item.add_marker(skip_slow)


def pytest_configure(config: pytest.Config) -> None:
    # The signal tests send SIGINT to child processes as a terminal's Ctrl-C would. A shell starts
    # a background job (`.ci/run &`) with SIGINT ignored, and an ignored signal stays ignored across
    # exec: the children would never see it. Python's default handler here resets it at exec.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
