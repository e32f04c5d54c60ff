"""Exact callback sequences of jhooks hooks inside TF's monitored sessions (docs/contract.md table)."""

import pytest
import tensorflow as tf
from tf_support import KINDS, Counter, Recorder, always_ready_scaffold, lifecycle, open_session, run_steps


def interleaved(names, steps):
    """Two or more hooks: each run is every hook's before, then every hook's after, same order."""
    out = [f"{n}.beginSession" for n in names] + [f"{n}.afterCreateSession" for n in names]
    for s in steps:
        out += [f"{n}.beforeSessionRun({s})" for n in names] + [f"{n}.afterSessionRun({s})" for n in names]
    return out + [f"{n}.end" for n in names]


@pytest.mark.parametrize("kind", KINDS)
def test_normal_end(graph, kind):
    log = []
    c = Counter()
    out = run_steps(kind, [Recorder("A", log), Recorder("B", log)], c, steps=3)
    assert out == {"done": [0, 1, 2], "stopped": False}
    assert log == interleaved(["A", "B"], [0, 1, 2])


@pytest.mark.parametrize("kind", KINDS)
def test_stop_request_completes_the_run_for_every_hook(graph, kind):
    log = []

    def stop_at_1(hook, ctx, step):
        if step == 1:
            ctx.requestStop()
            assert ctx.stopRequested

    c = Counter()
    out = run_steps(kind, [Recorder("A", log, on_after=stop_at_1), Recorder("B", log)], c, steps=5)
    assert out == {"done": [0, 1], "stopped": True}
    assert log == interleaved(["A", "B"], [0, 1])


@pytest.mark.parametrize("kind", KINDS)
def test_coordinator_stop_request(graph, kind):
    log = []

    def coord_stop_at_0(hook, ctx, step):
        hook.coords[-1].requestStop()
        assert hook.coords[-1].shouldStop()

    c = Counter()
    out = run_steps(kind, [Recorder("A", log, on_after=coord_stop_at_0)], c, steps=5)
    assert out == {"done": [0], "stopped": True}
    assert log == lifecycle("A", [0])


@pytest.mark.parametrize("kind", KINDS)
def test_end_of_input_gets_end_but_no_after_for_the_failing_run(graph, kind):
    log = []
    c = Counter(inputs=2)
    seen = []
    with open_session(kind, [Recorder("A", log), Recorder("B", log)]) as sess:
        for i in range(5):
            if sess.should_stop():
                break
            seen.append(i)
            c.step(sess, i)  # OutOfRangeError at i == 2 leaves the with block, which swallows it
    assert seen == [0, 1, 2]
    expected = interleaved(["A", "B"], [0, 1])[:-2] + [
        "A.beforeSessionRun(2)",
        "B.beforeSessionRun(2)",
        "A.end",
        "B.end",
    ]
    assert log == expected


@pytest.mark.parametrize("kind", KINDS)
def test_error_in_the_run_skips_after_and_end(graph, kind):
    log = []
    c = Counter(assert_below=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"assertion failed: \[2\]"):
        run_steps(kind, [Recorder("A", log), Recorder("B", log)], c, steps=5)
    expected = interleaved(["A", "B"], [0, 1])[:-2] + ["A.beforeSessionRun(2)", "B.beforeSessionRun(2)"]
    assert log == expected


class Boom(Exception):
    pass


@pytest.mark.parametrize("kind", KINDS)
def test_error_in_a_callback_skips_later_callbacks_and_end(graph, kind):
    log = []

    def boom_at_1(hook, ctx, step):
        if step == 1:
            raise Boom("hook A failed at step 1")

    c = Counter()
    with pytest.raises(Boom, match="step 1"):
        run_steps(kind, [Recorder("A", log, on_after=boom_at_1), Recorder("B", log)], c, steps=5)
    expected = interleaved(["A", "B"], [0])[:-2] + [
        "A.beforeSessionRun(1)",
        "B.beforeSessionRun(1)",
        "A.afterSessionRun(1)",
    ]
    assert log == expected


class AbortOnStep:
    """A thin wrapper around the REAL session that raises AbortedError on the first run whose
    feed gives x the chosen step (fault injection; everything else goes to the real session)."""

    def __init__(self, sess, x, step, fired):
        self._sess = sess
        self._x = x
        self._step = step
        self._fired = fired

    @property
    def graph(self):
        return self._sess.graph

    @property
    def sess_str(self):
        return self._sess.sess_str

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        if not self._fired and feed_dict and feed_dict.get(self._x) == float(self._step):
            self._fired.append(self._step)
            raise tf.errors.AbortedError(None, None, f"injected abort at step {self._step}")
        return self._sess.run(fetches, feed_dict=feed_dict, options=options, run_metadata=run_metadata)

    def close(self):
        self._sess.close()


class AbortingCreator(tf.compat.v1.train.SessionCreator):
    def __init__(self, x, step):
        self._inner = tf.compat.v1.train.ChiefSessionCreator()
        self._x = x
        self._step = step
        self.fired = []
        self.created = 0

    def create_session(self):
        self.created += 1
        return AbortOnStep(self._inner.create_session(), self._x, self._step, self.fired)


def recovered(names, steps, retried):
    out = interleaved(names, steps)
    i = out.index(f"{names[0]}.afterSessionRun({retried})")
    before = [f"{n}.beforeSessionRun({retried})" for n in names]
    return out[:i] + [f"{n}.afterCreateSession" for n in names] + before + out[i:]


def test_recovery_from_an_aborted_run_recreates_the_session_and_retries_the_step(graph):
    log = []
    c = Counter()
    creator = AbortingCreator(c.x, step=1)
    a, b = Recorder("A", log), Recorder("B", log)
    out = run_steps("monitored", [a, b], c, steps=3, session_creator=creator)
    assert out == {"done": [0, 1, 2], "stopped": False}
    assert creator.fired == [1] and creator.created == 2
    assert log == recovered(["A", "B"], [0, 1, 2], retried=1)
    assert a.sessions[0] is not a.sessions[1]


@pytest.mark.parametrize("kind", ["monitored", "training", "training_chief_only"])
def test_recovery_from_an_aborted_callback(graph, kind):
    log = []

    def abort_once_at_1(hook, ctx, step):
        if step == 1 and len(hook.sessions) == 1:
            raise tf.errors.AbortedError(None, None, "hook A aborted at step 1")

    c = Counter()
    out = run_steps(kind, [Recorder("A", log, on_after=abort_once_at_1), Recorder("B", log)], c, steps=3)
    assert out == {"done": [0, 1, 2], "stopped": False}
    # the aborted attempt: A's after ran (and raised), B's did not; then re-creation and retry
    expected = interleaved(["A", "B"], [0])[:-2] + [
        "A.beforeSessionRun(1)",
        "B.beforeSessionRun(1)",
        "A.afterSessionRun(1)",
        "A.afterCreateSession",
        "B.afterCreateSession",
        "A.beforeSessionRun(1)",
        "B.beforeSessionRun(1)",
        "A.afterSessionRun(1)",
        "B.afterSessionRun(1)",
        "A.beforeSessionRun(2)",
        "B.beforeSessionRun(2)",
        "A.afterSessionRun(2)",
        "B.afterSessionRun(2)",
        "A.end",
        "B.end",
    ]
    assert log == expected


def test_singular_session_does_not_recover(graph):
    """SingularMonitoredSession is built with should_recover=False: Aborted is another error."""
    log = []

    def abort_at_1(hook, ctx, step):
        if step == 1:
            raise tf.errors.AbortedError(None, None, "hook A aborted at step 1")

    c = Counter()
    with pytest.raises(tf.errors.AbortedError, match="hook A aborted"):
        run_steps("singular", [Recorder("A", log, on_after=abort_at_1), Recorder("B", log)], c, steps=3)
    assert log == interleaved(["A", "B"], [0])[:-2] + [
        "A.beforeSessionRun(1)",
        "B.beforeSessionRun(1)",
        "A.afterSessionRun(1)",
    ]


@pytest.mark.timeout(60)
def test_worker_runs_hooks_but_not_chief_only_hooks(graph):
    log = []
    c = Counter()
    scaffold = always_ready_scaffold()
    hooks = [Recorder("A", log)]
    from jhooks.tf import to_tf_hooks

    with tf.compat.v1.train.MonitoredTrainingSession(
        is_chief=False,
        scaffold=scaffold,
        hooks=to_tf_hooks(hooks),
        chief_only_hooks=to_tf_hooks([Recorder("C", log)]),
        checkpoint_dir=None,
        save_checkpoint_secs=None,
        save_summaries_steps=None,
        log_step_count_steps=None,
    ) as sess:
        for i in range(2):
            c.step(sess, i)
    assert log == lifecycle("A", [0, 1])


def test_chief_only_hooks_run_before_hooks_on_the_chief(graph):
    log = []
    c = Counter()
    from jhooks.tf import to_tf_hooks

    with tf.compat.v1.train.MonitoredTrainingSession(
        is_chief=True,
        hooks=to_tf_hooks([Recorder("A", log)]),
        chief_only_hooks=to_tf_hooks([Recorder("C", log)]),
        checkpoint_dir=None,
        save_checkpoint_secs=None,
        save_summaries_steps=None,
        log_step_count_steps=None,
    ) as sess:
        c.step(sess, 0)
    assert log == interleaved(["C", "A"], [0])


@pytest.mark.parametrize("kind", ["monitored", "training", "singular"])
def test_hooks_receive_the_raw_session(graph, kind):
    log = []
    raw = []

    def note(hook, ctx, step):
        raw.append(ctx.session.rawSession)

    c = Counter()
    a = Recorder("A", log, on_after=note)
    run_steps(kind, [a], c, steps=1)
    assert type(a.sessions[0].rawSession) is tf.compat.v1.Session
    assert raw == [a.sessions[0].rawSession]


def test_coordinator_stop_with_a_cause_is_reraised_by_tf_at_close(graph):
    """TF semantics kept: coord.request_stop(ex) stops after the run; hooks' end() runs, then
    closing the session (coord.join) re-raises the cause."""
    log = []
    cause = ValueError("stop because of this")

    def stop_with_cause(hook, ctx, step):
        hook.coords[-1].requestStop(cause)
        assert hook.coords[-1].error() is cause

    c = Counter()
    with pytest.raises(ValueError, match="stop because of this") as err:
        run_steps("monitored", [Recorder("A", log, on_after=stop_with_cause)], c, steps=5)
    assert err.value is cause
    assert log == lifecycle("A", [0])
