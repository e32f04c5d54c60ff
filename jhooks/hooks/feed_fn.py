"""FeedFnHook: feeds what a function returns into every run (twin of the Java class)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from jhooks.api.hook import Hook
from jhooks.api.run_args import SessionRunArgs


class FeedFnHook(Hook):
    """Calls ``feedFn()`` before each run and feeds its result, as ``tf.compat.v1.train.FeedFnHook``.

    Args:
        feedFn: no-argument callable returning ``{tensor name: numpy array}``. Feeding a tensor the
            caller or another hook also feeds raises the merger's feed-conflict error.
    """

    def __init__(self, feedFn: Callable[[], Mapping[str, Any]]) -> None:
        if not callable(feedFn):
            raise ValueError(f"FeedFnHook: feedFn must be callable, got {feedFn!r}")
        self.feedFn = feedFn

    def beforeSessionRun(self, runContext: Any) -> SessionRunArgs:
        return SessionRunArgs(fetches=None, feeds=self.feedFn())
