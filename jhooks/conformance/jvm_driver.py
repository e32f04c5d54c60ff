"""Runs one scenario on the JVM driver (JPype or jep backend): ``org.jhooks.conformance.JvmScenarioRunner``
builds the model with ModelRecipe and drives org.jhooks.tf.MonitoredTrainingSession; Java hooks
are made on the JVM, Python hooks here (through :class:`ForeignHooks`, as ``as_java_hook``
proxies) and record into the same Java Recorder, so the trace is one ordered list."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from jhooks.bridge.process.calls import python_errors
from jhooks.conformance import scripted_hook, standard_hooks
from jhooks.conformance.jars import start_jvm
from jhooks.conformance.recording import JavaBackedRecorder


class ForeignHooks:
    """Implements org.jhooks.conformance.ForeignHooks: Python hooks for a JVM session."""

    def __init__(self) -> None:
        self.finalOps: dict[str, Any] = {}

    @python_errors
    def create(self, hookJson: Any, recorder: Any, checkpointDir: Any) -> Any:
        from jhooks.bridge import as_java_hook

        spec = json.loads(str(hookJson))
        rec = JavaBackedRecorder(recorder)
        if "standard" in spec:
            hook = standard_hooks.create(spec, None if checkpointDir is None else str(checkpointDir), rec)
            if spec["standard"]["type"] == "FinalOpsHook":
                self.finalOps[spec["name"]] = hook
        else:
            hook = scripted_hook.make_hook(spec, rec)
        return as_java_hook(hook)

    @python_errors
    def finalOpsValues(self, hookName: Any) -> str:
        return json.dumps(standard_hooks.final_ops_values(self.finalOps[str(hookName)]))


def run(
    scenario: Mapping[str, Any],
    languages: Sequence[str],
    workdir: str,
    extraHooks: Callable[[str], Iterable[Any]] | None = None,
) -> dict[str, Any]:
    """The observation (see jhooks.conformance.expectations) of one run of ``scenario``;
    ``extraHooks("java")`` gives org.jhooks.Hook objects registered after the scenario's hooks. On
    either bridge backend (JPype starts the JVM here; under jep this interpreter runs inside it)."""
    from jhooks.bridge.backend.choice import current

    start_jvm(natives=True)
    backend = current()
    proxy = backend.proxy("org.jhooks.conformance.ForeignHooks", ForeignHooks())
    scenario_json = backend.jclass("com.google.gson.JsonParser").parseString(json.dumps(scenario)).getAsJsonObject()
    java_languages = backend.jclass("java.util.ArrayList")()
    for language in languages:
        java_languages.add(backend.jstring(language))
    extra = backend.jclass("java.util.ArrayList")()
    for hook in extraHooks("java") if extraHooks is not None else []:
        extra.add(hook)
    observation = backend.jclass("org.jhooks.conformance.JvmScenarioRunner").run(
        scenario_json,
        java_languages,
        proxy,
        backend.jclass("java.io.File")(workdir).toPath(),
        extra,
        None,
        None,
    )
    return json.loads(str(observation.toString()))
