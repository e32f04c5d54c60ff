"""jhooks.Hook defaults and naming."""

import jhooks
from jhooks.api.hook import hook_name


def test_begin_session_calls_begin_by_default():
    calls = []

    class H(jhooks.Hook):
        def begin(self):
            calls.append("begin")

    H().beginSession()
    assert calls == ["begin"]


def test_overriding_begin_session_replaces_begin():
    calls = []

    class H(jhooks.Hook):
        def begin(self):
            calls.append("begin")

        def beginSession(self):
            calls.append("beginSession")

    H().beginSession()
    assert calls == ["beginSession"]


def test_defaults_are_no_ops():
    h = jhooks.Hook()
    ctx = jhooks.SessionRunContext(jhooks.SessionRunArgs(), session=None)
    assert h.beforeSessionRun(ctx) is None
    assert h.afterSessionRun(ctx, jhooks.SessionRunValues()) is None
    assert h.afterCreateSession(None, jhooks.Coordinator()) is None
    assert h.end(None) is None


def test_hook_names():
    class Mine(jhooks.Hook):
        pass

    assert hook_name(Mine()) == f"{__name__}.test_hook_names.<locals>.Mine"
    assert hook_name(Mine(), 2) == f"hook #2 ({__name__}.test_hook_names.<locals>.Mine)"


def test_run_context_stop_flag_and_coordinator():
    ctx = jhooks.SessionRunContext(jhooks.SessionRunArgs("a:0"), session=None)
    assert not ctx.stopRequested
    ctx.requestStop()
    assert ctx.stopRequested
    coord = jhooks.Coordinator()
    first, second = ValueError("first"), ValueError("second")
    coord.requestStop(first)
    coord.requestStop(second)
    assert coord.shouldStop() and coord.error() is first
    coord.clearStop()
    assert not coord.shouldStop() and coord.error() is None
