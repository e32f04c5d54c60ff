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

from jhooks.conformance.driver import Caller, ConformanceDriver, DriverOutcome, DriverSetup, drive_monitored_session


class SingularSessionDriver(ConformanceDriver):
    """The caller's loop in a ``SingularMonitoredSession`` (module docstring)."""

    name = "singular"
    recovers = False

    def run(self, setup: DriverSetup, caller: Caller) -> DriverOutcome:
        import tensorflow as tf

        from jhooks.tf import OnErrorSession, to_tf_hooks

        tf_hooks = to_tf_hooks(setup.allHooks, setup.model.modelInstance)
        return drive_monitored_session(
            lambda: OnErrorSession.create(
                lambda: tf.compat.v1.train.SingularMonitoredSession(hooks=tf_hooks, checkpoint_dir=setup.checkpointDir),
                tf_hooks,
            ),
            caller,
        )
