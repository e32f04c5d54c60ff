"""The JPype bridge: the JVM, arrays, exceptions and hooks crossing between Python and Java."""
