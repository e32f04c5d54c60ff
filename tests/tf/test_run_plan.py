"""The per-run plan (jhooks.tf.run_plan) and hook groups (jhooks.tf.hook_batch): what is reused
from run to run must never change what hooks get or which errors are raised."""

from __future__ import annotations

import numpy as np
import pytest
import tensorflow as tf
from tf_support import Counter, Recorder, open_session

import jhooks
from jhooks.api.errors import HookFeedConflictError
from jhooks.tf import GraphNameError, TfHookAdapter, TfHookGroup, to_tf_hooks
from jhooks.tf.hook_batch import BeforeResult


class Asking(jhooks.Hook):
    """Returns ``make(run)`` every run (run counts from 0) and keeps the results it got."""

    def __init__(self, make, log=None, name="A"):
        self.make = make
        self.runs = 0
        self.results = []
        self.log = log
        self.name = name

    def beforeSessionRun(self, runContext):
        if self.log is not None:
            self.log.append(f"{self.name}.before")
        return self.make(self.runs)

    def afterSessionRun(self, runContext, runValues):
        self.runs += 1
        self.results.append(runValues.results)
        if self.log is not None:
            self.log.append(f"{self.name}.after {runValues.results!r}")


class InOrderBatch:
    """A HookBatch over Python hooks as the bridge's groups work: in order, back at each hook with
    new args; one-name fetch-only args a hook returns again after they were accepted are reported
    repeated, not returned."""

    def __init__(self, hooks):
        self.hooks = hooks
        self.last = [None] * len(hooks)
        self.at = -1
        self.calls = 0
        self.forgets = 0

    def beforeSessionRun(self, runContext, start):
        self.calls += 1
        repeated = 0
        for i in range(start, len(self.hooks)):
            self.at = i
            args = self.hooks[i].beforeSessionRun(runContext)
            if args is None:
                continue
            one = args.fetches if isinstance(args.fetches, str) and not args.feeds and args.options is None else None
            if one is not None and one == self.last[i]:
                repeated |= 1 << i
                continue
            self.last[i] = one
            return BeforeResult(i, args, repeated)
        return BeforeResult(len(self.hooks), None, repeated)

    def afterSessionRun(self, runContext, runValues):
        for i, values in enumerate(runValues):
            self.at = i
            self.hooks[i].afterSessionRun(runContext, values)

    def position(self):
        return self.at

    def forget(self):
        self.forgets += 1
        self.last = [None] * len(self.hooks)


class Batched(Asking):
    """An Asking hook that offers the one batch factory given."""

    def __init__(self, factory, make, log=None, name="A"):
        super().__init__(make, log, name)
        self.factory = factory

    def batchFactory(self):
        return self.factory


@pytest.fixture
def batches():
    made = []

    def factory(hooks):
        made.append(InOrderBatch(hooks))
        return made[-1]

    return factory, made


def run(hooks, runs=3, feed=True):
    """``runs`` runs; the caller feeds x = the run's index when ``feed``."""
    c = Counter()
    with open_session("monitored", hooks) as sess:
        for i in range(runs):
            sess.run(c.train, feed_dict={c.x: float(i)} if feed else None)


def test_interned_args_are_one_read_only_object_equal_to_constructed_ones():
    a = jhooks.SessionRunArgs.of("loss:0")
    assert a is jhooks.SessionRunArgs.of("loss:0")
    assert a == jhooks.SessionRunArgs("loss:0")
    with pytest.raises(TypeError):
        a.feeds["x:0"] = 1.0  # type: ignore[index]
    assert jhooks.SessionRunArgs.of(["a:0"]) is not jhooks.SessionRunArgs.of(["a:0"])


def test_changed_args_are_resolved_again(graph):
    hook = Asking(lambda run: jhooks.SessionRunArgs.of("doubled:0" if run % 2 else "x:0"))
    run([hook], runs=4)
    assert [float(r) for r in hook.results] == [0.0, 2.0, 2.0, 6.0]


def test_equal_but_new_args_get_each_runs_values_and_the_same_request(graph):
    hook = Asking(lambda run: jhooks.SessionRunArgs("doubled:0"))
    run([hook], runs=3)
    assert [float(r) for r in hook.results] == [0.0, 2.0, 4.0]
    (adapter,) = to_tf_hooks([Asking(lambda run: jhooks.SessionRunArgs(["doubled:0", "x:0"]))])
    with tf.compat.v1.Session() as sess:
        graph.finalize()
        requests = []
        for _ in range(2):
            context = tf.compat.v1.train.SessionRunContext(tf.compat.v1.train.SessionRunArgs(None), sess)
            requests.append(adapter.before_run(context))
    assert requests[0] is requests[1]
    assert [t.name for t in requests[0].fetches] == ["doubled:0", "x:0"]


def test_feed_values_of_the_same_args_object_are_read_every_run(graph):
    args = jhooks.SessionRunArgs("doubled:0", {"x:0": np.float32(1.0)})

    def make(run):
        args.feeds["x:0"] = np.float32(10.0 * run)  # the same object, new values
        return args

    hook = Asking(make)
    run([hook], runs=3, feed=False)
    assert [float(r) for r in hook.results] == [0.0, 20.0, 40.0]


def test_a_feed_conflict_is_raised_on_every_run_that_has_it(graph):
    feeding = jhooks.SessionRunArgs(None, {"x:0": 1.0})
    first = Asking(lambda run: feeding)
    second = Asking(lambda run: feeding if run > 0 else None)
    c = Counter()
    with pytest.raises(HookFeedConflictError):
        with open_session("monitored", [first, second]) as sess:
            sess.run(c.train)  # no conflict yet
            sess.run(c.train)
    assert first.runs == 1


def test_another_graph_drops_what_the_plan_resolved():
    hook = Asking(lambda run: jhooks.SessionRunArgs.of("doubled:0"))
    (adapter,) = to_tf_hooks([hook])
    for feed in (3.0, 5.0):
        with tf.Graph().as_default():
            c = Counter()
            with tf.compat.v1.train.MonitoredSession(hooks=[adapter]) as sess:
                sess.run(c.train, feed_dict={c.x: feed})
    assert [float(r) for r in hook.results] == [6.0, 10.0]


def both_ways(make_hooks, factory, runs=3):
    """The log of the hooks run each in its own adapter, and of the same hooks batched."""
    logs = []
    for f in (None, factory):
        log = []
        with tf.Graph().as_default():
            hooks = make_hooks(f, log)
            try:
                run(hooks, runs)
            except Exception as e:  # noqa: BLE001 - compared below
                log.append(f"raised {type(e).__name__}: {e}")
        logs.append(log)
    return logs


def test_a_batched_group_behaves_as_separate_adapters(batches):
    factory, made = batches

    def hooks(f, log):
        return [
            Batched(f, lambda run: jhooks.SessionRunArgs.of("doubled:0"), log, "A"),
            Batched(f, lambda run: None, log, "B"),
            Batched(f, lambda run: jhooks.SessionRunArgs(["x:0", "doubled:0"]), log, "C"),
            Batched(f, lambda run: jhooks.SessionRunArgs("doubled:0"), log, "D"),
        ]

    alone, batched = both_ways(hooks, factory)
    assert alone == batched
    assert "D.after array(4., dtype=float32)" in batched
    (batch,) = made
    # run 1 returns at A, C and D; later runs at C only (A and D repeat their one name)
    assert batch.calls == 3 + 2 * 2


def test_to_tf_hooks_groups_consecutive_hooks_of_one_factory(batches, graph):
    factory, made = batches
    other = InOrderBatch
    hooks = [
        Batched(factory, lambda run: None),
        Batched(factory, lambda run: None),
        Recorder("P", []),
        Batched(factory, lambda run: None),
        Batched(other, lambda run: None),
    ]
    out = to_tf_hooks(hooks)
    assert [type(h) for h in out] == [TfHookGroup, TfHookAdapter, TfHookAdapter, TfHookAdapter]
    assert [m.hook for m in out[0].members] == hooks[:2]


def test_a_bad_name_stops_the_batch_at_its_hook_every_run(batches):
    factory, made = batches

    def hooks(f, log):
        return [
            Batched(f, lambda run: jhooks.SessionRunArgs.of("doubled:0"), log, "A"),
            Batched(f, lambda run: jhooks.SessionRunArgs.of("no_such:0"), log, "B"),
            Batched(f, lambda run: jhooks.SessionRunArgs.of("x:0"), log, "C"),
        ]

    alone, batched = both_ways(hooks, factory)
    assert alone == batched
    assert batched[-1].startswith("raised GraphNameError")
    assert "C.before" not in batched
    assert made[0].forgets == 1


def test_a_failing_hook_leaves_as_from_itself_and_later_hooks_are_not_called(batches):
    factory, made = batches

    def boom(run):
        raise ValueError("boom")

    def hooks(f, log):
        return [
            Batched(f, lambda run: None, log, "A"),
            Batched(f, boom, log, "B"),
            Batched(f, lambda run: None, log, "C"),
        ]

    alone, batched = both_ways(hooks, factory)
    assert alone == batched
    assert batched[-1] == "raised ValueError: boom"


def test_a_repeated_name_missing_in_a_new_graph_is_checked_again(batches):
    factory, made = batches
    name = ["doubled:0"]
    hooks = [
        Batched(factory, lambda run: jhooks.SessionRunArgs.of(name[0])),
        Batched(factory, lambda run: None),
    ]
    (group,) = to_tf_hooks(hooks)
    with tf.Graph().as_default():
        c = Counter()
        with tf.compat.v1.train.MonitoredSession(hooks=[group]) as sess:
            sess.run(c.train)
    with tf.Graph().as_default():
        tf.compat.v1.train.get_or_create_global_step()
        train = tf.no_op(name="train")
        with pytest.raises(GraphNameError, match="doubled:0"):
            with tf.compat.v1.train.MonitoredSession(hooks=[group]) as sess:
                sess.run(train)
    assert made[0].forgets == 2  # the new graph, then the refused args
