"""ProfilerHook under TF's MonitoredSession: the Python hook against TF's own ProfilerHook, the Java
hook (through JavaHook) against the Python one, and Java's trace builder against TF's timeline."""

from __future__ import annotations

import json
import logging
import os

import jpype
import pytest
import tensorflow as tf
from hooks_support import Model, in_graph, train

import jhooks
from jhooks.bridge import JavaHook
from jhooks.hooks import ProfilerHook

pytestmark = pytest.mark.timeout(180)


@pytest.fixture(scope="module")
def jvm():
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()


def timelines(directory):
    return sorted(int(f[len("timeline-") : -len(".json")]) for f in os.listdir(directory) if f.startswith("timeline-"))


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def assert_chrome_trace_of_the_train_run(trace):
    events = trace["traceEvents"]
    names = {e["args"]["name"] for e in events if e["ph"] == "X"}
    assert "global_step/AssignAdd" in names or any("AssignAdd" in n for n in names)
    assert all({"ph", "pid"} <= set(e) for e in events)
    assert any(e["ph"] == "M" and e["args"]["name"].endswith(" Compute") for e in events)


@pytest.mark.parametrize("saveSteps,runs", [(3, 10), (1, 4), (4, 9)])
def test_writes_timelines_at_the_steps_tensorflow_does(tmp_path, saveSteps, runs):
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        hook = ProfilerHook(saveSteps=saveSteps, outputDir=str(ours))
        train([hook], m, runs)
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        train([tf.compat.v1.train.ProfilerHook(save_steps=saveSteps, output_dir=str(theirs))], m, runs)
    # the first run only starts the timer (at step 0, the step before it); then every saveSteps
    expected = [s for s in range(saveSteps, runs + 1, saveSteps) if s > 1]
    assert timelines(ours) == timelines(theirs) == expected
    assert hook.writtenFiles() == [os.path.join(str(ours), f"timeline-{s}.json") for s in expected]
    for s in expected:
        assert_chrome_trace_of_the_train_run(load(ours / f"timeline-{s}.json"))


def test_logs_tensorflows_line_and_shows_memory_on_request(tmp_path, caplog):
    _, m = in_graph(Model)
    with m.gs.graph.as_default(), caplog.at_level(logging.INFO, logger="jhooks.hooks.profiler"):
        train([ProfilerHook(saveSteps=2, outputDir=str(tmp_path), showDataflow=False, showMemory=True)], m, 3)
    path = os.path.join(str(tmp_path), "timeline-2.json")
    assert caplog.messages == [f"Saving timeline for 2 into '{path}'."]
    phases = {e["ph"] for e in load(path)["traceEvents"]}
    assert {"C", "N", "D"} <= phases and "s" not in phases


def test_neither_or_both_schedules_is_tensorflows_error():
    with pytest.raises(ValueError, match="Either every_secs or every_steps should be provided."):
        ProfilerHook(outputDir="x")
    with pytest.raises(ValueError, match="Can not provide both every_secs and every_steps."):
        ProfilerHook(saveSteps=1, saveSecs=1.0)


class MetadataKeeper(jhooks.Hook):
    """Asks every run for a full trace and keeps each RunMetadata proto."""

    def __init__(self):
        self.metadata = []

    def beforeSessionRun(self, runContext):
        return jhooks.SessionRunArgs(None, options=jhooks.RunOptions(traceLevel=3))

    def afterSessionRun(self, runContext, runValues):
        self.metadata.append(runValues.runMetadata)


@pytest.mark.parametrize("showDataflow,showMemory", [(True, False), (False, True), (True, True), (False, False)])
def test_java_builds_the_trace_tensorflows_timeline_writes(jvm, showDataflow, showMemory):
    keeper = MetadataKeeper()
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        train([keeper], m, 2)
    J = jpype.JClass("org.jhooks.hooks.ProfilerHook")
    for metadata in keeper.metadata:
        assert len(metadata.step_stats.dev_stats) >= 1
        python = json.loads(ProfilerHook.chromeTrace(metadata, showDataflow, showMemory))
        raw = jpype.JArray(jpype.JByte)(metadata.SerializeToString())
        java = json.loads(str(J.chromeTrace(raw, showDataflow, showMemory)))
        assert java == python


def test_java_profiler_hook_writes_the_same_timelines_as_the_python_twin(jvm, tmp_path):
    J = jpype.JClass("org.jhooks.hooks.ProfilerHook")
    java = J(jpype.JClass("java.lang.Integer")(2), None, str(tmp_path / "java"), None, None)
    python = ProfilerHook(saveSteps=2, outputDir=str(tmp_path / "python"))
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        train([JavaHook(java), python], m, 7)
    assert timelines(tmp_path / "java") == timelines(tmp_path / "python") == [2, 4, 6]
    assert [str(p) for p in java.writtenFiles()] == [str(tmp_path / "java" / f"timeline-{s}.json") for s in (2, 4, 6)]
    for s in (2, 4, 6):
        trace = load(tmp_path / "java" / f"timeline-{s}.json")
        assert_chrome_trace_of_the_train_run(trace)
        # the same run's metadata went to both hooks: the same ops on the same devices
        ops = lambda t: sorted(e["args"]["name"] for e in t["traceEvents"] if e["ph"] == "X")  # noqa: E731
        assert ops(trace) == ops(load(tmp_path / "python" / f"timeline-{s}.json"))


def run_metadata_events(directory):
    """{tag: RunMetadata proto} of the event files in ``directory``, and each event's step."""
    from tensorflow.core.protobuf import config_pb2

    out = {}
    for name in sorted(os.listdir(directory)):
        if name.startswith("events.out.tfevents."):
            # the raw events (TensorBoard's loader turns tagged_run_metadata into summaries)
            for event in tf.compat.v1.train.summary_iterator(os.path.join(directory, name)):
                if event.HasField("tagged_run_metadata"):
                    tagged = event.tagged_run_metadata
                    out[tagged.tag] = (event.step, config_pb2.RunMetadata.FromString(tagged.run_metadata))
    return out


def test_adds_each_traced_runs_metadata_to_the_event_file_as_step_n_as_tensorflow(jvm, tmp_path):
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        train([tf.compat.v1.train.ProfilerHook(save_steps=3, output_dir=str(tmp_path / "tf"))], m, 10)
    tf.compat.v1.summary.FileWriterCache.clear()  # TF's writer is cached, flushed on close
    J = jpype.JClass("org.jhooks.hooks.ProfilerHook")
    java = J(jpype.JClass("java.lang.Integer")(3), None, str(tmp_path / "java"), None, None)
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        train([ProfilerHook(saveSteps=3, outputDir=str(tmp_path / "python")), JavaHook(java)], m, 10)
    found = {who: run_metadata_events(tmp_path / who) for who in ("tf", "python", "java")}
    assert sorted(found["tf"]) == ["step_3", "step_6", "step_9"]
    assert sorted(found["python"]) == sorted(found["java"]) == sorted(found["tf"])
    for who in ("tf", "python", "java"):
        for step, metadata in found[who].values():
            assert step == 0  # TF's add_run_metadata(run_metadata, tag) sets no step
            assert any("AssignAdd" in n.node_name for d in metadata.step_stats.dev_stats for n in d.node_stats)
