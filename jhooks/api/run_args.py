"""SessionRunArgs, SessionRunContext, SessionRunValues and RunOptions (twins of the Java classes).

Fetches are a tensor name (``"loss:0"``), an op name without ``:N`` run as a target whose result
is None, or a list/tuple/dict nest of them; feeds map tensor names to numpy arrays.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from jhooks.api import nest
from jhooks.api.errors import SessionRunArgsError


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
    def merge(a: RunOptions | None, b: RunOptions | None) -> RunOptions | None:
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

    Raises SessionRunArgsError (a ValueError) naming the value when fetches hold anything but
    names, lists, tuples and dicts, when feeds are not a mapping (None is no feeds) or a feed key
    is not a str. TensorFlow's SessionRunArgs checks nothing; its session run fails later.
    """

    fetches: Any = None
    feeds: Mapping[str, Any] = field(default_factory=dict)
    options: RunOptions | None = None

    def __post_init__(self) -> None:
        try:
            nest.validate(self.fetches)
        except ValueError as e:
            raise SessionRunArgsError(f"fetches {self.fetches!r}: {e}") from None
        feeds = self.feeds
        if feeds is None:
            feeds = {}
        elif not isinstance(feeds, Mapping):
            raise SessionRunArgsError(
                f"feeds must be a mapping of tensor names ('op:N') to values, got {type(feeds).__name__} {feeds!r}"
            )
        for key in feeds:
            if not isinstance(key, str):
                raise SessionRunArgsError(f"a feed key must be a tensor name (str), got {type(key).__name__} {key!r}")
        object.__setattr__(self, "feeds", dict(feeds))

    @staticmethod
    def of(fetches: Any) -> SessionRunArgs:
        """Args that fetch ``fetches`` (no feeds, no options); twin of Java's ``SessionRunArgs.of``.

        For one name (``"global_step:0"``, a target op) the same object every time, with read-only
        (empty) feeds: a hook may return ``SessionRunArgs.of(name)`` from every ``beforeSessionRun``
        and the drivers see the args it returned last time, whose names they already checked and
        resolved, without the hook keeping them. Raises SessionRunArgsError as the constructor.
        """
        if not isinstance(fetches, str):
            return SessionRunArgs(fetches)
        args = _one_name.get(fetches)
        if args is None:
            args = SessionRunArgs(fetches)
            object.__setattr__(args, "feeds", _NO_FEEDS)
            if len(_one_name) >= _ONE_NAME_MAX:
                _one_name.clear()
            _one_name[fetches] = args
        return args


# SessionRunArgs.of: one-name args by name (a bounded cache; two threads may briefly make two).
_ONE_NAME_MAX = 4096
_one_name: dict[str, SessionRunArgs] = {}
_NO_FEEDS: Mapping[str, Any] = MappingProxyType({})


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
    options: RunOptions | None = None
    runMetadata: Any = None
