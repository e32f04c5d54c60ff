"""The "global step has not been increased" warning (TF's StepCounterHook text) from every hook
whose schedule depends on the global step, under TF's MonitoredSession."""

from __future__ import annotations

import logging

import pytest
import tensorflow as tf
from hooks_support import Model, in_graph, monitored

from jhooks import hooks as pyhooks

LOGGER = "jhooks.hooks.global_step_watch"


def run_without_training(hooks, runs=8, train_first=2):
    """``train_first`` training runs, then runs of ``xsum`` that leave the global step as it is."""
    _, m = in_graph(Model)
    with m.gs.graph.as_default(), monitored(hooks) as sess:
        for i in range(runs):
            sess.run(m.train if i < train_first else m.xsum)


HOOKS = {
    "StepCounterHook": lambda d: pyhooks.StepCounterHook(everyNSteps=100),
    "SummarySaverHook": lambda d: pyhooks.SummarySaverHook(saveSteps=100, outputDir=d, summaryOp={"loss": "loss:0"}),
    "CheckpointSaverHook": lambda d: pyhooks.CheckpointSaverHook(d, saveSteps=100),
    "StopAtStepHook": lambda d: pyhooks.StopAtStepHook(lastStep=100),
    "ProfilerHook": lambda d: pyhooks.ProfilerHook(saveSteps=100, outputDir=d),
    "StopIfNoImprovementHook": lambda d: pyhooks.StopIfNoImprovementHook("xsum:0", mode="max", patience=100),
}


@pytest.mark.parametrize("name", sorted(HOOKS))
def test_each_step_scheduled_hook_warns_with_tensorflows_text_at_most_five_times(name, tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        run_without_training([HOOKS[name](str(tmp_path))], runs=10)
    warnings = [r.getMessage() for r in caplog.records if r.name == LOGGER]
    # runs 3..10 leave the step at 2; the step fetched with run 3 is the one before run 2's increment
    # (the fetch is ordered before it), so runs 4..10 are stale: 7, warned 5 times
    assert (
        warnings
        == [
            "It seems that global step (tf.train.get_global_step) has not been increased. Current value "
            "(could be stable): 2 vs previous value: 2. You could increase the global step by passing "
            "tf.train.get_global_step() to Optimizer.apply_gradients or Optimizer.minimize."
        ]
        * 5
    )


def test_the_text_is_tensorflows_step_counter_hooks(caplog):
    with caplog.at_level(logging.WARNING):
        run_without_training([tf.compat.v1.train.StepCounterHook(every_n_steps=100)], runs=4)
    theirs = [r.getMessage() for r in caplog.records if "has not been increased" in r.getMessage()]
    assert theirs and theirs[0].startswith(
        "It seems that global step (tf.train.get_global_step) has not been increased. Current value "
        "(could be stable): 2 vs previous value: 2."
    )
    assert theirs[0].endswith("Optimizer.apply_gradients or Optimizer.minimize.")


def test_training_runs_and_a_restart_from_zero_do_not_warn(tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        run_without_training([HOOKS[n](str(tmp_path / n)) for n in HOOKS if n != "CheckpointSaverHook"], 6, 6)
    assert [r for r in caplog.records if r.name == LOGGER] == []


def test_a_java_hook_in_the_python_session_warns_through_python_logging(caplog):
    import jpype

    from jhooks.bridge import JavaHook
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()
    java = jpype.JClass("org.jhooks.hooks.StepCounterHook")(jpype.JClass("java.lang.Integer")(100), None, None, None)
    with caplog.at_level(logging.WARNING):
        run_without_training([JavaHook(java)], runs=4)
    java_warnings = [r.getMessage() for r in caplog.records if r.name == "org.jhooks.hooks.GlobalStepWatch"]
    # the step fetched with run 3 (no training) is the one before run 2's increment (2): only run 4 is stale
    assert len(java_warnings) == 1
    assert java_warnings[0].startswith(
        "It seems that global step (tf.train.get_global_step) has not been increased. "
        "Current value (could be stable): 2 vs previous value: 2."
    )


class _CountingView:
    """The real session view a hook gets, counting its ``globalStep()`` reads."""

    def __init__(self, view) -> None:
        self.view = view
        self.reads = 0

    def globalStep(self) -> int:
        self.reads += 1
        return self.view.globalStep()


def test_one_fetch_that_saw_the_increment_costs_one_confirming_read_not_one_every_run(caplog):
    from jhooks.hooks.global_step_watch import GlobalStepWatch

    # after training run r the step is r; the fetch of run 2 saw its increment (2), the others did
    # not (r - 1): run 3's 2 looks stale, one raw read (3) confirms the advance
    fetched = [0, 2, 2, 3, 4, 5, 6, 7]
    watch = GlobalStepWatch()
    reads = []

    class Observing(pyhooks.StopAtStepHook):
        def afterSessionRun(self, runContext, runValues):
            counting = _CountingView(runContext.session)
            watch.observe(counting, fetched[len(reads)])
            reads.append(counting.reads)

    _, m = in_graph(Model)
    with caplog.at_level(logging.WARNING, logger=LOGGER), m.gs.graph.as_default():
        with monitored([Observing(lastStep=100)]) as sess:
            for _ in fetched:
                sess.run(m.train)
    assert sum(reads) == 1
    assert watch.warnings() == 0
    assert [r for r in caplog.records if r.name == LOGGER] == []
