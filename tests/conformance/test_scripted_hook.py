"""Pins the scripted hooks' event and result strings by calling the callbacks directly."""

import numpy as np
import pytest

from jhooks import Coordinator, ModelDependentHook, ModelInstance, SessionRunArgs, SessionRunContext, SessionRunValues
from jhooks.conformance.scripted_hook import Recorder, ScriptedHookError, ScriptedListener, make_hook


def _context(fetches="train", feeds=None):
    return SessionRunContext(SessionRunArgs(fetches=fetches, feeds=feeds or {}), session=None)


def _one_run(hook, results=None, context=None):
    context = context or _context()
    args = hook.beforeSessionRun(context)
    hook.afterSessionRun(context, SessionRunValues(results=results))
    return args, context


def test_events_in_callback_order_with_run_numbers():
    rec = Recorder()
    hook = make_hook({"name": "h1"}, rec)
    hook.beginSession()
    hook.afterCreateSession(None, Coordinator())
    _one_run(hook)
    hook.beforeSessionRun(_context())  # a failed attempt: no afterSessionRun
    hook.afterCreateSession(None, Coordinator())
    _one_run(hook)
    hook.end(None)
    assert rec.trace == [
        "h1.begin",
        "h1.afterCreateSession",
        "h1.before@1",
        "h1.after@1",
        "h1.before@2",
        "h1.afterCreateSession",
        "h1.before@3",
        "h1.after@3",
        "h1.end",
    ]
    assert rec.results == {}


def test_fetch_and_feed_become_one_args_and_results_are_recorded():
    rec = Recorder()
    hook = make_hook(
        {
            "name": "h1",
            "actions": [
                {
                    "callback": "beforeSessionRun",
                    "run": 1,
                    "fetch": {"s": "global_step_read:0", "t": {"$tuple": ["a:0", ["b:0"]]}},
                    "feed": {"x:0": {"dtype": "int64", "shape": [2, 1], "values": [3, 4]}},
                }
            ],
        },
        rec,
    )
    hook.afterCreateSession(None, Coordinator())
    args, _ = _one_run(hook, results={"s": np.int64(0), "t": (np.float32(1.5), [np.array([np.nan], np.float32)])})
    assert args.fetches == {"s": "global_step_read:0", "t": ("a:0", ["b:0"])}
    assert (
        list(args.feeds) == ["x:0"] and args.feeds["x:0"].dtype == np.int64 and args.feeds["x:0"].tolist() == [[3], [4]]
    )
    second, _ = _one_run(hook)
    assert second is None
    assert rec.results == {
        "h1": [{"at": "after@1", "what": "results", "value": {"s": 0, "t": {"$tuple": [1.5, [["NaN"]]]}}}]
    }


def test_record_results_records_none_when_nothing_was_asked():
    rec = Recorder()
    hook = make_hook({"name": "h1", "actions": [{"callback": "afterSessionRun", "recordResults": True}]}, rec)
    hook.afterCreateSession(None, Coordinator())
    _one_run(hook)
    assert rec.results == {"h1": [{"at": "after@1", "what": "results", "value": None}]}


def test_stop_requests_through_run_context_and_coordinator():
    rec = Recorder()
    coord = Coordinator()
    hook = make_hook(
        {
            "name": "h1",
            "actions": [
                {"callback": "afterSessionRun", "run": 1, "requestStop": "runContext"},
                {"callback": "afterSessionRun", "run": 2, "requestStop": "coord"},
            ],
        },
        rec,
    )
    hook.afterCreateSession(None, coord)
    _, first = _one_run(hook)
    assert first.stopRequested and not coord.shouldStop()
    _, second = _one_run(hook)
    assert not second.stopRequested and coord.shouldStop()


def test_raise_with_cause_after_recording_the_event():
    rec = Recorder()
    hook = make_hook(
        {
            "name": "h2",
            "actions": [
                {
                    "callback": "end",
                    "raise": {
                        "type": "ScriptedHook",
                        "message": "outer",
                        "cause": {"type": "ScriptedHook", "message": "inner"},
                    },
                }
            ],
        },
        rec,
    )
    with pytest.raises(ScriptedHookError, match="outer") as info:
        hook.end(None)
    assert isinstance(info.value.__cause__, ScriptedHookError) and str(info.value.__cause__) == "inner"
    assert rec.trace == ["h2.end"]


def test_original_args_and_model_instance_are_recorded():
    rec = Recorder()
    hook = make_hook(
        {
            "name": "m1",
            "modelDependent": True,
            "actions": [
                {"callback": "begin", "recordModelInstance": True},
                {"callback": "beforeSessionRun", "recordOriginalArgs": True, "recordModelInstance": True},
            ],
        },
        rec,
    )
    assert isinstance(hook, ModelDependentHook)
    model = ModelInstance.of("loss:0", "train", "global_step:0")
    hook.modelInstance = model
    hook.beginSession()
    hook.afterCreateSession(None, Coordinator())
    hook.beforeSessionRun(_context(fetches=["train", ("c:0",)], feeds={"z:0": 1, "a:0": 2}))
    mi = {"endpoints": {"loss": "loss:0", "trainOp": "train", "globalStep": "global_step:0"}, "sameAsFirst": True}
    assert rec.results == {
        "m1": [
            {"at": "begin", "what": "modelInstance", "value": mi},
            {"at": "before@1", "what": "modelInstance", "value": mi},
            {
                "at": "before@1",
                "what": "originalArgs",
                "value": {"fetches": ["train", {"$tuple": ["c:0"]}], "feeds": ["a:0", "z:0"]},
            },
        ]
    }


def test_plain_hook_is_not_model_dependent():
    assert not isinstance(make_hook({"name": "h1"}, Recorder()), ModelDependentHook)
    with pytest.raises(ValueError, match="standard"):
        make_hook({"name": "s", "standard": {"type": "StopAtStepHook", "numSteps": 1}}, Recorder())


def test_listener_events_and_stop_request():
    rec = Recorder()
    listener = ScriptedListener({"name": "l1", "stopAfterSaveAt": 2}, rec)
    listener.begin()
    listener.beforeSave(None, 0)
    assert listener.afterSave(None, 0) is False
    listener.beforeSave(None, np.int64(2))
    assert listener.afterSave(None, np.int64(2)) is True
    listener.end(None, 2)
    assert rec.listenerTrace == [
        "l1.begin",
        "l1.beforeSave@0",
        "l1.afterSave@0",
        "l1.beforeSave@2",
        "l1.afterSave@2",
        "l1.end@2",
    ]


def test_raw_run_through_a_real_session():
    tf = pytest.importorskip("tensorflow")
    from jhooks.conformance import model_python

    built = model_python.build({"placeholders": [{"name": "x", "dtype": "float32", "shape": []}]})
    with built.graph.as_default():
        init = tf.compat.v1.global_variables_initializer()
    with tf.compat.v1.Session(graph=built.graph) as sess:
        sess.run(init)
        rec = Recorder()
        hook = make_hook(
            {
                "name": "h1",
                "actions": [
                    {"callback": "afterCreateSession", "rawRun": {"fetches": "train"}},
                    {
                        "callback": "end",
                        "rawRun": {
                            "fetches": {"g": "global_step:0", "x": "x_doubled:0"},
                            "feeds": {"x:0": {"dtype": "float32", "shape": [], "values": [2.5]}},
                        },
                    },
                ],
            },
            rec,
        )
        hook.afterCreateSession(sess, Coordinator())
        hook.end(sess)
    assert rec.results == {
        "h1": [
            {"at": "afterCreateSession", "what": "rawRun", "value": None},
            {"at": "end", "what": "rawRun", "value": {"g": 1, "x": 5.0}},
        ]
    }
