"""Hooks across the bridge, above the process: Java hooks and listeners in Python sessions
(:mod:`.java_hooks`, built from plain values by :mod:`.construct`), Python hooks and listeners for
the JVM (:mod:`.python_hooks`), and the session, coordinator and checkpoint-guard views both ways
(:mod:`.sessions`)."""
