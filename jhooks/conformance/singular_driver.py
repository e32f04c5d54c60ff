"""A second Python driver, checked through the driver interface only: TensorFlow's
``tf.compat.v1.train.SingularMonitoredSession`` (in ``jhooks.tf.OnErrorSession``) with the hooks
adapted by ``jhooks.tf.to_tf_hooks``.

Not registered by jhooks: register it to check it, ``jhooks.conformance.driver.register(
SingularSessionDriver())``, or ``python -m jhooks conformance --driver
jhooks.conformance.singular_driver:SingularSessionDriver``; its cases are
``<scenario>[singular-driver-<hooks>-hooks]``.

``SingularMonitoredSession`` makes its own ``ChiefSessionCreator`` of the checkpoint dir (restore
the latest checkpoint, else initialize; the creator the suite offers in ``DriverSetup`` is not
used) and never recovers from ``AbortedError`` (``should_recover=False`` in TensorFlow), so
:attr:`recovers` is False and the scenarios with recovery faults are skipped for it. Everything
else (hook order, errors, end of input, stops, checkpoints, onError) behaves as on the Python
driver, which is what every other scenario checks.
"""

from __future__ import annotations

from jhooks.conformance.driver import Caller, ConformanceDriver, DriverOutcome, DriverSetup


class SingularSessionDriver(ConformanceDriver):
    """The caller's loop in a ``SingularMonitoredSession`` (module docstring)."""

    name = "singular"
    recovers = False

    def run(self, setup: DriverSetup, caller: Caller) -> DriverOutcome:
        import tensorflow as tf

        from jhooks.tf import OnErrorSession, to_tf_hooks

        tf_hooks = to_tf_hooks(setup.allHooks, setup.model.modelInstance)
        out = DriverOutcome(callerRuns=0)
        try:
            with OnErrorSession.create(
                lambda: tf.compat.v1.train.SingularMonitoredSession(hooks=tf_hooks, checkpoint_dir=setup.checkpointDir),
                tf_hooks,
            ) as session:
                while True:
                    for w in caller.withoutHooksAfter(out.callerRuns):
                        out.withoutHooksRuns += 1
                        out.withoutHooksResults.append(session.runWithoutHooks(w.fetches, w.feeds))
                    if session.should_stop() or out.callerRuns >= caller.maxRuns:
                        break
                    out.callerRuns += 1
                    out.callerResults.append(session.run(caller.fetches, feed_dict=caller.feeds))
                out.stopped = session.should_stop()
            # like MonitoredSession, the with block swallows OutOfRangeError: a run that never
            # returned is the end of input
            out.endOfInput = (
                len(out.callerResults) < out.callerRuns or len(out.withoutHooksResults) < out.withoutHooksRuns
            )
        except Exception as e:  # noqa: BLE001 - every error is the observed outcome
            out.error = e
        return out
