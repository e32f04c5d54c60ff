"""validate_hook: wrong signatures raise, TF snake_case names warn."""

import warnings

import pytest

import jhooks


def test_a_correct_hook_passes_silently():
    class Good(jhooks.Hook):
        def beforeSessionRun(self, runContext):
            return None

        def afterSessionRun(self, runContext, runValues, *extra):
            pass

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        jhooks.validate_hook(Good())


@pytest.mark.parametrize(
    "method,src,expected",
    [
        ("beforeSessionRun", "def beforeSessionRun(self): pass", "beforeSessionRun(self, runContext)"),
        (
            "afterSessionRun",
            "def afterSessionRun(self, runContext): pass",
            "afterSessionRun(self, runContext, runValues)",
        ),
        (
            "afterCreateSession",
            "def afterCreateSession(self, session, coord, more): pass",
            "afterCreateSession(self, session, coord)",
        ),
        ("end", "def end(self): pass", "end(self, session)"),
        ("begin", "def begin(self, x): pass", "begin(self)"),
    ],
)
def test_wrong_parameter_count_names_hook_method_and_signature(method, src, expected):
    ns = {}
    exec(src, ns)
    Bad = type("Bad", (jhooks.Hook,), {method: ns[method]})
    with pytest.raises(jhooks.HookValidationError) as err:
        jhooks.validate_hook(Bad())
    msg = str(err.value)
    assert f"Bad.{method} has the wrong signature" in msg and f"expected {expected}" in msg


def test_not_a_hook():
    with pytest.raises(jhooks.HookValidationError, match="int is not a jhooks.Hook"):
        jhooks.validate_hook(3)


def test_snake_case_before_run_warns():
    class Snake(jhooks.Hook):
        def before_run(self, run_context):
            return None

    with pytest.warns(
        jhooks.SnakeCaseHookWarning, match=r"Snake\.before_run .*rename it to beforeSessionRun\(self, runContext\)"
    ):
        jhooks.validate_hook(Snake())


class Plain(jhooks.Hook):
    pass


@pytest.mark.parametrize(
    "method,func,args,expected",
    [
        ("beforeSessionRun", lambda: None, ("ctx",), "beforeSessionRun(self, runContext)"),
        ("afterSessionRun", lambda runContext: None, ("ctx", "values"), "afterSessionRun(self, runContext, runValues)"),
        ("afterCreateSession", lambda s, c, extra: None, ("s", "c"), "afterCreateSession(self, session, coord)"),
        ("end", lambda: None, ("s",), "end(self, session)"),
        ("begin", lambda x: None, (), "begin(self)"),
        ("onError", lambda session: None, ("s", "e"), "onError(self, session, error)"),
        ("end", None, ("s",), "end(self, session)"),
    ],
)
def test_a_callback_patched_on_the_instance_is_checked_at_its_first_call_as_a_class_is(method, func, args, expected):
    hook = Plain()
    setattr(hook, method, func)
    jhooks.validate_hook(hook)  # registration sees the class only
    with pytest.raises(jhooks.HookValidationError) as err:
        getattr(hook, method)(*args)
    assert str(err.value) == f"{__name__}.Plain.{method} has the wrong signature; expected {expected}"
    # the same message as the same callable defined on the class (static: no self to bind)
    Bad = type("Plain", (jhooks.Hook,), {"__module__": __name__, method: staticmethod(func)})
    with pytest.raises(jhooks.HookValidationError) as class_err:
        jhooks.validate_hook(Bad())
    assert str(class_err.value) == str(err.value)


def test_a_patched_callback_that_fits_is_called_and_then_called_directly():
    calls = []
    hook = Plain()
    hook.afterSessionRun = lambda runContext, runValues: calls.append((runContext, runValues)) or "result"
    wrapper = hook.__dict__["afterSessionRun"]
    assert hook.afterSessionRun("ctx", "values") == "result"
    assert hook.__dict__["afterSessionRun"] is wrapper.func  # checked once: later calls go straight to it
    assert hook.afterSessionRun("ctx2", "values2") == "result"
    assert calls == [("ctx", "values"), ("ctx2", "values2")]


def test_a_bad_patch_keeps_failing_and_other_attributes_are_untouched():
    hook = Plain()
    hook.beforeSessionRun = lambda: None
    for _ in range(2):
        with pytest.raises(jhooks.HookValidationError):
            hook.beforeSessionRun("ctx")
    hook.state = 3
    assert hook.__dict__["state"] == 3
