"""Recovery faults for the Python driver: a TensorFlow SessionCreator whose sessions are real but
whose chosen merged-run attempts raise ``AbortedError`` instead of running (twin of
org.jhooks.testing.FaultInjectingSessionCreator with a counted target). Test support, not API.

A run counts as an attempt when its fetches include the train op (the caller's hooked runs);
hooks' raw runs and savers' runs do not. Attempts are counted over every session it created, from
1; each listed attempt fails once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import tensorflow as tf


def _fetches_target(fetches: Any, target: str) -> bool:
    if isinstance(fetches, dict):
        return any(_fetches_target(v, target) for v in fetches.values())
    if isinstance(fetches, (list, tuple)):
        return any(_fetches_target(v, target) for v in fetches)
    if isinstance(fetches, str):
        return fetches == target
    return getattr(fetches, "name", None) == target and isinstance(fetches, tf.Operation)


class FaultInjectingSessionCreator(tf.compat.v1.train.SessionCreator):
    """Wraps ``delegate``; attempts numbered in ``failAt`` raise ``tf.errors.AbortedError``."""

    def __init__(self, delegate: Any, failAt: Iterable[int], countedTarget: str = "train") -> None:
        self._delegate = delegate
        self._failAt: set[int] = set(failAt)
        self._target = countedTarget
        self.attempts = 0
        self.sessions = 0

    def create_session(self) -> Any:
        session = self._delegate.create_session()
        self.sessions += 1
        return _FaultySession(session, self)

    def _before_run(self, fetches: Any) -> None:
        if not _fetches_target(fetches, self._target):
            return
        self.attempts += 1
        if self.attempts in self._failAt:
            raise tf.errors.AbortedError(None, None, f"injected Aborted at attempt {self.attempts}")


class _FaultySession:
    """A real session whose run() first asks the creator whether this attempt fails."""

    def __init__(self, session: Any, creator: FaultInjectingSessionCreator) -> None:
        self._session = session
        self._creator = creator

    def run(self, fetches: Any, feed_dict: Any = None, options: Any = None, run_metadata: Any = None) -> Any:
        self._creator._before_run(fetches)
        return self._session.run(fetches, feed_dict=feed_dict, options=options, run_metadata=run_metadata)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)
