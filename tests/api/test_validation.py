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
