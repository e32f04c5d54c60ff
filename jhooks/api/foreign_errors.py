"""Errors of the other language's runtime, as the layer that knows that language tells them.

A driver names the hook and callback of an error that is fatal to the other language's runtime (a
Java ``Error``: StackOverflowError, OutOfMemoryError, ...) raised by a hook in that language, as
the JVM driver does for Java hooks (docs/contract.md). The drivers sit below the bridge, so they
cannot ask it: the bridge registers a test here (:func:`register_fatal_error_test`) and the
TensorFlow adapter asks :func:`is_fatal_foreign_error`. With no bridge in use no test is registered
and no error is foreign. Twin of ``org.jhooks.ForeignException``, which the Java carrier of a Python
exception implements.
"""

from __future__ import annotations

from collections.abc import Callable

_fatal_tests: list[Callable[[BaseException], bool]] = []


def register_fatal_error_test(test: Callable[[BaseException], bool]) -> None:
    """Adds ``test(error)``: whether ``error`` is fatal to another language's runtime. Idempotent."""
    if test not in _fatal_tests:
        _fatal_tests.append(test)


def is_fatal_foreign_error(error: BaseException) -> bool:
    """Whether a registered test says ``error`` is fatal to another language's runtime."""
    return any(test(error) for test in _fatal_tests)
