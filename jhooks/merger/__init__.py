"""The merger: one run request from the caller's and every hook's args (no TensorFlow)."""

from jhooks.merger.run_merger import MergedRun, RunMerger

__all__ = ["MergedRun", "RunMerger"]
