"""WorkerSessionCreator: TensorFlow's non-chief session creator with a configurable poll.

Twin of ``org.jhooks.tf.WorkerSessionCreator``. TensorFlow's ``WorkerSessionCreator`` waits for
the chief with a fixed 30 s between checks (``SessionManager(recovery_wait_secs=30)``, not exposed,
tensorflow/tensorflow#10679); this one takes ``recoveryWaitSecs``. Use it with
``tf.compat.v1.train.MonitoredSession(session_creator=...)``; after ``maxWaitSecs`` TensorFlow
raises ``tf.errors.DeadlineExceededError``.
"""

from __future__ import annotations

from typing import Any

import tensorflow as tf


class WorkerSessionCreator(tf.compat.v1.train.WorkerSessionCreator):
    """Waits for the chief's initialization on ``master``: a check every ``recoveryWaitSecs``,
    at most ``maxWaitSecs`` (TensorFlow's defaults 30 and 7200)."""

    def __init__(
        self,
        master: str = "",
        config: Any = None,
        recoveryWaitSecs: float = 30,
        maxWaitSecs: float = 7200,
        scaffold: Any = None,
    ):
        if not recoveryWaitSecs > 0 or not maxWaitSecs >= 0:
            raise ValueError(
                f"WorkerSessionCreator: recoveryWaitSecs must be > 0 and maxWaitSecs >= 0, got "
                f"{recoveryWaitSecs}, {maxWaitSecs}"
            )
        super().__init__(scaffold=scaffold, master=master, config=config, max_wait_secs=maxWaitSecs)
        self.recoveryWaitSecs = recoveryWaitSecs

    def _get_session_manager(self) -> Any:
        existing: Any = getattr(self, "_session_manager", None)
        if existing:
            return existing
        self._session_manager = tf.compat.v1.train.SessionManager(
            local_init_op=self._scaffold.local_init_op,
            local_init_feed_dict=self._scaffold.local_init_feed_dict,
            ready_op=self._scaffold.ready_op,
            ready_for_local_init_op=self._scaffold.ready_for_local_init_op,
            graph=tf.compat.v1.get_default_graph(),
            recovery_wait_secs=self.recoveryWaitSecs,
        )
        return self._session_manager
