"""The bridge's non-public names the benchmarks use, imported here and nowhere else: jhooks.bridge
is being layered into sub-packages, and when these modules move only this file changes."""

from jhooks.bridge import jvm
from jhooks.bridge.arrays import to_java, to_numpy

__all__ = ["jvm", "to_java", "to_numpy"]
