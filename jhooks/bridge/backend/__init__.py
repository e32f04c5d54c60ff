"""The bridge's lowest layer: what it needs from a Python-Java library, its two implementations, and
the one this process uses (docs/bridge.md, "Backends").

- :mod:`~jhooks.bridge.backend.protocol`: :class:`~jhooks.bridge.backend.protocol.Backend`, every
  operation the bridge (and its users) need from JPype or jep;
- :mod:`~jhooks.bridge.backend.jpype_backend`: JPype, when Python hosts the process and starts the JVM;
- :mod:`~jhooks.bridge.backend.jep_backend`: jep, when a JVM started by plain ``java`` embeds CPython;
- :mod:`~jhooks.bridge.backend.choice`: which of the two this process uses.

Only the two backend modules import ``jpype`` or ``jep`` (an import-linter contract).
"""
