"""SessionRunArgs validation and RunOptions.merge (TF's _merge_run_options rules)."""

import pytest

from jhooks import RunOptions, SessionRunArgs, SessionRunValues


def test_merge_takes_larger_numbers_and_ors_booleans():
    a = RunOptions(traceLevel=1, timeoutInMs=500, interOpThreadPool=0, outputPartitionGraphs=True)
    b = RunOptions(traceLevel=3, timeoutInMs=100, interOpThreadPool=2, reportTensorAllocationsUponOom=True)
    assert RunOptions.merge(a, b) == RunOptions(
        traceLevel=3,
        timeoutInMs=500,
        interOpThreadPool=2,
        outputPartitionGraphs=True,
        reportTensorAllocationsUponOom=True,
    )
    assert RunOptions.merge(b, a) == RunOptions.merge(a, b)


def test_merge_with_none_and_a_hook_cannot_shorten_the_timeout():
    caller = RunOptions(timeoutInMs=1000)
    assert RunOptions.merge(None, caller) is caller and RunOptions.merge(caller, None) is caller
    assert RunOptions.merge(None, None) is None
    assert RunOptions.merge(caller, RunOptions(timeoutInMs=10)).timeoutInMs == 1000


def test_run_args_copy_feeds_and_validate_fetches():
    feeds = {"x:0": 1}
    args = SessionRunArgs(["a:0"], feeds)
    feeds["y:0"] = 2
    assert args.feeds == {"x:0": 1}
    assert SessionRunArgs(None, None).feeds == {}
    with pytest.raises(ValueError, match="got int 5"):
        SessionRunArgs([5])


def test_values_default_to_none():
    v = SessionRunValues()
    assert (v.results, v.options, v.runMetadata) == (None, None, None)
