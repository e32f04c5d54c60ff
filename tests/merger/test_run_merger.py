"""RunMerger: de-duplication, structures back, feed conflicts before anything runs, options."""

import pytest

from jhooks import CallerFeedConflictError, HookFeedConflictError, RunOptions, SessionRunArgs
from jhooks.merger import RunMerger


def test_fetches_are_deduplicated_and_each_party_gets_its_structure():
    m = RunMerger(SessionRunArgs(["loss:0", "train"], {"x:0": 1}))
    m.add("A", SessionRunArgs({"l": "loss:0", "gs": "global_step:0"}))
    m.add("B", None)
    m.add("C", SessionRunArgs(("global_step:0", "train", ["loss:0"])))
    run = m.finish()
    assert run.tensorFetches == ["loss:0", "global_step:0"]
    assert run.targets == ["train"]
    assert run.feeds == {"x:0": 1}
    assert run.hookCount == 3
    values = {"loss:0": 0.5, "global_step:0": 7}.__getitem__
    assert run.callerResults(values) == [0.5, None]
    assert run.hookResults(0, values) == {"l": 0.5, "gs": 7}
    assert run.hookResults(1, values) is None
    back = run.hookResults(2, values)
    assert back == (7, None, [0.5]) and type(back) is tuple


def test_feeds_are_united():
    m = RunMerger(SessionRunArgs(None, {"x:0": 1}))
    m.add("A", SessionRunArgs(None, {"y:0": 2}))
    m.add("B", SessionRunArgs(None, {"z:0": 3}))
    assert m.finish().feeds == {"x:0": 1, "y:0": 2, "z:0": 3}


def test_two_hooks_feeding_one_tensor_raise_at_the_second():
    m = RunMerger(SessionRunArgs())
    m.add("hook #0 (a.A)", SessionRunArgs(None, {"y:0": 2}))
    with pytest.raises(HookFeedConflictError) as err:
        m.add("hook #1 (b.B)", SessionRunArgs(None, {"y:0": 3}))
    e = err.value
    assert e.tensor == "y:0" and e.hook == "hook #1 (b.B)" and e.callback == "beforeSessionRun"
    assert "'y:0'" in str(e) and "hook #0 (a.A)" in str(e) and "hook #1 (b.B)" in str(e)


def test_hook_feeding_a_tensor_the_caller_feeds_raises_in_finish():
    m = RunMerger(SessionRunArgs(None, {"x:0": 1}))
    m.add("hook #0 (a.A)", SessionRunArgs(None, {"x:0": 2}))
    with pytest.raises(CallerFeedConflictError) as err:
        m.finish()
    assert err.value.tensor == "x:0"
    assert (
        str(err.value) == "hook #0 (a.A).beforeSessionRun: same tensor 'x:0' is fed by hook #0 (a.A) and by the caller"
    )


def test_options_merge_caller_and_hooks():
    m = RunMerger(SessionRunArgs(None, None, RunOptions(timeoutInMs=1000)))
    m.add("A", SessionRunArgs(None, None, RunOptions(traceLevel=2, timeoutInMs=10)))
    m.add("B", SessionRunArgs(None, None, RunOptions(outputPartitionGraphs=True)))
    assert m.finish().options == RunOptions(traceLevel=2, timeoutInMs=1000, outputPartitionGraphs=True)
    assert RunMerger(SessionRunArgs()).finish().options is None
