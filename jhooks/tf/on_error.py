"""OnErrorSession: ``Hook.onError`` for jhooks hooks under TensorFlow's monitored sessions.

TensorFlow gives hooks no callback when a monitored session fails (TF #17951, #36803): ``end()`` is
skipped and the session closes. This wrapper adds the JVM driver's rule (docs/contract.md,
"Errors: onError"): when a run, a ``run_step_fn`` or a hook callback fails with anything but end of
input (``OutOfRangeError``, ``StopIteration``) and TensorFlow does not recover from it, every jhooks
hook that got ``afterCreateSession`` gets ``onError(session view, error)`` once, in registration
order, before the raw session closes; what ``onError`` raises is attached to the error
(:func:`jhooks.api.suppressed.add_suppressed`), which still propagates.

    hooks = to_tf_hooks([...])
    with OnErrorSession.create(lambda: tf.compat.v1.train.MonitoredSession(session_creator=c, hooks=hooks), hooks) as s:
        while not s.should_stop():
            s.run(train_op)

Only hooks given through :func:`jhooks.tf.to_tf_hooks` (the adapters) are called; TensorFlow's own
hooks have no ``onError``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import tensorflow as tf

from jhooks.api.suppressed import add_suppressed
from jhooks.tf.adapter import TfHookAdapter
from jhooks.tf.hook_group import TfHookGroup

_END_OF_INPUT = (tf.errors.OutOfRangeError, StopIteration)


def _adapters(hooks: Iterable[Any]) -> list[TfHookAdapter]:
    out: list[TfHookAdapter] = []
    for h in hooks:
        if isinstance(h, TfHookGroup):
            out.extend(h.members)
        elif isinstance(h, TfHookAdapter):
            out.append(h)
    return out


class OnErrorSession:
    """Wraps a TF ``MonitoredSession`` / ``MonitoredTrainingSession`` / ``SingularMonitoredSession``
    (``session``) so jhooks hooks get ``onError``. ``hooks``: the TF hooks the session was given
    (what ``to_tf_hooks`` returned); default: the session's own list (including chief-only and
    built-in hooks of ``MonitoredTrainingSession``).

    ``run``, ``run_step_fn``, ``should_stop``, ``close`` and the ``with`` block behave as the
    wrapped session's; anything else is delegated. Twin of the JVM ``org.jhooks.tf.MonitoredSession``,
    which calls ``onError`` itself.
    """

    def __init__(self, session: Any, hooks: Iterable[Any] | None = None) -> None:
        self._session = session
        self._hooks = list(hooks) if hooks is not None else list(getattr(session, "_hooks", []) or [])
        self._notified = False
        for adapter in _adapters(self._hooks):
            adapter.endFailure = self._failed

    @classmethod
    def create(cls, factory: Callable[[], Any], hooks: Iterable[Any]) -> OnErrorSession:
        """``OnErrorSession(factory(), hooks)``; when ``factory()`` fails (a hook's
        ``afterCreateSession`` raised, or the session could not be created), the hooks that got
        ``afterCreateSession`` get ``onError`` before the error propagates."""
        hooks = list(hooks)
        try:
            session = factory()
        except BaseException as e:
            cls._notify(hooks, e)
            raise
        return cls(session, hooks)

    @staticmethod
    def _notify(hooks: list[Any], error: BaseException) -> None:
        if isinstance(error, _END_OF_INPUT) or not isinstance(error, Exception):
            return
        for adapter in _adapters(hooks):
            try:
                adapter.on_error(error)
            except Exception as e:  # noqa: BLE001 - attached to the error in flight
                add_suppressed(error, e, f"{adapter.name}.onError")

    def _failed(self, error: BaseException) -> None:
        if not self._notified:
            self._notified = True
            self._notify(self._hooks, error)

    def run(self, fetches: Any, feed_dict: Any = None, options: Any = None, run_metadata: Any = None) -> Any:
        try:
            return self._session.run(fetches, feed_dict=feed_dict, options=options, run_metadata=run_metadata)
        except BaseException as e:
            self._failed(e)
            raise

    def run_step_fn(self, step_fn: Callable[[Any], Any]) -> Any:
        try:
            return self._session.run_step_fn(step_fn)
        except BaseException as e:
            self._failed(e)
            raise

    def runWithoutHooks(self, fetches: Any, feeds: Any = None, options: Any = None) -> Any:
        """:func:`jhooks.tf.without_hooks.run_without_hooks` on the wrapped session (no hooks, TF's
        recovery); a failure calls ``onError`` like a failed ``run``."""
        from jhooks.tf.without_hooks import run_without_hooks

        try:
            return run_without_hooks(self._session, fetches, feeds, options)  # the wrapped session's _tf_sess
        except BaseException as e:
            self._failed(e)
            raise

    def should_stop(self) -> bool:
        return bool(self._session.should_stop())

    def close(self) -> None:
        try:
            self._session.close()
        except BaseException as e:
            self._failed(e)
            raise

    def __enter__(self) -> OnErrorSession:
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        try:
            return bool(self._session.__exit__(exc_type, exc, tb))
        except BaseException as e:
            if e is not exc:  # a hook's end() failed while closing
                self._failed(e)
            raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)
