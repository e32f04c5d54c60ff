"""ModelDependentHook inside TF sessions: set once before beginSession, kept across recovery."""

import pytest
import tensorflow as tf
from tf_support import Counter, open_session, run_steps

import jhooks
from jhooks.tf import TfHookAdapter


class ModelRecorder(jhooks.ModelDependentHook):
    def __init__(self):
        self.seen = []
        self.creations = 0

    def beginSession(self):
        self.seen.append(("beginSession", self.modelInstance))

    def afterCreateSession(self, session, coord):
        self.creations += 1
        self.seen.append(("afterCreateSession", self.modelInstance))

    def beforeSessionRun(self, runContext):
        return jhooks.SessionRunArgs({"loss": self.modelInstance.loss})

    def afterSessionRun(self, runContext, runValues):
        if self.creations == 1 and int(runContext.originalArgs.feeds["x:0"]) == 1:
            raise tf.errors.AbortedError(None, None, "abort once to force recovery")
        self.seen.append(("afterSessionRun", float(runValues.results["loss"])))


def test_model_instance_set_once_and_kept_across_recovery(graph):
    c = Counter()
    model = jhooks.ModelInstance.of(loss="doubled:0", trainOp="train", globalStep="global_step:0")
    hook = ModelRecorder()
    adapter = TfHookAdapter(hook, model)
    assert hook.modelInstance is model
    run_steps("training", [adapter], c, steps=3)
    assert hook.seen == [
        ("beginSession", model),
        ("afterCreateSession", model),
        ("afterSessionRun", 0.0),
        ("afterCreateSession", model),
        ("afterSessionRun", 2.0),
        ("afterSessionRun", 4.0),
    ]
    with pytest.raises(RuntimeError, match="already set"):
        TfHookAdapter(hook, jhooks.ModelInstance.of("other:0", "train", "global_step:0"))


def test_model_dependent_hook_without_a_model_fails_in_begin(graph):
    Counter()
    with pytest.raises(jhooks.HookError, match=r"ModelRecorder\.beginSession: .*no ModelInstance"):
        open_session("monitored", [ModelRecorder()])
