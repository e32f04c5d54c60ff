"""Names vulture (the Python dead-code gate, ``[tool.vulture]`` in pyproject.toml) cannot see used.

vulture reads ``jhooks/`` and this file, never imports either, and counts a name used wherever it
appears. Each line names one deliberate entry point and says who uses it; remove a line when its
definition goes. Java's gate is org.jhooks.UnusedCodeTest. CONTRIBUTING.md, "What the checks enforce".
"""

# API: public members of the hook API, the merger, checkpoints and the standard hooks, each the twin
# of a public Java method; users (and the tests) call them.
_.endpoint  # jhooks.api.model.ModelInstance.endpoint(key); org.jhooks.ModelInstance.endpoint
_.hookCount  # jhooks.merger MergedRun.hookCount; org.jhooks.merger.MergedRun.hookCount
_.allCheckpoints  # jhooks.checkpoint CheckpointState.allCheckpoints; org.jhooks.checkpoint.Checkpoints
_.defaults  # jhooks.hooks.Saver.defaults(); org.jhooks.hooks.Saver.defaults
_.overlapCount  # AsyncCheckpointSaverHook.overlapCount(); its Java twin's
_.waitForPendingSaves  # AsyncCheckpointSaverHook.waitForPendingSaves(); its Java twin's
_.bestCheckpoint  # BestCheckpointsListener.bestCheckpoint(); its Java twin's
_.writtenFiles  # ProfilerHook.writtenFiles(); its Java twin's
_.bestStep  # StopIfNoImprovementHook.bestStep(); its Java twin's
_.evaluationsWithoutImprovement  # StopIfNoImprovementHook.evaluationsWithoutImprovement(); its Java twin's
_.keptCheckpoints  # CheckpointSaverHook.keptCheckpoints(); its Java twin's
_.writtenSteps  # SummarySaverHook.writtenSteps(): the steps written (Java: summariesWritten(), a count)
_.check_consistency  # jhooks.conformance.scenarios: checks a scenario file (tests/conformance/test_scenario_data.py)
_.SingularSessionDriver  # jhooks.conformance.singular_driver: registered by users, `--driver module:Class`

# TensorFlow calls these by name.
_.before_run  # tf.compat.v1.train.SessionRunHook callbacks of jhooks.tf's TfHookAdapter and TfHookGroup
_.after_run  # the same
_._get_session_manager  # jhooks.tf.worker_session: overrides tf.compat.v1.train.WorkerSessionCreator's

# Keras calls these by name: keras.callbacks.Callback methods of jhooks.keras.HookCallback.
_.on_train_begin  # model.fit, before the first batch
_.on_train_batch_begin  # model.fit, before each training batch (execution)
_.on_train_batch_end  # model.fit, after each training batch (execution)
_.on_train_end  # model.fit, once training ends without an error

# Java calls these by name, on JPype proxies of Python objects (the Java interface method's name).
_.beforeSessionRunSameContext  # org.jhooks.bridge.PythonHookTarget: a hook's run on the same context
_.afterSessionRunSameContext  # the same
_.beforeSessionRunNext  # PythonHookTarget, PythonHookGroupTarget: a new run's context, the id after the last one
_.afterSessionRunPacked  # PythonHookTarget: afterSessionRun with one small packed result
_.accept  # java.util.function.Consumer<ModelInstance> of a Python ModelDependentHook
_.getAsBoolean  # java.util.function.BooleanSupplier of org.jhooks.bridge.SessionStopSignals (signals.py)
_.commandLineHooks  # org.jhooks.python.PythonHooks.Loader, implemented by the launcher's loader
_.loadHook  # the same
_.loadListener  # the same
_.call  # jhooks.bridge.backend.jep_backend: what org.jhooks.bridge.EmbeddedPython.call runs on a Java thread
_.call_function  # jhooks.bridge.launcher.embedded: what EmbeddedPython.callFunction runs
_.TaskStartBarrier  # jhooks.demo.tf_config_task: org.jhooks.demo.TfConfigTask loads it by name (PythonHooks.load)

# Libraries read these attributes.
_.created  # logging.LogRecord fields the console sets on records from Java, read by logging's formatters
_.msecs  # the same
_.threadName  # the same
_.exc_text  # the same
_.system_err  # junitparser writes a conformance case's log to its <system-err>
_.yes  # a marker attribute on a threading.local: the bridge tests the local's __dict__, not the value

# Fields of records kept for their twin or their reader.
_.featureNames  # jhooks.demo.data.DemoData: the CSV header (org.jhooks.demo.DemoData sizes its model by it)
_.maxAbsDiff  # jhooks.demo.run.RestoreCheck: printed from the report dict as c["maxAbsDiff"]

# Signal handlers take (signum, frame); the frame is rarely needed.
_.frame  # jhooks.bridge.process.signals' handler
