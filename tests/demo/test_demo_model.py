"""The demo's Python graph (jhooks.demo.model) in a real TensorFlow MonitoredTrainingSession: a hook
fetching ``global_step:0`` in the train step's run always gets the value before that run's
increment. Unordered, the read fell before or after it at random (about 1 run in 100 here), so
two runs saw the same step and the demo's StepCounterHook warned five times that the global step
"has not been increased"."""

from __future__ import annotations

import numpy as np
import tensorflow as tf

import jhooks
from jhooks.demo import data, model
from jhooks.tf import to_tf_hooks

STEPS = 1500


class StepProbe(jhooks.Hook):
    def __init__(self) -> None:
        self.seen: list[int] = []

    def beforeSessionRun(self, runContext):
        return jhooks.SessionRunArgs.of(model.GLOBAL_STEP)

    def afterSessionRun(self, runContext, runValues):
        self.seen.append(int(runValues.results))


def test_every_run_fetches_the_global_step_before_its_increment():
    demo = model.build(data.load())
    probe = StepProbe()
    with demo.graph.as_default():
        hooks = to_tf_hooks([probe]) + [tf.compat.v1.train.StopAtStepHook(num_steps=STEPS)]
        with tf.compat.v1.train.MonitoredTrainingSession(
            hooks=hooks, save_checkpoint_secs=None, save_summaries_steps=None, log_step_count_steps=None
        ) as session:
            while not session.should_stop():
                session.run(demo.trainOp)
    assert probe.seen == list(range(STEPS)), np.flatnonzero(np.diff(probe.seen) != 1)[:10]
