"""Consecutive Java hooks grouped by to_tf_hooks (jhooks.tf.TfHookGroup over the bridge's
JavaHookGroup) behave exactly as the same hooks each in its own TfHookAdapter: same call sequence,
results, stops and errors; one Java call per per-run callback for the group; one merged request
(jhooks.merger) (docs/bridge.md, "Crossing costs"). The one documented difference: a feed conflict
with an earlier TF-native hook is raised when the whole group has returned."""

import re

import jpype
import numpy as np
import tensorflow as tf
from test_python_driver_java_hooks import PyRecorder, RecordingHook, build_graph, java_map

import jhooks
from jhooks.bridge import JavaHook
from jhooks.bridge.convert.arrays import to_java
from jhooks.tf import TfHookAdapter, TfHookGroup, to_tf_hooks


def AfterOnly(name):
    return jpype.JClass("org.jhooks.bridgetest.AfterOnlyHook")(name)


def Failing(message):
    return jpype.JClass("org.jhooks.bridgetest.FailingHook")(message)


def java_list(*names):
    return jpype.JClass("java.util.ArrayList")(jpype.JClass("java.util.Arrays").asList(list(names)))


def feed(value):
    return java_map(**{"y:0": to_java(np.array(value, np.float32))})


class PyFeeder(PyRecorder):
    def beforeSessionRun(self, runContext):
        self.log.add(f"{self.name}.beforeSessionRun")
        return jhooks.SessionRunArgs(None, {"y:0": np.float32(5.0)})


def drive(make_hooks, grouped, log, runs=4):
    """Runs a MonitoredSession over ``make_hooks(log)``; returns (log, caller results, error, tf hooks)."""
    log.clear()
    results, error = [], None
    with tf.Graph().as_default():
        train, x = build_graph()
        hooks = make_hooks(log)
        tf_hooks = (
            to_tf_hooks(hooks) if grouped else [TfHookAdapter(h) if isinstance(h, jhooks.Hook) else h for h in hooks]
        )
        try:
            with tf.compat.v1.train.MonitoredSession(hooks=tf_hooks) as sess:
                for i in range(runs):
                    if sess.should_stop():
                        break
                    results.append(sess.run(["doubled:0", "y_times_3:0"], feed_dict={x: float(i)}))
        except Exception as e:  # compared between the two variants below
            error = e
    return list(map(str, log)), repr(results), error, tf_hooks


def same_both_ways(make_hooks, log, runs=4):
    grouped = drive(make_hooks, True, log, runs)
    ungrouped = drive(make_hooks, False, log, runs)
    assert grouped[0] == ungrouped[0]
    assert grouped[1] == ungrouped[1]
    assert type(grouped[2]) is type(ungrouped[2])
    assert str(grouped[2]) == str(ungrouped[2])
    return grouped


def group_sizes(tf_hooks):
    return [len(h.members) if isinstance(h, TfHookGroup) else 1 for h in tf_hooks]


def test_groups_split_by_a_python_hook_keep_calls_results_and_stop(java_log):
    def hooks(log):
        return [
            JavaHook(RecordingHook("J1", "doubled:0")),
            JavaHook(RecordingHook("J2")),
            JavaHook(AfterOnly("A")),
            PyRecorder("P", log, ("y_times_3:0",)),
            JavaHook(
                RecordingHook(
                    "J3",
                    jpype.JClass("java.util.ArrayList")(
                        jpype.JClass("java.util.Arrays").asList(["doubled:0", "train"])
                    ),
                    None,
                    3,
                )
            ),
            JavaHook(RecordingHook("J4", None, feed(2.0), -1)),
        ]

    log, results, error, tf_hooks = same_both_ways(hooks, java_log, runs=5)
    assert error is None
    assert group_sizes(tf_hooks) == [3, 1, 2]
    # 3 runs (J3 stopped at its third), 2 caller fetches each; numpy 1.x and 2.x print floats differently
    assert len(re.findall(r"\d+\.\d+", results)) == 6
    assert "J1.afterSessionRun float32[]=2.0" in log and "J4.afterSessionRun null" in log
    assert log[-5:] == ["J1.end step=3", "J2.end step=3", "P.end", "J3.end step=3", "J4.end step=3"]


def test_an_exception_in_the_middle_hook_of_a_group_stops_the_loop_there(java_log):
    def hooks(log):
        return [JavaHook(RecordingHook("J1")), JavaHook(Failing("boom")), JavaHook(RecordingHook("J3"))]

    grouped = drive(hooks, True, java_log)
    ungrouped = drive(hooks, False, java_log)
    assert group_sizes(grouped[3]) == [3]
    log = grouped[0]
    assert log == ungrouped[0]
    assert any(entry.startswith("J1.afterSessionRun") for entry in log)
    assert not any(entry.startswith("J3.afterSessionRun") for entry in log)
    assert not any(".end" in entry for entry in log)
    e, u = grouped[2], ungrouped[2]
    assert type(e).__name__ == type(u).__name__ == "java.lang.IllegalStateException"
    assert str(e) == str(u) and "hook failed: boom" in str(e)
    assert str(e.__cause__) == str(u.__cause__)

    def hook_frames(exc):
        return [ln for n in exc.__notes__ for ln in n.splitlines() if "bridgetest" in ln or "Java stack trace" in ln]

    assert hook_frames(e) == hook_frames(u) and hook_frames(e)


def test_a_feed_conflict_inside_a_group_names_both_and_stops_before_the_next_hook(java_log):
    from jhooks.api.errors import HookFeedConflictError

    def hooks(log):
        return [
            JavaHook(RecordingHook("J1", None, feed(1.0), -1)),
            JavaHook(RecordingHook("J2", None, feed(2.0), -1)),
            JavaHook(RecordingHook("J3")),
        ]

    log, _, error, tf_hooks = same_both_ways(hooks, java_log)
    assert group_sizes(tf_hooks) == [3]
    assert isinstance(error, HookFeedConflictError)
    assert str(error).count("org.jhooks.bridgetest.RecordingHook, Java") == 3  # where, first, second
    assert not any(entry.startswith("J3.beforeSessionRun") for entry in log)


def test_a_feed_conflict_with_an_earlier_python_hook_is_raised_from_the_group(java_log):
    from jhooks.api.errors import HookFeedConflictError

    def hooks(log):
        return [
            PyFeeder("P", log),
            JavaHook(RecordingHook("J1")),
            JavaHook(RecordingHook("J2", None, feed(2.0), -1)),
            JavaHook(RecordingHook("J3")),
        ]

    log, _, error, tf_hooks = same_both_ways(hooks, java_log)
    assert group_sizes(tf_hooks) == [1, 3]
    assert isinstance(
        error, HookFeedConflictError
    ) and "PyFeeder and hook (org.jhooks.bridgetest.RecordingHook, Java)" in str(error)
    assert "J2.beforeSessionRun" in " ".join(log) and "J3.beforeSessionRun" not in " ".join(log)


def test_a_feed_conflict_with_an_earlier_tensorflow_hook_is_tensorflows_error_raised_after_the_group(java_log):
    """The documented difference (docs/python-driver.md): TensorFlow sees the group's feeds when the
    whole group has returned, so J2 is called before TensorFlow's own RuntimeError, which ungrouped
    hooks get right after J1."""

    class TfFeeder(tf.compat.v1.train.SessionRunHook):
        def before_run(self, run_context):
            return tf.compat.v1.train.SessionRunArgs(None, {run_context.session.graph.get_tensor_by_name("y:0"): 4.0})

    def hooks(log):
        return [TfFeeder(), JavaHook(RecordingHook("J1", None, feed(2.0), -1)), JavaHook(RecordingHook("J2"))]

    grouped = drive(hooks, True, java_log)
    ungrouped = drive(hooks, False, java_log)
    assert group_sizes(grouped[3]) == [1, 2]
    for log, _, error, _ in (grouped, ungrouped):
        assert type(error) is RuntimeError and "Same tensor is fed by two hooks" in str(error)
        assert "J1.beforeSessionRun" in " ".join(log)
        assert not any(".afterSessionRun" in entry for entry in log)
    assert "J2.beforeSessionRun" in " ".join(grouped[0])
    assert "J2.beforeSessionRun" not in " ".join(ungrouped[0])
    assert str(grouped[2]) == str(ungrouped[2])


def test_the_group_asks_tensorflow_once_for_a_name_several_hooks_fetch_and_each_gets_its_structure(java_log):
    def hooks(log):
        return [
            JavaHook(RecordingHook("J1", "doubled:0")),
            JavaHook(RecordingHook("J2", java_list("doubled:0", "train"))),
            JavaHook(RecordingHook("J3", None, feed(2.0), -1)),
        ]

    log, results, error, tf_hooks = same_both_ways(hooks, java_log, runs=2)
    assert error is None and group_sizes(tf_hooks) == [3]
    assert "J1.afterSessionRun float32[]=2.0" in log
    assert any(entry.startswith("J2.afterSessionRun [float32[]=2.0, null]") for entry in log), log
    with tf.Graph().as_default():
        build_graph()
        (group,) = to_tf_hooks(hooks(java_log))
        group.begin()
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            group.after_create_session(sess, tf.train.Coordinator())
            context = tf.compat.v1.train.SessionRunContext(tf.compat.v1.train.SessionRunArgs(None), sess)
            request = group.before_run(context)
    assert [t.name for t in request.fetches] == ["doubled:0", "train"]  # de-duplicated, tensors then targets
    assert [t.name for t in request.feed_dict] == ["y:0"]


def test_a_bad_name_in_a_group_stops_before_the_next_hook(java_log):
    from jhooks.tf.errors import GraphNameError

    def hooks(log):
        return [
            JavaHook(RecordingHook("J1")),
            JavaHook(RecordingHook("J2", "no_such_tensor:0")),
            JavaHook(RecordingHook("J3")),
        ]

    log, _, error, _ = same_both_ways(hooks, java_log)
    assert isinstance(error, GraphNameError)
    assert str(error).startswith(
        "hook (org.jhooks.bridgetest.RecordingHook, Java).beforeSessionRun: 'no_such_tensor:0'"
    )
    assert "J3.beforeSessionRun" not in " ".join(log)


def test_a_group_crosses_into_java_once_per_per_run_callback(java_log):
    hooks = [JavaHook(RecordingHook(f"J{i}")) for i in range(4)]
    runs = 5
    with tf.Graph().as_default():
        train, _ = build_graph()
        (group,) = to_tf_hooks(hooks)
        with tf.compat.v1.train.MonitoredSession(hooks=[group]) as sess:
            for _ in range(runs):
                sess.run(train)
    assert group.batch.java.crossings() == 2 * runs
    assert [h._calls.crossings() for h in hooks] == [0] * 4
    assert sum(1 for entry in java_log if ".beforeSessionRun" in str(entry)) == 4 * runs
    assert sum(1 for entry in java_log if ".afterSessionRun" in str(entry)) == 4 * runs


def test_ungrouped_java_hooks_cross_once_per_hook_and_callback(java_log):
    hooks = [JavaHook(RecordingHook(f"J{i}")) for i in range(2)]
    with tf.Graph().as_default():
        train, _ = build_graph()
        with tf.compat.v1.train.MonitoredSession(hooks=[TfHookAdapter(h) for h in hooks]) as sess:
            for _ in range(3):
                sess.run(train)
    assert [h._calls.crossings() for h in hooks] == [6, 6]


def test_a_subclass_or_patched_java_hook_is_not_grouped(java_log):
    class Sub(JavaHook):
        pass

    patched = JavaHook(RecordingHook("J2"))
    patched.beforeSessionRun = lambda runContext: None
    out = to_tf_hooks([JavaHook(RecordingHook("J1")), Sub(RecordingHook("S")), patched, JavaHook(RecordingHook("J3"))])
    assert [type(h) for h in out] == [TfHookAdapter] * 4


def test_hooks_repeating_one_fetch_name_cross_once_per_run_with_the_same_values(java_log):
    def hooks(log):
        return [
            JavaHook(RecordingHook("J1", "doubled:0")),
            JavaHook(RecordingHook("J2", "doubled:0")),
            JavaHook(RecordingHook("J3", "y_times_3:0")),
        ]

    log, _, error, tf_hooks = same_both_ways(hooks, java_log, runs=5)
    assert error is None and group_sizes(tf_hooks) == [3]
    assert "J2.afterSessionRun float32[]=8.0" in log  # run 5 (x = 4): as each hook alone gets it
    runs = 5
    with tf.Graph().as_default():
        train, x = build_graph()
        (group,) = to_tf_hooks(hooks(java_log))
        with tf.compat.v1.train.MonitoredSession(hooks=[group]) as sess:
            for i in range(runs):
                sess.run(train, feed_dict={x: float(i)})
    # the first run returns each hook's args (3 calls) and its after (1); later runs repeat the
    # same names: one call before, one after
    assert group.batch.java.crossings() == 4 + 2 * (runs - 1)


def test_a_missing_name_a_hook_returns_again_fails_again_before_the_next_hook(java_log):
    from jhooks.tf.errors import GraphNameError

    hooks = [
        JavaHook(RecordingHook("J1", "doubled:0")),
        JavaHook(RecordingHook("J2", "no_such_tensor:0")),
        JavaHook(RecordingHook("J3", "doubled:0")),
    ]
    with tf.Graph().as_default():
        build_graph()
        (group,) = to_tf_hooks(hooks)
        group.begin()
        init = tf.compat.v1.global_variables_initializer()
        tf.compat.v1.get_default_graph().finalize()  # as MonitoredSession does: names are remembered
        with tf.compat.v1.Session() as sess:
            sess.run(init)
            group.after_create_session(sess, tf.train.Coordinator())
            for _ in range(3):
                context = tf.compat.v1.train.SessionRunContext(tf.compat.v1.train.SessionRunArgs(None), sess)
                try:
                    group.before_run(context)
                except GraphNameError as e:
                    assert "'no_such_tensor:0'" in str(e)
                else:
                    raise AssertionError("a missing name passed once it had failed")
                # checked before the next hook is called, every time (not remembered as accepted)
                assert "J3.beforeSessionRun" not in " ".join(map(str, java_log))


def test_a_single_java_hook_repeating_one_fetch_name_gets_each_runs_value(java_log):
    hook = JavaHook(RecordingHook("J1", "doubled:0"))
    with tf.Graph().as_default():
        train, x = build_graph()
        with tf.compat.v1.train.MonitoredSession(hooks=to_tf_hooks([hook])) as sess:
            for i in range(3):
                sess.run(train, feed_dict={x: float(i)})
    after = [str(e) for e in java_log if "J1.afterSessionRun" in str(e)]
    assert after == [f"J1.afterSessionRun float32[]={2.0 * i}" for i in range(3)]
    assert hook._lastArgs is not None and hook._lastArgs.fetches == "doubled:0"
