"""The standard hooks ``model.fit`` cannot run, refused by class name at ``to_keras_callbacks``.

They need a graph feature Keras' eager loop has no equivalent of. The names are the Python class
and its Java twin (``jhooks.bridge.JavaHook`` of it); a subclass of either is refused too. Names,
not imports: this layer sits below the standard hooks and the bridge.
"""

from __future__ import annotations

from typing import Any

from jhooks.api.errors import HookValidationError

# simple class name -> why model.fit cannot run it, and what to use instead
REFUSED = {
    "ProfilerHook": (
        "it traces session runs with RunOptions and reads their RunMetadata, which Keras model.fit has no "
        "equivalent of; use keras.callbacks.TensorBoard(profile_batch=...)"
    ),
    "FeedFnHook": "it feeds tensors, and Keras model.fit has no feeds; give fit the data instead",
    "GlobalStepWaiterHook": (
        "it waits for a global step other workers advance, and in model.fit only this fit's batches advance "
        "optimizer.iterations (it would wait forever); use a tf.distribute strategy"
    ),
}
_PACKAGES = ("jhooks.hooks.", "org.jhooks.hooks.")  # the Python hooks' modules, the Java twins' package


def _python_names(hook: Any) -> list[str]:
    return [f"{c.__module__}.{c.__qualname__}" for c in type(hook).__mro__]


def _java_names(hook: Any) -> list[str]:
    """The Java class of a ``JavaHook`` and its superclasses (duck-typed: ``hook.java``)."""
    java = getattr(hook, "java", None)
    if java is None or not callable(getattr(java, "getClass", None)):
        return []
    names: list[str] = []
    cls = java.getClass()
    while cls is not None:
        names.append(str(cls.getName()))
        cls = cls.getSuperclass()
    return names


def refuse_graph_hooks(hook: Any, label: str) -> None:
    """HookValidationError naming ``label`` (the hook as messages name it) and the standard hook it
    is (or extends) when that hook is one of :data:`REFUSED`; nothing otherwise."""
    for names in (_java_names(hook), _python_names(hook)):
        for name in names:
            simple = name.rpartition(".")[2]
            if simple in REFUSED and name.startswith(_PACKAGES):
                what = name if name == names[0] else f"a {name}"
                raise HookValidationError(
                    f"{label} is {what}, which Keras model.fit cannot run: {REFUSED[simple]} (to_keras_callbacks)"
                )
