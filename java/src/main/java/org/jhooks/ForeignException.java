package org.jhooks;

/**
 * An exception of the other language, carried across the bridge into Java: its type, message and
 * traceback as that language has them. Implemented by the bridge's carrier of a Python exception
 * ({@code org.jhooks.bridge.PythonException}), so lower layers (the JVM driver's error codes, the
 * conformance suite's error descriptions) read a Python error without depending on the bridge.
 *
 * <p>Python's side of the same extension point is the module {@code jhooks.api.foreign_errors}.
 */
public interface ForeignException {
  /** The type's qualified name in its own language, for example {@code builtins.ValueError}. */
  String foreignType();

  /** The exception's message in its own language ({@code str(exception)} for Python). */
  String foreignMessage();

  /** The exception's traceback as its own language formats it. */
  String foreignTraceback();
}
