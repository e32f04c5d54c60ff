"""TensorFlow's snake_case constructor arguments (``last_step=``) are aliases of the jhooks
camelCase parameters (``lastStep``), for the standard hooks and for users' hooks alike; both
spellings at once is an error naming them."""

from __future__ import annotations

import inspect

import pytest

import jhooks
from jhooks import hooks as standard
from jhooks.api.hook import camel_to_snake


def test_camel_to_snake_is_tensorflows_spelling():
    assert camel_to_snake("lastStep") == "last_step"
    assert camel_to_snake("everyNIter") == "every_n_iter"
    assert camel_to_snake("failOnNanLoss") == "fail_on_nan_loss"


STANDARD = [getattr(standard, n) for n in standard.__all__ if inspect.isclass(getattr(standard, n))]


@pytest.mark.parametrize("cls", [c for c in STANDARD if issubclass(c, jhooks.Hook)], ids=lambda c: c.__name__)
def test_every_camel_case_parameter_of_a_standard_hook_has_its_snake_case_alias(cls):
    camel = [
        p.name
        for p in inspect.signature(cls.__init__).parameters.values()
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and camel_to_snake(p.name) != p.name
    ]
    aliases = getattr(cls.__init__, "__jhooks_aliases__", {})
    assert {camel_to_snake(c): c for c in camel} == aliases


def test_standard_hooks_take_tensorflow_spelling():
    assert standard.StopAtStepHook(last_step=10).lastStep() == 10
    assert standard.StopAtStepHook(num_steps=5).lastStep() is None
    with pytest.raises(ValueError, match="Only one of num_steps or last_step can be specified."):
        standard.StopAtStepHook(num_steps=5, last_step=10)
    with pytest.raises(TypeError, match="got both 'last_step' \\(TensorFlow's spelling\\) and 'lastStep'"):
        standard.StopAtStepHook(last_step=1, lastStep=2)


def test_a_users_hook_gets_the_aliases_too():
    class Threshold(jhooks.Hook):
        def __init__(self, lossTensor, maxLoss=1.0):
            self.lossTensor, self.maxLoss = lossTensor, maxLoss

    hook = Threshold(loss_tensor="loss:0", max_loss=2.0)
    assert (hook.lossTensor, hook.maxLoss) == ("loss:0", 2.0)
    assert list(inspect.signature(Threshold).parameters) == ["lossTensor", "maxLoss"]
    with pytest.raises(TypeError, match="unexpected keyword argument 'max_los'"):
        Threshold("x", max_los=2.0)
