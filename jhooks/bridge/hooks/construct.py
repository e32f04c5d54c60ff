"""Building Java objects from plain Python values (``JavaHook("org.jhooks.hooks.StopAtStepHook", lastStep=1000)``).

:func:`new_java_object` picks one of the class's public constructors, or, when none fits, its
public static ``builder(...)`` followed by one builder method per remaining keyword argument and
``build()`` (``AsyncCheckpointSaverHook.builder(dir).saveSteps(100).build()``). Arguments:

- positional arguments fill the first parameters; keyword arguments name parameters (the Java
  parameter names, present when the class was compiled with ``javac -parameters``, as the jhooks
  jar is) or builder methods. TensorFlow's snake_case spelling is accepted for the camelCase name
  (``last_step=`` for ``lastStep``);
- a parameter given no value is ``null``, as a Python default of ``None``, and ``false`` for a
  ``boolean``; a numeric primitive parameter (``int``, ``long``, ``double``) must be given;
- values convert by the parameter's type: ``int`` → ``long``/``int``/``short``/``byte`` (range
  checked), boxed or not, or ``double``/``float``; ``float`` → ``double``/``float``; ``bool`` →
  ``boolean``; ``str`` → ``String``, ``java.nio.file.Path``, ``java.io.File``; ``None`` → ``null``;
  ``list``/``tuple`` → ``List``/``Collection``/``Iterable``/Java arrays and varargs (elements by the
  declared element type); ``dict`` → ``Map``; a numpy array → ``NdArray`` or a Java primitive array;
  a ``jhooks.Hook`` / ``jhooks.CheckpointSaverListener`` → its Java wrapper (``as_java_hook``);
  Java objects pass as they are. Python ints and floats given where ``Object`` is declared become
  ``Long``/``Double``.

Among the candidates that accept every argument the one with the most direct conversions wins
(``int`` → ``long`` before ``int`` before ``double``); when two tie, or none accepts, TypeError
names the class, the candidates and the values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from jhooks.api.hook import Hook
from jhooks.api.listener import CheckpointSaverListener
from jhooks.bridge.backend.choice import current as _backend
from jhooks.bridge.convert import arrays
from jhooks.bridge.hooks.python_hooks import as_java_hook, as_java_listener
from jhooks.bridge.process import jvm
from jhooks.bridge.process.calls import call_java

_RANGES = {
    "long": (-(2**63), 2**63 - 1),
    "int": (-(2**31), 2**31 - 1),
    "short": (-(2**15), 2**15 - 1),
    "byte": (-(2**7), 2**7 - 1),
}
_BOXED = {
    "java.lang.Long": "long",
    "java.lang.Integer": "int",
    "java.lang.Short": "short",
    "java.lang.Byte": "byte",
    "java.lang.Double": "double",
    "java.lang.Float": "float",
    "java.lang.Boolean": "boolean",
}
# cost of converting a Python int to each Java number kind: long is Python's int, double the last resort
_INT_COST = {"long": 0, "int": 1, "short": 2, "byte": 2, "double": 3, "float": 4}
_FLOAT_COST = {"double": 0, "float": 1}
_OBJECT_COST = 5  # a value given where Object (or Number, CharSequence, ...) is declared
_NULL_FILL_COST = 1  # a parameter not given, passed as null


class JavaArgumentsError(TypeError):
    """No public constructor or builder of a Java class takes the given Python values, or two take
    them equally well; the message names the class, the candidates and the values."""


class _NoMatch(Exception):
    """The value does not convert to the parameter type (the message says why)."""


def snake_to_camel(name: str) -> str:
    """``last_step`` → ``lastStep``; a name without ``_`` is returned as it is."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _type_name(java_type: Any) -> str:
    return str(java_type.getTypeName())


def _short(java_type: Any) -> str:
    return re.sub(r"\b(?:[a-z_][\w]*\.)+(?=[A-Z])", "", _type_name(java_type))


def _raw(java_type: Any) -> Any:
    """The Class of a reflect Type (the raw class of a ParameterizedType, Object for a type variable)."""
    backend = _backend()
    if backend.is_instance(java_type, "java.lang.Class"):
        return java_type
    if backend.is_instance(java_type, "java.lang.reflect.ParameterizedType"):
        return java_type.getRawType()
    if backend.is_instance(java_type, "java.lang.reflect.GenericArrayType"):
        component = _raw(java_type.getGenericComponentType())
        return backend.jclass("java.lang.reflect.Array").newInstance(component, 0).getClass()
    if backend.is_instance(java_type, "java.lang.reflect.WildcardType"):
        return _raw(java_type.getUpperBounds()[0])
    if backend.is_instance(java_type, "java.lang.reflect.TypeVariable"):
        return _raw(java_type.getBounds()[0])
    return backend.class_object("java.lang.Object")


def _type_args(java_type: Any) -> list:
    if _backend().is_instance(java_type, "java.lang.reflect.ParameterizedType"):
        return list(java_type.getActualTypeArguments())
    return []


def _assignable(target: Any, name: str) -> bool:
    return bool(target.isAssignableFrom(_backend().class_object(name)))


def _is_object_like(target: Any, name: str) -> bool:
    """``target`` is a supertype of ``name`` (Object, Number, CharSequence, Serializable, ...)."""
    return _assignable(target, name)


def _box(kind: str, value: Any) -> Any:
    return _backend().box(kind, value)


def _number(value: Any, kind: str) -> Any:
    if kind in _RANGES:
        low, high = _RANGES[kind]
        if not low <= int(value) <= high:
            raise _NoMatch(f"{value} is out of the Java {kind} range")
        return _box(kind, int(value))
    return _box(kind, float(value))


def convert(value: Any, java_type: Any) -> tuple[Any, int]:
    """``value`` as a Java object for a parameter of ``java_type`` (a reflect Type), and the
    conversion's cost. Raises _NoMatch when it does not convert."""
    backend = _backend()
    target = _raw(java_type)
    name = str(target.getName())
    primitive = bool(target.isPrimitive())
    kind = name if primitive else _BOXED.get(name)
    if value is None:
        if primitive:
            raise _NoMatch(f"None for the primitive {name}")
        return None, 0
    if backend.is_java_object(value):
        if kind is not None and backend.is_instance(value, _boxed_name(kind)):
            return value, 0
        if not primitive and target.isInstance(value):
            return value, 0
        raise _NoMatch(f"a {value.getClass().getName()} is no {name}")
    if isinstance(value, np.ndarray):
        return _convert_ndarray(value, target)
    if isinstance(value, (bool, np.bool_)):
        if kind == "boolean":
            return _box("boolean", bool(value)), 0
        if not primitive and _is_object_like(target, "java.lang.Boolean"):
            return _box("boolean", bool(value)), _OBJECT_COST
        raise _NoMatch(f"a bool for {name}")
    if isinstance(value, (int, np.integer)):
        if kind in _INT_COST:
            return _number(value, kind), _INT_COST[kind]
        if not primitive and _is_object_like(target, "java.lang.Long"):
            return _number(value, "long"), _OBJECT_COST
        raise _NoMatch(f"an int for {name}")
    if isinstance(value, (float, np.floating)):
        if kind in _FLOAT_COST:
            return _number(value, kind), _FLOAT_COST[kind]
        if not primitive and _is_object_like(target, "java.lang.Double"):
            return _number(value, "double"), _OBJECT_COST
        raise _NoMatch(f"a float for {name}")
    if primitive:
        raise _NoMatch(f"a {type(value).__name__} for {name}")
    if isinstance(value, str):
        return _convert_str(value, target, name)
    if isinstance(value, (list, tuple)):
        return _convert_sequence(value, java_type, target, name)
    if isinstance(value, dict):
        if not _assignable(target, "java.util.LinkedHashMap"):
            raise _NoMatch(f"a dict for {name}")
        key_type, value_type = (_type_args(java_type) + [None, None])[:2]
        result = backend.jclass("java.util.LinkedHashMap")()
        cost = 0 if name == "java.util.Map" else 1
        for k, v in value.items():
            jk, ck = _element(k, key_type)
            jv, cv = _element(v, value_type)
            result.put(jk, jv)
            cost += ck + cv
        return result, cost
    return _convert_python_object(value, target, name)


def _boxed_name(kind: str) -> str:
    return {v: k for k, v in _BOXED.items()}[kind]


def _element(value: Any, java_type: Any) -> tuple[Any, int]:
    """An element of a List/Map: converted by its declared type, Object when it has none."""
    if java_type is None:
        java_type = _backend().class_object("java.lang.Object")
    converted, cost = convert(value, java_type)
    return converted, min(cost, 1)


def _convert_str(value: str, target: Any, name: str) -> tuple[Any, int]:
    backend = _backend()
    if name == "java.lang.String":
        return backend.jstring(value), 0
    if name == "java.nio.file.Path":
        return backend.jclass("java.nio.file.Path").of(value, backend.array("java.lang.String", [])), 1
    if name == "java.io.File":
        return backend.jclass("java.io.File")(value), 1
    if _is_object_like(target, "java.lang.String"):
        return backend.jstring(value), _OBJECT_COST
    raise _NoMatch(f"a str for {name}")


def _convert_sequence(value: Any, java_type: Any, target: Any, name: str) -> tuple[Any, int]:
    backend = _backend()
    if target.isArray():
        component = target.getComponentType()
        items = [convert(v, component) for v in value]  # checks each element (type, range)
        cost = sum(c for _, c in items)
        kind = str(component.getName())
        if component.isPrimitive():
            plain = [bool(v) if kind == "boolean" else float(v) if kind in _FLOAT_COST else int(v) for v in value]
            return backend.array(kind, plain), cost
        return backend.array(kind, [v for v, _ in items]), cost
    if not _assignable(target, "java.util.ArrayList"):
        raise _NoMatch(f"a {type(value).__name__} for {name}")
    element_type = (_type_args(java_type) + [None])[0]
    result = backend.jclass("java.util.ArrayList")()
    cost = 0 if name in ("java.util.List", "java.util.Collection", "java.lang.Iterable") else 1
    for v in value:
        jv, c = _element(v, element_type)
        result.add(jv)
        cost += c
    return result, cost


def _convert_ndarray(value: np.ndarray, target: Any) -> tuple[Any, int]:
    name = str(target.getName())
    if target.isArray() and target.getComponentType().isPrimitive() and value.ndim == 1:
        return _convert_sequence(value.tolist(), target, target, name)
    nd_array = _backend().class_object("org.tensorflow.ndarray.NdArray")
    if target.isAssignableFrom(nd_array) or nd_array.isAssignableFrom(target):  # Object, NdArray, FloatNdArray, ...
        converted = arrays.to_java(value)  # dtype and shape kept
        if not target.isInstance(converted):
            raise _NoMatch(f"a numpy {value.dtype} array is a {converted.getClass().getName()}, not a {name}")
        return converted, 0 if nd_array.isAssignableFrom(target) else _OBJECT_COST
    raise _NoMatch(f"a numpy array for {name}")


def _convert_python_object(value: Any, target: Any, name: str) -> tuple[Any, int]:
    if isinstance(value, Hook) and _assignable(target, "org.jhooks.Hook"):
        return as_java_hook(value), 1
    if isinstance(value, CheckpointSaverListener) and _assignable(target, "org.jhooks.CheckpointSaverListener"):
        return as_java_listener(value), 1
    raise _NoMatch(f"a {type(value).__name__} for {name}")


@dataclass
class _Candidate:
    label: str  # "StopAtStepHook(Long numSteps, Long lastStep)"
    executable: Any  # the reflect Constructor or Method
    java_args: list
    cost: int
    setters: list  # [(method, java value)] of a builder route


def _signature(owner: str, executable: Any) -> str:
    params = ", ".join(
        f"{_short(p.getParameterizedType())} {p.getName()}" if p.isNamePresent() else _short(p.getParameterizedType())
        for p in executable.getParameters()
    )
    return f"{owner}({params})"


def _names(executable: Any) -> list[str] | None:
    params = list(executable.getParameters())
    if params and not all(p.isNamePresent() for p in params):
        return None
    return [str(p.getName()) for p in params]


def _bind(executable: Any, args: tuple, kwargs: dict, owner: str) -> tuple[list, int]:
    """Java arguments for ``executable`` and their cost; raises _NoMatch."""
    params = list(executable.getParameters())
    types = list(executable.getGenericParameterTypes())
    varargs = bool(executable.isVarArgs())
    if len(args) > len(params) and not varargs:
        raise _NoMatch(f"{len(args)} positional arguments for {len(params)} parameters")
    names = _names(executable)
    if kwargs and names is None:
        raise _NoMatch(f"keyword arguments, but {owner} was compiled without parameter names (javac -parameters)")
    values: list[Any] = [_MISSING] * len(params)
    if varargs and len(args) >= len(params):
        last = len(params) - 1
        values[:last] = args[:last]
        rest = args[last:]
        if (
            len(rest) == 1
            and isinstance(rest[0], (list, tuple, np.ndarray))
            or (len(rest) == 1 and _is_java_array(rest[0]))
        ):
            values[last] = rest[0]
        else:
            values[last] = list(rest)
    else:
        values[: len(args)] = args
    for key, value in kwargs.items():
        assert names is not None
        index = names.index(key) if key in names else -1
        if index < 0:
            raise _NoMatch(f"no parameter named {key!r}")
        if values[index] is not _MISSING:
            raise _NoMatch(f"{key!r} given twice")
        values[index] = value
    java_args = []
    cost = 0
    for index, (value, param_type) in enumerate(zip(values, types)):
        if value is _MISSING:
            if varargs and index == len(params) - 1:
                value = []
            elif str(_raw(param_type).getName()) == "boolean":  # a flag not given is off, as Java's default
                java_args.append(_box("boolean", False))
                cost += _NULL_FILL_COST
                continue
            elif _raw(param_type).isPrimitive():
                label = names[index] if names else f"parameter {index + 1}"
                raise _NoMatch(f"{label} ({_short(param_type)}) is not given")
            else:
                java_args.append(None)
                cost += _NULL_FILL_COST
                continue
        try:
            converted, c = convert(value, param_type)
        except _NoMatch as e:
            label = names[index] if names else f"parameter {index + 1}"
            raise _NoMatch(f"{label}: {e}") from None
        java_args.append(converted)
        cost += c
    return java_args, cost


class _Missing:
    def __repr__(self) -> str:
        return "<not given>"


_MISSING = _Missing()


def _camel_kwargs(kwargs: dict, known: set[str]) -> dict:
    """TensorFlow's snake_case names as their camelCase twins (``last_step`` → ``lastStep``)."""
    result: dict = {}
    given_as: dict[str, str] = {}
    for key, value in kwargs.items():
        name = key if key in known or "_" not in key.strip("_") else snake_to_camel(key)
        if name in result:
            raise JavaArgumentsError(f"{given_as[name]!r} and {key!r} name the same parameter {name!r}")
        result[name] = value
        given_as[name] = key
    return result


def _public(executables: Any) -> list:
    modifier = _backend().jclass("java.lang.reflect.Modifier")
    return [e for e in executables if modifier.isPublic(e.getModifiers())]


def _builder_candidates(cls: Any, owner: str, args: tuple, kwargs: dict, problems: list[str]) -> list[_Candidate]:
    modifier = _backend().jclass("java.lang.reflect.Modifier")
    found = []
    builders = [
        m for m in _public(cls.getMethods()) if str(m.getName()) == "builder" and modifier.isStatic(m.getModifiers())
    ]
    for method in builders:
        label = _signature(f"{owner}.builder", method)
        params = set(_names(method) or [])
        direct = {k: v for k, v in kwargs.items() if k in params}
        chained = {k: v for k, v in kwargs.items() if k not in params}
        try:
            java_args, cost = _bind(method, args, direct, owner)
            builder_type = method.getReturnType()
            setters = []
            for key, value in chained.items():
                setter, java_value, c = _setter(builder_type, key, value)
                setters.append((setter, java_value))
                cost += c
        except _NoMatch as e:
            problems.append(f"{label}{'.' + '.'.join(f'{k}(...)' for k in chained) if chained else ''}.build(): {e}")
            continue
        found.append(_Candidate(label, method, java_args, cost, setters))
    return found


def _setter(builder_type: Any, key: str, value: Any) -> tuple[Any, Any, int]:
    """The builder method ``key(value)`` with the cheapest conversion; raises _NoMatch."""
    best = None
    reasons = []
    for method in _public(builder_type.getMethods()):
        if str(method.getName()) != key or method.getParameterCount() != 1:
            continue
        try:
            (java_value,), cost = _bind(method, (value,), {}, str(builder_type.getSimpleName()))
        except _NoMatch as e:
            reasons.append(str(e))
            continue
        if best is None or cost < best[2]:
            best = (method, java_value, cost)
    if best is None:
        raise _NoMatch(f"builder method {key}: " + ("; ".join(reasons) if reasons else "there is none"))
    return best


def _describe_values(args: tuple, kwargs: dict) -> str:
    parts = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
    return ", ".join(parts) if parts else "no arguments"


def is_plain(value: Any) -> bool:
    """Whether :func:`convert` knows ``value``'s type: a plain Python value, a numpy array or
    scalar, a jhooks hook or listener, a list/tuple/dict of those, or a Java object."""
    if value is None or isinstance(
        value, (bool, int, float, str, np.ndarray, np.generic, Hook, CheckpointSaverListener)
    ):
        return True
    if isinstance(value, (list, tuple)):
        return all(is_plain(v) for v in value)
    if isinstance(value, dict):
        return all(is_plain(k) and is_plain(v) for k, v in value.items())
    return _backend().is_java_object(value)


def java_class(name: str) -> Any:
    """The Java class ``name`` (``"java.lang.IllegalStateException"``) as a Python type, for
    ``except`` clauses and ``isinstance``, or to construct and call its static methods; starts the
    JVM (jhooks.bridge.process.jvm.start) when needed. Raises
    jhooks.bridge.process.errors.JavaClassNotFoundError (a TypeError) naming the classpath searched
    when no jar on it has the class."""
    jvm.ensure_running()
    return jvm.find_class(name)


def new_java_object(class_name: str, cls: Any, args: tuple, kwargs: dict) -> Any:
    """A new instance of the Java class ``cls`` (the backend's class named ``class_name``) built from
    plain Python ``args``/``kwargs`` as the module docstring says. Raises TypeError naming the
    class, the candidates and the values when no constructor or builder fits, or two fit equally
    well; an exception of the constructor leaves as :func:`jhooks.bridge.process.calls.call_java` says."""
    java_class = _backend().class_object(class_name)
    owner = str(java_class.getSimpleName())
    constructors = _public(java_class.getConstructors())
    known = {str(n) for e in constructors + _public(java_class.getMethods()) for n in (_names(e) or [])}
    known |= {str(m.getName()) for m in _public(java_class.getMethods())}
    kwargs = _camel_kwargs(kwargs, known)
    problems: list[str] = []
    candidates = []
    for ctor in constructors:
        label = _signature(owner, ctor)
        try:
            java_args, cost = _bind(ctor, args, kwargs, owner)
        except _NoMatch as e:
            problems.append(f"{label}: {e}")
            continue
        candidates.append(_Candidate(label, ctor, java_args, cost, []))
    if not candidates:
        candidates = _builder_candidates(java_class, owner, args, kwargs, problems)
    if not candidates:
        listed = "\n".join(f"  {p}" for p in problems) or "  (it has no public constructor or static builder())"
        raise JavaArgumentsError(
            f"cannot build {class_name} from ({_describe_values(args, kwargs)}); its candidates:\n{listed}"
        )
    candidates.sort(key=lambda c: c.cost)
    if len(candidates) > 1 and candidates[0].cost == candidates[1].cost:
        tied = [c.label for c in candidates if c.cost == candidates[0].cost]
        raise JavaArgumentsError(
            f"cannot build {class_name} from ({_describe_values(args, kwargs)}): it fits "
            + " and ".join(tied)
            + " equally well; name the parameters (keyword arguments) or pass Java-typed values"
        )
    return call_java(_invoke, candidates[0])


def _is_java_array(value: Any) -> bool:
    return _backend().is_java_object(value) and bool(value.getClass().isArray())


def _invoke(candidate: _Candidate) -> Any:
    backend = _backend()
    try:
        if backend.is_instance(candidate.executable, "java.lang.reflect.Method"):
            made = candidate.executable.invoke(None, backend.array("java.lang.Object", candidate.java_args))
            for setter, java_value in candidate.setters:
                made = setter.invoke(made, backend.array("java.lang.Object", [java_value]))
            return made.build()
        return candidate.executable.newInstance(backend.array("java.lang.Object", candidate.java_args))
    except Exception as e:
        java = backend.java_error(e)
        if java is None or not backend.is_instance(java, "java.lang.reflect.InvocationTargetException"):
            raise
        raise backend.raisable(backend.unwrap(java).getCause()) from None
