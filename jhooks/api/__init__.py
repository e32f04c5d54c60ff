"""The hook API: no TensorFlow, no JVM. See docs/contract.md for the lifecycle and error table."""
