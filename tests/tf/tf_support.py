"""Shared pieces of the TF adapter tests: a small real graph, recording hooks, session kinds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import tensorflow as tf

import jhooks
from jhooks.tf import to_tf_hooks

KINDS = ["monitored", "training", "training_chief_only", "singular"]


class Counter:
    """The test graph: feed x (default 1.0) is added to v each step; the global step counts."""

    def __init__(self, assert_below: int | None = None, inputs: int | None = None) -> None:
        self.gs = tf.compat.v1.train.get_or_create_global_step()
        self.x = tf.compat.v1.placeholder_with_default(1.0, shape=(), name="x")
        self.v = tf.compat.v1.get_variable("v", initializer=0.0)
        deps = []
        if assert_below is not None:
            deps.append(tf.debugging.Assert(self.x < float(assert_below), [self.x], name="x_below"))
        if inputs is not None:
            it = tf.compat.v1.data.make_one_shot_iterator(tf.data.Dataset.range(inputs))
            deps.append(it.get_next(name="next_input"))
        with tf.control_dependencies(deps):
            self.train = tf.group(self.v.assign_add(self.x), self.gs.assign_add(1), name="train")
        self.doubled = tf.multiply(self.x, 2.0, name="doubled")

    def step(self, sess: Any, i: int) -> Any:
        return sess.run(self.train, feed_dict={self.x: float(i)})


class Recorder(jhooks.Hook):
    """Appends ``name.callback(step)`` to ``log``; step = the caller's fed x (the step index)."""

    def __init__(
        self,
        name: str,
        log: list[str],
        fetches: Any = None,
        on_after: Callable[[Recorder, Any, int], None] | None = None,
    ) -> None:
        self.name = name
        self.log = log
        self.fetches = fetches
        self.on_after = on_after
        self.results: list[Any] = []
        self.sessions: list[Any] = []
        self.coords: list[Any] = []

    @staticmethod
    def step_of(ctx: Any) -> int:
        return int(ctx.originalArgs.feeds.get("x:0", -1))

    def beginSession(self) -> None:
        self.log.append(f"{self.name}.beginSession")

    def afterCreateSession(self, session, coord) -> None:
        self.sessions.append(session)
        self.coords.append(coord)
        self.log.append(f"{self.name}.afterCreateSession")

    def beforeSessionRun(self, runContext):
        self.log.append(f"{self.name}.beforeSessionRun({self.step_of(runContext)})")
        return None if self.fetches is None else jhooks.SessionRunArgs(self.fetches)

    def afterSessionRun(self, runContext, runValues) -> None:
        step = self.step_of(runContext)
        self.log.append(f"{self.name}.afterSessionRun({step})")
        self.results.append(runValues.results)
        if self.on_after is not None:
            self.on_after(self, runContext, step)

    def end(self, session) -> None:
        self.log.append(f"{self.name}.end")


class TfRecorder(tf.compat.v1.train.SessionRunHook):
    """TensorFlow's own hook type, recording into the same log."""

    def __init__(self, name: str, log: list[str]) -> None:
        self.name = name
        self.log = log

    def begin(self):
        self.log.append(f"{self.name}.begin")

    def after_create_session(self, session, coord):
        self.log.append(f"{self.name}.after_create_session")

    def before_run(self, run_context):
        self.log.append(f"{self.name}.before_run")

    def after_run(self, run_context, run_values):
        self.log.append(f"{self.name}.after_run")

    def end(self, session):
        self.log.append(f"{self.name}.end")


def always_ready_scaffold() -> tf.compat.v1.train.Scaffold:
    """A scaffold a non-chief can use alone: readiness holds at once and the local init op
    initializes everything (a worker normally waits for the chief to initialize variables)."""
    nothing = tf.constant([], dtype=tf.string, name="nothing_uninitialized")
    init_all = tf.group(
        tf.compat.v1.global_variables_initializer(), tf.compat.v1.local_variables_initializer(), name="init_all_locally"
    )
    return tf.compat.v1.train.Scaffold(ready_op=nothing, ready_for_local_init_op=nothing, local_init_op=init_all)


def open_session(
    kind: str,
    hooks: list[Any],
    model: jhooks.ModelInstance | None = None,
    session_creator: Any = None,
    **kwargs: Any,
) -> Any:
    """A monitored session of ``kind`` running ``hooks`` (jhooks hooks adapted, TF hooks as is)."""
    tf_hooks = to_tf_hooks(hooks, model)
    quiet = dict(
        checkpoint_dir=None,
        save_checkpoint_secs=None,
        save_checkpoint_steps=None,
        save_summaries_steps=None,
        save_summaries_secs=None,
        log_step_count_steps=None,
    )
    if kind == "monitored":
        return tf.compat.v1.train.MonitoredSession(
            session_creator=session_creator or tf.compat.v1.train.ChiefSessionCreator(), hooks=tf_hooks
        )
    if kind == "training":
        return tf.compat.v1.train.MonitoredTrainingSession(hooks=tf_hooks, **{**quiet, **kwargs})
    if kind == "training_chief_only":
        return tf.compat.v1.train.MonitoredTrainingSession(chief_only_hooks=tf_hooks, **{**quiet, **kwargs})
    if kind == "singular":
        return tf.compat.v1.train.SingularMonitoredSession(hooks=tf_hooks)
    raise ValueError(kind)


def lifecycle(name: str, steps: list[int], sessions: int = 1) -> list[str]:
    """The expected plain sequence: begin, create, each step's before/after, end."""
    out = [f"{name}.beginSession", f"{name}.afterCreateSession"]
    for s in steps:
        out += [f"{name}.beforeSessionRun({s})", f"{name}.afterSessionRun({s})"]
    return out + [f"{name}.end"]


def run_steps(kind: str, hooks: list[Any], graph: Counter, steps: int, **kwargs: Any) -> dict[str, Any]:
    """Runs up to ``steps`` steps while the session does not ask to stop; returns what happened."""
    done = []
    with open_session(kind, hooks, **kwargs) as sess:
        for i in range(steps):
            if sess.should_stop():
                break
            graph.step(sess, i)
            done.append(i)
        stopped = sess.should_stop()
    return {"done": done, "stopped": stopped}
