"""A callback assigned on a hook instance after construction is checked at its first call, with
the message a wrong signature on the hook's class gets at registration, in the Python driver (this
file) and the JVM driver (tests/hooks/test_cross_python_hooks_jvm_driver.py)."""

import pytest
from tf_support import KINDS, Counter, open_session

import jhooks
from jhooks import hooks as pyhooks

EXPECTED = {
    "afterCreateSession": "afterCreateSession(self, session, coord)",
    "beforeSessionRun": "beforeSessionRun(self, runContext)",
    "afterSessionRun": "afterSessionRun(self, runContext, runValues)",
    "end": "end(self, session)",
}


class Plain(jhooks.Hook):
    pass


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("method", sorted(EXPECTED))
def test_a_patched_callback_with_the_wrong_signature_fails_at_its_first_call(graph, kind, method):
    hook = Plain()
    setattr(hook, method, lambda: None)
    c = Counter()
    with pytest.raises(jhooks.HookValidationError) as err:
        with open_session(kind, [hook]) as sess:
            sess.run(c.train)
    assert str(err.value) == f"{__name__}.Plain.{method} has the wrong signature; expected {EXPECTED[method]}"


def test_a_standard_hook_patched_after_registration_fails_at_its_next_call(graph):
    hook = pyhooks.StopAtStepHook(numSteps=10)
    c = Counter()
    with open_session("monitored", [hook]) as sess:
        sess.run(c.train)
        hook.afterSessionRun = lambda runContext: None  # one parameter short
        with pytest.raises(jhooks.HookValidationError, match=r"StopAtStepHook\.afterSessionRun has the wrong sig"):
            sess.run(c.train)


def test_a_patched_callback_that_fits_is_called(graph):
    seen = []
    hook = pyhooks.StopAtStepHook(numSteps=10)
    original = hook.afterSessionRun
    hook.afterSessionRun = lambda runContext, runValues: (
        seen.append(int(runValues.results)) or original(runContext, runValues)
    )
    c = Counter()
    with open_session("monitored", [hook]) as sess:
        for _ in range(3):
            sess.run(c.train)
    assert len(seen) == 3 and seen == sorted(seen)
