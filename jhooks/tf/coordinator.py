"""A jhooks Coordinator view over TensorFlow's ``tf.train.Coordinator``."""

from __future__ import annotations

from jhooks.api.session import Coordinator


class TfCoordinatorView(Coordinator):
    """Forwards to the TF coordinator of the current session, so TF's semantics hold.

    ``requestStop(cause)`` calls ``coord.request_stop(cause)``: TF stops after the current run, and
    when ``cause`` is given TF keeps the first one and re-raises it when the monitored session
    closes (``coord.join``), as for TF's own hooks. ``shouldStop()`` is ``coord.should_stop()``;
    ``clearStop()`` is ``coord.clear_stop()``. A re-created session (recovery) brings a new TF
    coordinator and a new view.
    """

    def __init__(self, coord) -> None:
        super().__init__()
        self.tfCoordinator = coord

    def requestStop(self, cause: BaseException | None = None) -> None:
        if cause is None:
            self.tfCoordinator.request_stop()
            return
        if self._error is None:
            self._error = cause
        self.tfCoordinator.request_stop((type(cause), cause, cause.__traceback__))

    def shouldStop(self) -> bool:
        return self.tfCoordinator.should_stop()

    def error(self) -> BaseException | None:
        return self._error

    def registerThread(self, thread) -> None:
        """``coord.register_thread``: the monitored session's close requests stop and joins the
        thread (for up to its stop grace period, 120 s by default) before it closes the session,
        after an error too. AsyncCheckpointSaverHook registers its writer, which writes from the
        session's snapshot buffers, and ends it once the coordinator stops and no write is due."""
        self.tfCoordinator.register_thread(thread)

    def clearStop(self) -> None:
        self._error = None
        self.tfCoordinator.clear_stop()
