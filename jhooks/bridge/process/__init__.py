"""The process Python and the JVM share, above the backend and the conversions: one JVM, started
under the TensorFlow runtime rule (:mod:`.jvm`, :mod:`.runtime`, :mod:`.classpath`), callbacks on
Java threads and a bounded exit (:mod:`.callbacks`, :mod:`.exit_guard`, :mod:`.ending`), signals
(:mod:`.signals`, :mod:`.watchdog`), the garbage-collector link (:mod:`.gc_link`), one console
(:mod:`.console`) and the calls across the bridge that need them (:mod:`.calls`). Their state is
one object, :data:`jhooks.bridge.process.state.PROCESS`.
"""
