"""Runs one scenario on a Python-side driver (jhooks.conformance.driver): by default the Python
driver, :class:`PythonDriver` (TensorFlow's ``tf.compat.v1.train.MonitoredSession`` in
``jhooks.tf.OnErrorSession``, for ``Hook.onError``, with jhooks hooks adapted by
``jhooks.tf.to_tf_hooks``), Java hooks through ``jhooks.bridge.JavaHook``.

Like ``MonitoredTrainingSession`` on the chief the hooks are the chief-only hooks, then the others;
on a non-chief the chief-only hooks are left out (TF's worker session creator would wait for a
chief, which a single process does not have, so every role uses a ``ChiefSessionCreator`` of the
checkpoint dir: restore the latest checkpoint, else initialize). ``recoveryFaults`` wrap the
creator in :class:`~jhooks.testing.fault_injection.FaultInjectingSessionCreator`.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from jhooks.api.errors import HookFeedConflictError
from jhooks.conformance import error_descriptions, scripted_hook, standard_hooks, values
from jhooks.conformance.driver import (
    Caller,
    ConformanceDriver,
    DriverOutcome,
    DriverSetup,
    RunWithoutHooks,
    drive_monitored_session,
    get,
    register,
)

# (checkpointDir or None) -> a tf.compat.v1.train.SessionCreator; see docs/conformance.md.
SessionFactory = Callable[[str | None], Any]


def _java_json(obj: Any) -> Any:
    from jhooks.bridge import java_class

    return java_class("com.google.gson.JsonParser").parseString(json.dumps(obj)).getAsJsonObject()


def _make_hook(spec: Mapping[str, Any], language: str, checkpoint_dir: str | None, recorder: Any) -> Any:
    if language == "python":
        if "standard" in spec:
            return standard_hooks.create(spec, checkpoint_dir, recorder)
        return scripted_hook.make_hook(spec, recorder)
    from jhooks.bridge import JavaHook, java_class

    if "standard" in spec:
        java = java_class("org.jhooks.conformance.StandardHooks").create(
            _java_json(spec),
            None if checkpoint_dir is None else java_class("java.nio.file.Path").of(checkpoint_dir, []),
            recorder.java,
        )
    else:
        java = java_class("org.jhooks.conformance.ScriptedHook").create(_java_json(spec), recorder.java)
    return JavaHook(java)


def _final_ops_values(hook: Any) -> Any:
    from jhooks.bridge import JavaHook, java_class

    if isinstance(hook, JavaHook):
        v = java_class("org.jhooks.conformance.StandardHooks").finalOpsValues(hook.java)
        return json.loads(str(v.toString()))
    return standard_hooks.final_ops_values(hook)


class PythonDriver(ConformanceDriver):
    """The Python driver: ``tf.compat.v1.train.MonitoredSession`` (in ``jhooks.tf.OnErrorSession``,
    for ``Hook.onError``) over ``setup.sessionCreator`` with the hooks adapted by
    ``jhooks.tf.to_tf_hooks``. A run that never returned while the ``with`` block ended normally
    (TensorFlow's session swallows OutOfRangeError) is the end of input."""

    name = "python"

    def run(self, setup: DriverSetup, caller: Caller) -> DriverOutcome:
        import tensorflow as tf

        from jhooks.tf import OnErrorSession, to_tf_hooks

        tf_hooks = to_tf_hooks(setup.allHooks, setup.model.modelInstance)
        return drive_monitored_session(
            lambda: OnErrorSession.create(
                lambda: tf.compat.v1.train.MonitoredSession(session_creator=setup.sessionCreator, hooks=tf_hooks),
                tf_hooks,
            ),
            caller,
        )


register(PythonDriver())


def run(
    scenario: Mapping[str, Any],
    languages: Sequence[str],
    workdir: str,
    recorder: Any,
    sessionFactory: SessionFactory | None = None,
    extraHooks: Sequence[Any] = (),
    driver: ConformanceDriver | None = None,
) -> dict[str, Any]:
    """The observation (see jhooks.conformance.expectations) of one run of ``scenario`` on
    ``driver`` (a Python-side ConformanceDriver; default :class:`PythonDriver`).

    ``recorder`` is a scripted_hook.Recorder, or a recording.JavaBackedRecorder when any hook is
    Java; ``extraHooks`` (jhooks hooks) are registered after the scenario's hooks.
    """
    import tensorflow as tf

    from jhooks.testing.fault_injection import FaultInjectingSessionCreator
    from jhooks.tf import names

    driver = driver if driver is not None else get("python")
    spec = scenario["driver"]
    chief = spec.get("isChief", True)
    checkpoint_dir = None
    if spec.get("checkpointDir", False):
        checkpoint_dir = os.path.join(workdir, "checkpoints")
        os.makedirs(checkpoint_dir, exist_ok=True)
    graph, built = driver.buildModel(scenario["model"])
    observation: dict[str, Any] = {}
    with graph.as_default():
        chief_only: list[Any] = []
        others: list[Any] = []
        final_ops: dict[str, Any] = {}
        for hook_spec, language in zip(scenario["hooks"], languages):
            hook = _make_hook(hook_spec, language, checkpoint_dir, recorder)
            (chief_only if hook_spec.get("chiefOnly", False) else others).append(hook)
            if hook_spec.get("standard", {}).get("type") == "FinalOpsHook":
                final_ops[hook_spec["name"]] = hook
        others += list(extraHooks)
        creator = (
            sessionFactory(checkpoint_dir)
            if sessionFactory is not None
            else tf.compat.v1.train.ChiefSessionCreator(checkpoint_dir=checkpoint_dir)
        )
        faults = [f["atAttempt"] for f in spec.get("recoveryFaults", [])]
        if faults:
            creator = FaultInjectingSessionCreator(creator, faults, built.trainOp)
        caller_spec = scenario["caller"]
        where = lambda: ("caller", "run")  # noqa: E731
        structure = values.fetch_structure(caller_spec.get("fetches", "train"))
        caller = Caller(
            maxRuns=caller_spec["maxRuns"],
            fetches=names.resolve_fetches(graph, structure, where),
            feeds=names.resolve_feeds(graph, values.feeds(caller_spec.get("feeds", {})), where),
            withoutHooks=[
                RunWithoutHooks(w["afterRun"], values.fetch_structure(w["fetches"]), values.feeds(w.get("feeds", {})))
                for w in caller_spec.get("withoutHooks", [])
            ],
        )
        setup = DriverSetup(graph, built, chief, chief_only, others, checkpoint_dir, creator)
        _observe_outcome(driver.run(setup, caller), structure, observation, names)
        observation["finalOpsValues"] = {name: _final_ops_values(h) for name, h in final_ops.items()}
    observation.update(recorder.snapshot())
    observation.update(checkpoints(checkpoint_dir))
    return observation


def _observe_outcome(driven: DriverOutcome, structure: Any, observation: dict[str, Any], names: Any) -> None:
    outcome: dict[str, Any] = {}
    e = driven.error
    if e is None:
        outcome["kind"] = "endOfInput" if driven.endOfInput else "stopped" if driven.stopped else "normal"
    else:
        text = str(e)
        if isinstance(e, HookFeedConflictError) or (isinstance(e, RuntimeError) and "by two hooks" in text):
            outcome.update(kind="conflict", which="hook")
        elif isinstance(e, RuntimeError) and "Same tensor is fed by" in text:
            outcome.update(kind="conflict", which="caller")
        else:
            outcome["kind"] = "error"
        outcome["error"] = error_descriptions.describe(e)
    observation.update(
        callerRuns=driven.callerRuns,
        callerResults=[values.to_json(names.normalize_results(structure, r)) for r in driven.callerResults],
        withoutHooksResults=[values.to_json(r) for r in driven.withoutHooksResults],
        outcome=outcome,
    )


def checkpoints(checkpoint_dir: str | None, subdirs: bool = True) -> dict[str, Any]:
    """stateFile (basenames, or None), checkpointValues (step -> variable -> value), stepsOnDisk
    (global steps with any checkpoint file in the dir), graph (the dir's graph files, see
    :func:`graph_files`) and subdirs (sub-directory name -> the first three, for each
    sub-directory with a state file) of the dir."""
    import tensorflow as tf

    if not checkpoint_dir:
        return {"stateFile": None, "checkpointValues": {}, "stepsOnDisk": [], "subdirs": {}, "graph": graph_files(None)}
    out = _state_and_values(tf, checkpoint_dir)
    out["stepsOnDisk"] = steps_on_disk(checkpoint_dir)
    if subdirs:
        out["graph"] = graph_files(checkpoint_dir)
        out["subdirs"] = {
            name: checkpoints(os.path.join(checkpoint_dir, name), subdirs=False)
            for name in sorted(os.listdir(checkpoint_dir))
            if os.path.isfile(os.path.join(checkpoint_dir, name, "checkpoint"))
        }
    return out


def graph_files(checkpoint_dir: str | None) -> dict[str, Any]:
    """nodes (the sorted node names of ``<dir>/graph.pbtxt``, a text GraphDef; None without the
    file) and events (``graph_def`` / ``meta_graph_def`` for each graph event of the dir's event
    files, in order), what TF's CheckpointSaverHook writes at session creation. Twin of
    JvmScenarioRunner's."""
    if not checkpoint_dir:
        return {"nodes": None, "events": []}
    import tensorflow as tf
    from google.protobuf import text_format

    path = os.path.join(checkpoint_dir, "graph.pbtxt")
    nodes = None
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            nodes = sorted(n.name for n in text_format.Parse(f.read(), tf.compat.v1.GraphDef()).node)
    events = []
    for name in sorted(os.listdir(checkpoint_dir)):
        if name.startswith("events.out.tfevents."):
            for event in tf.compat.v1.train.summary_iterator(os.path.join(checkpoint_dir, name)):
                events += [kind for kind in ("graph_def", "meta_graph_def") if event.HasField(kind)]
    return {"nodes": nodes, "events": events}


def steps_on_disk(checkpoint_dir: str) -> list[int]:
    """The global steps of every ``<name>-<step>.index`` / ``.data-*`` file in the dir, sorted."""
    steps = set()
    for entry in os.listdir(checkpoint_dir):
        m = _CHECKPOINT_FILE.match(entry)
        if m is not None:
            steps.add(int(m.group(1)))
    return sorted(steps)


_CHECKPOINT_FILE = re.compile(r"^.+-([0-9]+)\.(?:index|data-[0-9]{5}-of-[0-9]{5})$")


def _state_and_values(tf: Any, checkpoint_dir: str) -> dict[str, Any]:
    state = tf.train.get_checkpoint_state(checkpoint_dir)
    if state is None:
        return {"stateFile": None, "checkpointValues": {}}
    base = os.path.basename
    values_by_step: dict[str, Any] = {}
    for path in state.all_model_checkpoint_paths:
        prefix = path if os.path.isabs(path) else os.path.join(checkpoint_dir, path)
        if any(c in base(path) for c in "*?["):  # TF's reader takes the prefix as a file pattern
            continue
        reader = tf.train.load_checkpoint(prefix)
        step = base(path).rsplit("-", 1)[-1]
        values_by_step[step] = {
            v: values.to_json(reader.get_tensor(v)) for v in ("global_step", "counter") if reader.has_tensor(v)
        }
    return {
        "stateFile": {
            "modelCheckpointPath": base(state.model_checkpoint_path),
            "allModelCheckpointPaths": [base(p) for p in state.all_model_checkpoint_paths],
        },
        "checkpointValues": values_by_step,
    }
