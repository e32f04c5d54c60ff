"""One JVM per pytest process, started by jhooks.bridge.jvm (tests needing a fresh process use
subprocess)."""

import os

import pytest

os.environ.setdefault("JHOOKS_JAVACPP_CACHE", os.path.join(os.path.dirname(__file__), "..", "..", "build",
                                                           "javacpp-cache"))


@pytest.fixture(scope="session", autouse=True)
def jvm():
    from jhooks.bridge import jvm as jvm_module

    jvm_module.start()
    return jvm_module
