"""Test support shipped in the package, not API: may change in any release (twin package:
``org.jhooks.testing``). See CONTRIBUTING.md, "Test support".

- :class:`jhooks.testing.fault_injection.FaultInjectingSessionCreator`: real TensorFlow sessions
  whose chosen runs raise ``AbortedError`` (the conformance suite's recovery scenarios). Importing
  that module imports tensorflow; importing this package does not.
"""
