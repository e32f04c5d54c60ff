"""SessionRunArgs, SessionRunContext, SessionRunValues and RunOptions (twins of the Java classes).

Fetches are a tensor name (``"loss:0"``), an op name without ``:N`` run as a target whose result
is None, or a list/tuple/dict nest of them; feeds map tensor names to numpy arrays.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Optional

from jhooks.api import nest


@dataclass(frozen=True)
class RunOptions:
    """The language-neutral subset of TensorFlow's ``RunOptions`` proto that hooks may set.

    ``traceLevel``: 0 NO_TRACE .. 3 FULL_TRACE; ``timeoutInMs``: milliseconds, 0 for none.
    :meth:`merge` follows ``_HookedSession._merge_run_options``: numbers take the larger value,
    booleans are OR-ed.
    """

    traceLevel: int = 0
    timeoutInMs: int = 0
    interOpThreadPool: int = 0
    outputPartitionGraphs: bool = False
    reportTensorAllocationsUponOom: bool = False

    @staticmethod
    def merge(a: Optional["RunOptions"], b: Optional["RunOptions"]) -> Optional["RunOptions"]:
        if a is None:
            return b
        if b is None:
            return a
        return RunOptions(
            traceLevel=max(a.traceLevel, b.traceLevel),
            timeoutInMs=max(a.timeoutInMs, b.timeoutInMs),
            interOpThreadPool=max(a.interOpThreadPool, b.interOpThreadPool),
            outputPartitionGraphs=a.outputPartitionGraphs or b.outputPartitionGraphs,
            reportTensorAllocationsUponOom=a.reportTensorAllocationsUponOom or b.reportTensorAllocationsUponOom,
        )


@dataclass(frozen=True)
class SessionRunArgs:
    """What a caller or hook adds to one run (twin of TF's ``SessionRunArgs``).

    Raises ValueError when fetches hold anything but names, lists, tuples and dicts.
    """

    fetches: Any = None
    feeds: Mapping[str, Any] = field(default_factory=dict)
    options: Optional[RunOptions] = None

    def __post_init__(self) -> None:
        nest.validate(self.fetches)
        object.__setattr__(self, "feeds", dict(self.feeds or {}))


class SessionRunContext:
    """What a hook sees of one run: the caller's original args, the raw session, the stop flag.

    One instance is shared by every hook of a run; the driver ORs :attr:`stopRequested` into
    its own should-stop state after the run.
    """

    def __init__(self, originalArgs: SessionRunArgs, session: Any) -> None:
        self.originalArgs = originalArgs
        self.session = session
        self._stop = False

    def requestStop(self) -> None:
        """Asks the monitored session to stop after this run; the run itself still completes."""
        self._stop = True

    @property
    def stopRequested(self) -> bool:
        return self._stop


@dataclass(frozen=True)
class SessionRunValues:
    """The results of one run for one hook (twin of TF's ``SessionRunValues``).

    ``results`` has exactly the structure the hook asked for (None when it asked for nothing);
    ``runMetadata`` is the RunMetadata proto, or None when none was requested.
    """

    results: Any = None
    options: Optional[RunOptions] = None
    runMetadata: Any = None
