"""ModelInstance and ModelDependentHook (set once)."""

import pytest

import jhooks


class Needy(jhooks.ModelDependentHook):
    pass


def test_model_instance_endpoints():
    m = jhooks.ModelInstance.of(loss="loss:0", trainOp="train", globalStep="global_step:0")
    assert (m.loss, m.trainOp, m.globalStep) == ("loss:0", "train", "global_step:0")
    assert m.endpoint("loss") == "loss:0"
    with pytest.raises(KeyError, match=r"no endpoint 'accuracy'.*\['globalStep', 'loss', 'trainOp'\]"):
        m.endpoint("accuracy")
    view = m.endpoints
    view["loss"] = "changed:0"
    assert m.loss == "loss:0"
    with pytest.raises(ValueError, match="must be str"):
        jhooks.ModelInstance({"loss": 3})


def test_model_dependent_hook_is_set_once():
    m = jhooks.ModelInstance.of("loss:0", "train", "global_step:0")
    h = Needy()
    assert h.modelInstance is None
    h.modelInstance = m
    h.modelInstance = m  # the same instance again is fine
    assert h.modelInstance is m
    with pytest.raises(RuntimeError, match="already set"):
        h.modelInstance = jhooks.ModelInstance.of("other:0", "train", "global_step:0")
    assert h.modelInstance is m
    with pytest.raises(TypeError, match="expected a ModelInstance, got dict"):
        Needy().modelInstance = {"loss": "loss:0"}
