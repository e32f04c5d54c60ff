"""The bridge's non-public names the benchmarks use, imported here and nowhere else, so that when
the bridge's modules move only this file changes."""

from jhooks.bridge.convert.arrays import to_java, to_numpy
from jhooks.bridge.process import jvm

__all__ = ["jvm", "to_java", "to_numpy"]
