"""HookCallback and ``to_keras_callbacks``: jhooks hooks driven by Keras 3's eager ``model.fit``.

Mapping (docs/keras.md): ``beginSession`` and then ``afterCreateSession(KerasSessionView,
KerasCoordinator)`` at ``on_train_begin``; ``beforeSessionRun`` at ``on_train_batch_begin`` and
``afterSessionRun`` at ``on_train_batch_end`` (once per execution of ``steps_per_execution``
batches); ``end`` at ``on_train_end``. When ``fit`` raises (a training step, a hook callback) every
hook that got ``afterCreateSession`` gets ``onError`` once, in registration order, as under the
other drivers. Java hooks (``jhooks.bridge.JavaHook``) are jhooks Hooks and are driven the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import keras
import tensorflow as tf

from jhooks.api import nest
from jhooks.api.errors import HookError
from jhooks.api.hook import Hook, hook_name
from jhooks.api.model import ModelDependentHook, ModelInstance
from jhooks.api.run_args import SessionRunArgs, SessionRunContext, SessionRunValues
from jhooks.api.suppressed import add_suppressed
from jhooks.api.validation import validate_hook
from jhooks.keras.coordinator import KerasCoordinator
from jhooks.keras.refused import refuse_graph_hooks
from jhooks.keras.session_view import GLOBAL_STEP, KerasSessionView
from jhooks.tf.adapter import raise_hook_failure

# What a ModelDependentHook gets by default: Keras has a loss and a global step, no train op.
KERAS_MODEL = ModelInstance({ModelInstance.LOSS: "loss:0", ModelInstance.GLOBAL_STEP: GLOBAL_STEP + ":0"})

_END_OF_INPUT = (tf.errors.OutOfRangeError, StopIteration)


class HookCallback(keras.callbacks.Callback):
    """One Keras callback driving ``hooks`` (jhooks Hooks, Python or Java) in registration order.

    Raises HookValidationError at construction for an object that is not a jhooks Hook, whose
    callbacks have wrong signatures, or that is a standard hook ``model.fit`` cannot run
    (ProfilerHook, FeedFnHook, GlobalStepWaiterHook, in either language: jhooks.keras.refused).
    A ModelDependentHook gets ``modelInstance`` (default ``{"loss": "loss:0", "globalStep":
    "global_step:0"}``) here, once.

    Per batch, a hook's fetches are read after the batch (values at its end: the batch's
    ``logs``, the variables as updated, the global step already incremented); feeds are refused
    with a HookError naming the hook; an unknown name is a GraphNameError naming the hook and the
    name, raised when the batch has ended (the batch's ``logs`` are known only then). A stop asked
    for by ``runContext.requestStop()`` or the coordinator ends ``fit`` after the current batch;
    one asked for before the first batch (``afterCreateSession``) trains no batch.
    """

    def __init__(self, hooks: Iterable[Any], modelInstance: ModelInstance | None = None) -> None:
        super().__init__()
        self.hooks: list[Hook] = list(hooks)
        for hook in self.hooks:
            validate_hook(hook)
            refuse_graph_hooks(hook, hook_name(hook))
            if isinstance(hook, ModelDependentHook):
                hook.modelInstance = modelInstance or KERAS_MODEL
        self.names = [hook_name(h) for h in self.hooks]
        self._where: tuple[str, str] = ("HookCallback", "begin")
        self._view: KerasSessionView | None = None
        self._coord: KerasCoordinator | None = None
        self._created: list[int] = []  # hooks that got afterCreateSession in this fit
        self._notified = False
        self._context: SessionRunContext | None = None
        self._asked: list[SessionRunArgs | None] = []
        self._skipped = False  # the current batch is not trained: stop was asked for before it
        self._trainFunction: Any = None  # the model's own train_function while this fit runs

    def _call(self, index: int, callback: str, method: Any, *args: Any) -> Any:
        self._where = (self.names[index], callback)
        try:
            return method(*args)
        except BaseException as e:  # noqa: B902 - re-raised (end of input and Java Errors converted)
            raise_hook_failure(self.names[index], callback, e)

    def _failed(self, error: BaseException) -> None:
        """``onError`` once for every hook that got ``afterCreateSession`` (not for end of input or
        a KeyboardInterrupt); what it raises is attached to ``error``. Keras re-raises what leaves
        ``fit`` "from None" (its traceback filtering), so ``error``'s cause is kept as its context."""
        self._restoreTrainFunction()
        if error.__cause__ is not None and error.__context__ is None:
            error.__context__ = error.__cause__
        if self._notified or isinstance(error, _END_OF_INPUT) or not isinstance(error, Exception):
            return
        self._notified = True
        for index in self._created:
            self._where = (self.names[index], "onError")
            try:
                self.hooks[index].onError(self._view, error)
            except Exception as e:  # noqa: BLE001 - attached to the error in flight
                add_suppressed(error, e, f"{self.names[index]}.onError")

    def _restoreTrainFunction(self) -> None:
        if self._trainFunction is not None:
            self.model.train_function = self._trainFunction
            self._trainFunction = None

    def _wrapTrainFunction(self) -> None:
        """Makes a failing training step call ``onError`` and a skipped batch train nothing: Keras
        tells callbacks neither."""
        own = self.model.train_function
        self._trainFunction = own

        def train(iterator: Any) -> Any:
            if self._trainFunction is not own:  # left behind by a fit another callback aborted
                return own(iterator)
            if self._skipped:
                return {}
            try:
                return own(iterator)
            except BaseException as e:
                self._failed(e)
                raise

        self.model.train_function = train

    def on_train_begin(self, logs: Any = None) -> None:
        view = self._view = KerasSessionView(self.model, lambda: self._where)
        coord = self._coord = KerasCoordinator(self.model)
        self._created, self._notified, self._skipped = [], False, False
        self._wrapTrainFunction()
        try:
            for i, hook in enumerate(self.hooks):
                self._call(i, "beginSession", hook.beginSession)
            for i, hook in enumerate(self.hooks):
                self._created.append(i)
                self._call(i, "afterCreateSession", hook.afterCreateSession, view, coord)
        except BaseException as e:
            self._failed(e)
            raise

    def on_train_batch_begin(self, batch: int, logs: Any = None) -> None:
        assert self._view is not None and self._coord is not None, "on_train_begin ran"
        self._skipped = self._coord.shouldStop() and self._canSkip()
        if self._skipped:
            return
        context = self._context = SessionRunContext(SessionRunArgs(), self._view)
        asked: list[SessionRunArgs | None] = []
        try:
            for i, hook in enumerate(self.hooks):
                args = self._call(i, "beforeSessionRun", hook.beforeSessionRun, context)
                asked.append(self._accept(i, args))
        except BaseException as e:
            self._failed(e)
            raise
        self._asked = asked

    def _canSkip(self) -> bool:
        """Whether ``fit`` can end without training this batch: Keras reads the compiled metrics
        at the end of every epoch, which exist once the model trained a batch (in any fit)."""
        try:
            self.model.get_metrics_result()
        except ValueError:  # "Cannot get result() since the metric has not yet been built."
            return False
        return True

    def _accept(self, index: int, args: Any) -> SessionRunArgs | None:
        """What ``beforeSessionRun`` returned, checked: None or SessionRunArgs without feeds."""
        if args is None:
            return None
        name = self.names[index]
        if not isinstance(args, SessionRunArgs):
            raise HookError(
                name,
                "beforeSessionRun",
                f"returned {type(args).__name__} {args!r}; expected jhooks.SessionRunArgs or None",
            )
        if args.feeds:
            raise HookError(name, "beforeSessionRun", f"fed {sorted(args.feeds)}: Keras model.fit has no feeds")
        return args

    def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
        if self._skipped:
            self.model.stop_training = True
            return
        view, context, coord = self._view, self._context, self._coord
        assert view is not None and context is not None and coord is not None, "on_train_batch_begin ran"
        view.setLogs(logs)
        try:
            for i, hook in enumerate(self.hooks):
                args = self._asked[i]
                results = None
                if args is not None:
                    self._where = (self.names[i], "beforeSessionRun")  # a bad name is the args' fault
                    results = nest.map_structure(args.fetches, view.value)
                values = SessionRunValues(results=results)
                self._call(i, "afterSessionRun", hook.afterSessionRun, context, values)
        except BaseException as e:
            self._failed(e)
            raise
        if context.stopRequested or coord.shouldStop():
            self.model.stop_training = True

    def on_train_end(self, logs: Any = None) -> None:
        self._restoreTrainFunction()
        try:
            for i, hook in enumerate(self.hooks):
                self._call(i, "end", hook.end, self._view)
        except BaseException as e:
            self._failed(e)
            raise
        cause = None if self._coord is None else self._coord.error()
        if cause is not None:
            raise cause

    def __repr__(self) -> str:
        return f"HookCallback({', '.join(self.names)})"


def to_keras_callbacks(
    hooks: Iterable[Any], modelInstance: ModelInstance | None = None
) -> list[keras.callbacks.Callback]:
    """``hooks`` (jhooks Hooks, Python or ``jhooks.bridge.JavaHook``) as a list of Keras callbacks
    for ``model.fit(..., callbacks=...)``: one :class:`HookCallback` calling them in order.

    Raises HookValidationError naming an object that is not a jhooks Hook (a TensorFlow
    SessionRunHook included: Keras does not run those), and one of the standard hooks that need a
    graph feature Keras has no equivalent of (``jhooks.keras.refused.REFUSED``: ProfilerHook,
    FeedFnHook, GlobalStepWaiterHook, Python or Java, or a subclass), with the reason. Its list may
    be extended with Keras' own callbacks; a stop they request (``EarlyStopping``) ends ``fit`` normally, with ``end``.
    """
    return [HookCallback(hooks, modelInstance)]
