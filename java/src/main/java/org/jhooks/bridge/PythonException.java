package org.jhooks.bridge;

import java.util.ArrayList;
import java.util.List;
import org.jhooks.ForeignException;

/**
 * A Python exception raised in a Python hook, listener or session view that Java called.
 *
 * <p>{@link #getMessage()} is {@code "<python type>: <message>"}; {@link #getStackTrace()} holds
 * the Python frames (class {@code <python>.<module>}, the file and line), innermost first, followed
 * by the Java frames that called into Python, so a Java stack trace prints the whole mixed stack;
 * {@link #pythonTraceback()} is Python's own traceback text; the cause is the Python {@code
 * __cause__} (or the implicit {@code __context__}) converted the same way, or the original Java
 * exception when Python was handling one. When the exception travels back into Python the original
 * Python exception object is raised again ({@link #token()}). See docs/bridge.md, "Exceptions".
 */
public class PythonException extends RuntimeException implements ForeignException {
  private static final long serialVersionUID = 1L;

  private final String pythonType;
  private final String pythonMessage;
  private final String pythonTraceback;
  private final long token;

  /**
   * @param pythonType qualified type name, for example {@code builtins.ValueError}
   * @param pythonMessage {@code str(exception)}
   * @param pythonTraceback the formatted Python traceback of this exception alone
   * @param files Python frames' files, outermost first (Python's order)
   * @param lines the frames' line numbers
   * @param functions the frames' function names
   * @param modules the frames' module names
   * @param token identifies the original Python exception object in this process; 0 for none
   * @param cause the converted cause, or null
   */
  public PythonException(
      String pythonType,
      String pythonMessage,
      String pythonTraceback,
      String[] files,
      int[] lines,
      String[] functions,
      String[] modules,
      long token,
      Throwable cause) {
    super(pythonType + ": " + pythonMessage, cause);
    this.pythonType = pythonType;
    this.pythonMessage = pythonMessage;
    this.pythonTraceback = pythonTraceback;
    this.token = token;
    // The Python frames (innermost first, as Java prints them), then the Java frames that called
    // into Python, minus the bridge's own construction frames.
    List<StackTraceElement> frames = new ArrayList<>();
    for (int i = files.length - 1; i >= 0; i--) {
      frames.add(new StackTraceElement("<python>." + modules[i], functions[i], files[i], lines[i]));
    }
    boolean skipping = true;
    for (StackTraceElement e : getStackTrace()) {
      skipping =
          skipping
              && (e.getClassName().startsWith("org.jpype.")
                  || e.getClassName().startsWith("jep.")
                  || e.getClassName().equals(EmbeddedPython.class.getName())
                  || e.getClassName().startsWith(EmbeddedPython.class.getName() + "$")
                  || e.getClassName().startsWith("jdk.internal.")
                  || e.getClassName().startsWith("java.lang.reflect.")
                  || e.getClassName().contains("$Proxy")
                  || e.getClassName().equals(PythonException.class.getName()));
      if (!skipping) {
        frames.add(e);
      }
    }
    setStackTrace(frames.toArray(new StackTraceElement[0]));
  }

  /** The Python type's qualified name, for example {@code builtins.ValueError}. */
  public String pythonType() {
    return pythonType;
  }

  /** {@code str(exception)} on the Python side. */
  public String pythonMessage() {
    return pythonMessage;
  }

  /** Python's formatted traceback ({@code traceback.format_exception}) of this exception alone. */
  public String pythonTraceback() {
    return pythonTraceback;
  }

  /** {@link #pythonType()}: the language-neutral name lower layers read. */
  @Override
  public String foreignType() {
    return pythonType;
  }

  /** {@link #pythonMessage()}. */
  @Override
  public String foreignMessage() {
    return pythonMessage;
  }

  /** {@link #pythonTraceback()}. */
  @Override
  public String foreignTraceback() {
    return pythonTraceback;
  }

  /** Identifies the original Python exception for the bridge; 0 when there is none. */
  public long token() {
    return token;
  }
}
