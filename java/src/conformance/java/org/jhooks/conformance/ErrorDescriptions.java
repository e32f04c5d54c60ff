package org.jhooks.conformance;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Method;

/**
 * A thrown error as language-neutral JSON for the outcome checks: {@code types} (simple names of
 * the class and its superclasses; for a bridge carrier of a Python exception, the Python type's
 * name first), {@code message}, {@code stack} (the full stack text, causes included) and {@code
 * cause} (the same for the cause, or absent).
 */
public final class ErrorDescriptions {
  private ErrorDescriptions() {}

  public static JsonObject describe(Throwable t) {
    JsonObject o = new JsonObject();
    JsonArray types = new JsonArray();
    String pythonType = invoke(t, "pythonType");
    if (pythonType != null) {
      types.add(pythonType.substring(pythonType.lastIndexOf('.') + 1));
    }
    for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
      types.add(c.getSimpleName());
    }
    o.add("types", types);
    String pythonMessage = invoke(t, "pythonMessage");
    o.addProperty(
        "message", pythonMessage != null ? pythonMessage : String.valueOf(t.getMessage()));
    StringWriter w = new StringWriter();
    t.printStackTrace(new PrintWriter(w, true));
    String traceback = invoke(t, "pythonTraceback");
    o.addProperty("stack", w + (traceback != null ? "\n" + traceback : ""));
    if (t.getCause() != null && t.getCause() != t) {
      o.add("cause", describe(t.getCause()));
    }
    return o;
  }

  // The bridge's PythonException (org.jhooks.bridge) is looked up by method, so this class needs
  // no compile-time link to the bridge.
  private static String invoke(Throwable t, String method) {
    try {
      Method m = t.getClass().getMethod(method);
      Object v = m.invoke(t);
      return v == null ? null : v.toString();
    } catch (ReflectiveOperationException e) {
      return null;
    }
  }
}
