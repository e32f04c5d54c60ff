"""The bridge's top layer: Python hooks for JVM applications. The launcher (:mod:`.app`,
``python -m jhooks java``), the ``PythonHooks`` loader (:mod:`.loader`) and its specs
(:mod:`.specs`), and the entry of a JVM that embeds Python (:mod:`.embedded`, the jep backend)."""
