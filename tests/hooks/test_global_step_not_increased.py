"""The "global step has not been increased" warning: TF's StepCounterHook condition and text (the
step fetched with a run equals the one fetched with the previous run), only from StepCounterHook,
under TF's MonitoredSession; the JVM driver's side is in test_cross_python_hooks_jvm_driver.py and
StepCounterNotIncreasedTest."""

from __future__ import annotations

import logging

import pytest
from hooks_support import Model, in_graph, monitored
from tensorflow.python.platform import tf_logging

from jhooks import hooks as pyhooks

LOGGER = "jhooks.hooks.step_counter"
TEXT = (
    "It seems that global step (tf.train.get_global_step) has not been increased. Current value "
    "(could be stable): 2 vs previous value: 2. You could increase the global step by passing "
    "tf.train.get_global_step() to Optimizer.apply_gradients or Optimizer.minimize."
)


def run_without_training(hooks, runs=8, train_first=2):
    """``train_first`` training runs, then runs of ``xsum`` that leave the global step as it is."""
    _, m = in_graph(Model)
    with m.gs.graph.as_default(), monitored(hooks) as sess:
        for i in range(runs):
            sess.run(m.train if i < train_first else m.xsum)


def test_step_counter_warns_when_and_as_tensorflows_does(monkeypatch, caplog):
    """TF's hook calls ``log_first_n`` (5 per process) each time; jhooks' logs the first 5 per hook."""
    import tensorflow as tf

    theirs = []

    def log_first_n(level, msg, n, *args):
        theirs.append((level, n, msg % args))

    monkeypatch.setattr(tf_logging, "log_first_n", log_first_n)
    run_without_training([tf.compat.v1.train.StepCounterHook(every_n_steps=100)], runs=10)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        run_without_training([pyhooks.StepCounterHook(everyNSteps=100)], runs=10)
    ours = [r.getMessage() for r in caplog.records if r.name == LOGGER]
    # runs 3..10 leave the step at 2; the step fetched with run 3 is 2 (after run 2's increment, the
    # fetch of a training run is ordered before its increment), so runs 4..10 fetch the same 2 again
    assert theirs == [(logging.WARN, 5, TEXT)] * 7
    assert ours == [TEXT] * 5
    assert {r.levelname for r in caplog.records if r.name == LOGGER} == {"WARNING"}


def test_training_runs_do_not_warn(caplog):
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        run_without_training([pyhooks.StepCounterHook(everyNSteps=1)], 6, 6)
    assert [r for r in caplog.records if r.name == LOGGER] == []


OTHER_HOOKS = {
    "SummarySaverHook": lambda d: pyhooks.SummarySaverHook(saveSteps=100, outputDir=d, summaryOp={"loss": "loss:0"}),
    "CheckpointSaverHook": lambda d: pyhooks.CheckpointSaverHook(d, saveSteps=100),
    "AsyncCheckpointSaverHook": lambda d: pyhooks.AsyncCheckpointSaverHook(d, saveSteps=100),
    "StopAtStepHook": lambda d: pyhooks.StopAtStepHook(lastStep=100),
    "ProfilerHook": lambda d: pyhooks.ProfilerHook(saveSteps=100, outputDir=d),
    "StopIfNoImprovementHook": lambda d: pyhooks.StopIfNoImprovementHook("xsum:0", mode="max", patience=100),
}


@pytest.mark.parametrize("name", sorted(OTHER_HOOKS))
def test_no_other_standard_hook_warns_as_in_tensorflow(name, tmp_path, caplog):
    with caplog.at_level(logging.WARNING):
        run_without_training([OTHER_HOOKS[name](str(tmp_path))], runs=10)
    assert [r.getMessage() for r in caplog.records if "has not been increased" in r.getMessage()] == []


def test_a_java_step_counter_in_the_python_session_warns_through_python_logging(caplog):
    import jpype

    from jhooks.bridge import JavaHook
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()
    java = jpype.JClass("org.jhooks.hooks.StepCounterHook")(jpype.JClass("java.lang.Integer")(100), None, None, None)
    with caplog.at_level(logging.WARNING):
        run_without_training([JavaHook(java)], runs=10)
    java_warnings = [r.getMessage() for r in caplog.records if r.name == "org.jhooks.hooks.StepCounterHook"]
    assert java_warnings == [TEXT] * 5  # as the Python twin's (runs 4..10 stale, the first 5)


def test_java_hooks_other_than_the_step_counter_do_not_warn(tmp_path, caplog):
    import jpype

    from jhooks.bridge import JavaHook
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()
    J = lambda name: jpype.JClass("org.jhooks.hooks." + name)  # noqa: E731
    Int = jpype.JClass("java.lang.Integer")
    hooks = [
        J("StopAtStepHook")(None, jpype.JClass("java.lang.Long")(100)),
        J("CheckpointSaverHook").builder(str(tmp_path / "ckpt")).saveSteps(Int(100)).build(),
        J("ProfilerHook")(Int(100), None, str(tmp_path / "profile"), None, None),
        J("SummarySaverHook")(
            Int(100), None, str(tmp_path / "events"), None, None, jpype.JClass("java.util.Map").of("loss", "loss:0")
        ),
    ]
    with caplog.at_level(logging.WARNING):
        run_without_training([JavaHook(h) for h in hooks], runs=10)
    assert [r.getMessage() for r in caplog.records if "has not been increased" in r.getMessage()] == []
