"""Consecutive Python hooks in the JVM MonitoredSession are driven as one group
(org.jhooks.bridge.PythonHookGroup over the bridge's Python group proxy) and behave exactly as the
same hooks each called on its own: same call sequence, results, stops and errors; one crossing into
Python per per-run callback for the whole group (docs/bridge.md, "Crossing costs")."""

import jpype
import pytest
from test_jvm_driver_python_hooks import PyRecorder, f32

import jhooks
from jhooks.bridge import as_java_hook
from jhooks.bridge.backend.choice import current
from jhooks.bridge.hooks import python_hooks
from jhooks.bridge.process.calls import call_java


def JvmDriver():
    return jpype.JClass("org.jhooks.bridgetest.JvmDriver")


def java_list(items):
    out = jpype.JClass("java.util.ArrayList")()
    for i in items:
        out.add(i)
    return out


def ungrouped(hook):
    """``hook`` as as_java_hook makes it, but offering no group: the JVM driver calls it alone."""
    backend = current()
    target = python_hooks._HookProxy(hook, backend.to_bytes)
    proxy = backend.proxy("org.jhooks.bridge.PythonHookTarget", target)
    name, before, after = python_hooks._name(hook), target.callsBefore, target.callsAfter
    if isinstance(hook, jhooks.ModelDependentHook):
        consumer = backend.proxy("java.util.function.Consumer", python_hooks._ModelSink(hook))
        return jpype.JClass("org.jhooks.bridge.PythonModelDependentHook")(proxy, name, consumer, before, after, None, 0)
    return jpype.JClass("org.jhooks.bridge.PythonHook")(proxy, name, before, after, None, 0)


def drive(make_hooks, grouped, log, steps=4):
    """Runs the JVM driver over ``make_hooks(log)`` (Python hooks, and Java hooks as they are);
    returns the call log, the number of runs and the error's text as the Java caller sees it."""
    log.clear()
    hooks = [
        (as_java_hook(h) if grouped else ungrouped(h)) if isinstance(h, jhooks.Hook) else h for h in make_hooks(log)
    ]
    error = call_java(JvmDriver().runCatching, java_list(hooks), steps)
    runs = None
    if error is None:
        log.clear()
        hooks = [
            (as_java_hook(h) if grouped else ungrouped(h)) if isinstance(h, jhooks.Hook) else h for h in make_hooks(log)
        ]
        runs = int(call_java(JvmDriver().run, java_list(hooks), steps, None))
    text = None if error is None else f"{error.getClass().getName()}: {error.getMessage()}"
    return list(map(str, log)), runs, text


def same_both_ways(make_hooks, log, steps=4):
    grouped = drive(make_hooks, True, log, steps)
    alone = drive(make_hooks, False, log, steps)
    assert grouped == alone
    return grouped


class Counted:
    """Counts the calls Java makes into the Python side of groups and of single Python hooks."""

    def __init__(self, monkeypatch):
        self.calls = []
        self.results = []  # what each call returned to Java
        for cls, names in (
            (
                python_hooks._GroupProxy,
                ("beforeSessionRun", "beforeSessionRunSameContext", "beforeSessionRunNext", "takeArgs"),
            ),
            (python_hooks._GroupProxy, ("afterSessionRun", "afterSessionRunPacked")),
            (python_hooks._HookProxy, ("beforeSessionRun", "beforeSessionRunSameContext", "beforeSessionRunNext")),
            (python_hooks._HookProxy, ("afterSessionRun", "afterSessionRunSameContext", "afterSessionRunPacked")),
        ):
            for name in names:
                monkeypatch.setattr(cls, name, self._counting(cls.__name__ + "." + name, getattr(cls, name)))

    def _counting(self, name, method):
        def counted(*args):
            self.calls.append(name)
            result = method(*args)
            self.results.append(result)
            return result

        return counted


class AfterOnly(jhooks.Hook):
    def __init__(self, name, log):
        self.name, self.log = name, log

    def afterSessionRun(self, runContext, runValues):
        self.log.add(f"{self.name}.afterSessionRun {runValues.results!r} stop={runContext.stopRequested}")


class OneName(jhooks.Hook):
    """Fetches one name every run, as most standard hooks do (interned args)."""

    def __init__(self, name, log, fetch="double:0"):
        self.name, self.log, self.fetch = name, log, fetch

    def beforeSessionRun(self, runContext):
        return jhooks.SessionRunArgs.of(self.fetch)

    def afterSessionRun(self, runContext, runValues):
        results = runValues.results
        self.log.add(f"{self.name} {results!r} writeable={results.flags.writeable}")


def test_grouped_python_hooks_keep_calls_results_and_stop(java_log):
    def hooks(log):
        return [
            PyRecorder("P1", log, fetches=("double:0",)),
            PyRecorder("P2", log, fetches={"d": "double:0", "t": "bump"}, feeds={"y:0": f32(5.0)}, stop_at=3),
            AfterOnly("A", log),
            OneName("O", log, "y_times_3:0"),
        ]

    log, runs, error = same_both_ways(hooks, java_log)
    assert error is None and runs == 3
    assert "O array(15., dtype=float32) writeable=False" in log
    assert "A.afterSessionRun None stop=True" in log  # the stop P2 requested in the same run


def test_a_group_split_by_a_java_hook_keeps_the_order(java_log):
    def hooks(log):
        return [
            OneName("O1", log),
            jpype.JClass("org.jhooks.bridgetest.RecordingHook")("J", "y_times_3:0"),
            OneName("O2", log),
            OneName("O3", log, "y_times_3:0"),
            PyRecorder("P", log, stop_at=2),
        ]

    log, runs, error = same_both_ways(hooks, java_log)
    assert error is None and runs == 2
    assert [line.split()[0] for line in log if line.startswith(("O", "J.afterSessionRun"))][:4] == [
        "O1",
        "J.afterSessionRun",
        "O2",
        "O3",
    ]


def test_an_exception_in_the_middle_of_a_group_stops_there_and_names_that_hook(java_log):
    class Failing(jhooks.Hook):
        def beforeSessionRun(self, runContext):
            raise FloatingPointError("bad step")

    def hooks(log):
        return [OneName("O1", log), Failing(), OneName("O2", log)]

    log, runs, error = same_both_ways(hooks, java_log)
    failing = f"{Failing.__module__}.{Failing.__qualname__}"
    assert error.startswith("org.jhooks.bridge.PythonException: builtins.FloatingPointError: bad step"), error
    assert log == []  # nothing ran after: the first run's before stopped at hook #2

    with pytest.raises(FloatingPointError, match="bad step") as e:
        call_java(JvmDriver().run, java_list([as_java_hook(h) for h in hooks(java_log)]), 3, None)
    assert f"hook #2 ({failing}, Python).beforeSessionRun" in "\n".join(e.value.__notes__)


def test_an_after_session_run_error_stops_the_group_at_that_hook(java_log):
    class FailingAfter(jhooks.Hook):
        def afterSessionRun(self, runContext, runValues):
            raise ValueError(f"results {runValues.results!r}")

    def hooks(log):
        return [OneName("O1", log), FailingAfter(), OneName("O2", log)]

    log, runs, error = same_both_ways(hooks, java_log)
    assert log == ["O1 array(2., dtype=float32) writeable=False"]
    # a built-in ValueError reaches the Java caller as IllegalArgumentException (standard_errors)
    assert error == "java.lang.IllegalArgumentException: results None"


def test_a_bad_name_in_a_group_stops_before_the_next_hook_every_time(java_log):
    class Again(jhooks.Hook):
        def __init__(self, log):
            self.log = log

        def beforeSessionRun(self, runContext):
            self.log.add("bad.beforeSessionRun")
            return jhooks.SessionRunArgs.of("no_such_op:0")

    def hooks(log):
        return [OneName("O1", log), Again(log), OneName("O2", log)]

    log, runs, error = same_both_ways(hooks, java_log)
    assert log == ["bad.beforeSessionRun"]
    assert "no_such_op" in error and "GraphNameException" in error


def test_a_feed_conflict_inside_a_group_names_both_hooks(java_log):
    def hooks(log):
        return [
            PyRecorder("P1", log, feeds={"y:0": f32(1.0)}),
            PyRecorder("P2", log, feeds={"y:0": f32(2.0)}),
            OneName("O", log),
        ]

    log, runs, error = same_both_ways(hooks, java_log)
    assert "HookFeedConflictException" in error
    assert not any(line.startswith("O") for line in log)


def test_a_bad_return_value_is_a_type_error_naming_the_hook(java_log):
    class Bad(jhooks.Hook):
        def beforeSessionRun(self, runContext):
            return "double:0"

    def hooks(log):
        return [OneName("O1", log), Bad()]

    log, runs, error = same_both_ways(hooks, java_log)
    assert f"{Bad.__module__}.{Bad.__qualname__}.beforeSessionRun returned str 'double:0'" in error


def test_a_group_crosses_into_python_once_per_per_run_callback(java_log, monkeypatch):
    counted = Counted(monkeypatch)
    hooks = [OneName(f"O{i}", java_log) for i in range(4)]
    runs = int(call_java(JvmDriver().run, java_list([as_java_hook(h) for h in hooks]), 3, None))
    assert runs == 3
    # run 1: before returns at each hook's new args (4 calls, 4 takes); runs 2 and 3: every hook
    # repeats its one name, one call; after: one call per run, the values packed
    before = [c for c in counted.calls if "before" in c or "take" in c]
    after = [c for c in counted.calls if "after" in c]
    assert len(before) == 8 + 1 + 1, before
    # a new run's context is found without its id crossing: the id that crossed last, plus one
    assert before[-2:] == ["_GroupProxy.beforeSessionRunNext"] * 2, before
    # run 2 returns its result (no new args, all four repeated); run 3 the same: None, nothing to convert
    nexts = [r for c, r in zip(counted.calls, counted.results) if c.endswith("Next")]
    assert nexts[0] is not None and nexts[1] is None, nexts
    assert after == ["_GroupProxy.afterSessionRunPacked"] * 3, after
    assert all(c.startswith("_GroupProxy") for c in counted.calls)
    # each run's own value, read-only, as a single hook gets it
    assert [str(x) for x in java_log][-4:] == [f"O{i} array(6., dtype=float32) writeable=False" for i in range(4)]


def test_ungrouped_python_hooks_cross_once_per_hook_and_callback(java_log, monkeypatch):
    counted = Counted(monkeypatch)
    hooks = [ungrouped(OneName(f"O{i}", java_log)) for i in range(4)]
    call_java(JvmDriver().run, java_list(hooks), 3, None)
    assert not any(c.startswith("_GroupProxy") for c in counted.calls)
    assert len(counted.calls) == 3 * 4 * 2
    # runs 2 and 3: the first hook finds the new run's context as the id after the last one
    assert counted.calls[8::8] == ["_HookProxy.beforeSessionRunNext"] * 2, counted.calls


def test_a_hook_changing_its_one_name_is_asked_again_and_gets_the_new_value(java_log):
    class Alternating(jhooks.Hook):
        def __init__(self, log):
            self.log, self.runs = log, 0

        def beforeSessionRun(self, runContext):
            self.runs += 1
            return jhooks.SessionRunArgs.of("double:0" if self.runs % 3 else "y_times_3:0")

        def afterSessionRun(self, runContext, runValues):
            self.log.add(f"alt {runValues.results!r}")

    def hooks(log):
        return [OneName("O", log), Alternating(log), OneName("O2", log, "y_times_3:0")]

    log, runs, error = same_both_ways(hooks, java_log, steps=6)
    assert error is None
    assert [line for line in log if line.startswith("alt")] == [
        f"alt {f32(v)!r}" for v in (2.0, 4.0, 0.0, 8.0, 10.0, 0.0)
    ]


def test_a_hook_that_returns_none_between_its_one_names_gets_each_runs_value(java_log):
    class Sometimes(jhooks.Hook):
        def __init__(self, log):
            self.log, self.runs = log, 0

        def beforeSessionRun(self, runContext):
            self.runs += 1
            return None if self.runs == 2 else jhooks.SessionRunArgs.of("double:0")

        def afterSessionRun(self, runContext, runValues):
            self.log.add(f"some {runValues.results!r}")

    def hooks(log):
        return [Sometimes(log), OneName("O", log)]

    log, runs, error = same_both_ways(hooks, java_log)
    assert [line for line in log if line.startswith("some")] == [
        f"some {f32(2.0)!r}",
        "some None",
        f"some {f32(6.0)!r}",
        f"some {f32(8.0)!r}",
    ]


def test_python_model_dependent_hooks_join_a_group_and_get_the_model(java_log):
    class LossLogger(jhooks.ModelDependentHook):
        def __init__(self, log):
            self.log = log

        def beforeSessionRun(self, runContext):
            return jhooks.SessionRunArgs.of(self.modelInstance.loss)

        def afterSessionRun(self, runContext, runValues):
            self.log.add(f"model {self.modelInstance.loss} {runValues.results!r}")

    model = jpype.JClass("org.jhooks.ModelInstance").of("double:0", "train_step", "global_step:0")
    for make in (as_java_hook, ungrouped):
        java_log.clear()
        hooks = [LossLogger(java_log), OneName("O", java_log)]
        call_java(JvmDriver().run, java_list([make(h) for h in hooks]), 2, model)
        assert list(map(str, java_log)) == [
            f"model double:0 {f32(2.0)!r}",
            "O array(2., dtype=float32) writeable=False",
            f"model double:0 {f32(4.0)!r}",
            "O array(4., dtype=float32) writeable=False",
        ]


def test_results_that_do_not_pack_cross_unpacked_in_one_call(java_log, monkeypatch):
    def hooks(log):
        return [
            PyRecorder("P1", log, fetches=["double:0", "y_times_3:0"]),
            OneName("O", log),
        ]

    counted = Counted(monkeypatch)
    log, runs, error = same_both_ways(hooks, java_log, steps=2)
    assert error is None
    grouped_after = [c for c in counted.calls if c.startswith("_GroupProxy.after")]
    assert grouped_after and set(grouped_after) == {"_GroupProxy.afterSessionRun"}
    assert f"P1.afterSessionRun {[f32(2.0), f32(0.0)]!r}" in log


def test_each_run_sees_its_own_sessions_view_when_two_sessions_take_turns(java_log):
    class Steps(jhooks.Hook):
        def __init__(self):
            self.seen = []

        def beforeSessionRun(self, runContext):
            return jhooks.SessionRunArgs.of(runContext.session.globalStepTensorName())

        def afterSessionRun(self, runContext, runValues):
            session = runContext.session
            self.seen.append((int(runValues.results), session.globalStep(), id(session)))

    for make in (as_java_hook, ungrouped):
        hooks = [Steps(), Steps()]
        call_java(jpype.JClass("org.jhooks.bridgetest.TwoSessions").alternate, java_list([make(h) for h in hooks]), 3)
        for h in hooks:
            # A's steps 1, 2, then B's 1; A's 3, 4, B's 2; ... each read through its own session's view
            assert [step for _, step, _ in h.seen] == [1, 2, 1, 3, 4, 2, 5, 6, 3]
            assert all(fetched == step for fetched, step, _ in h.seen)
            views = [view for _, _, view in h.seen]
            assert views[0] == views[1] != views[2]  # the view is reused only for the same session
