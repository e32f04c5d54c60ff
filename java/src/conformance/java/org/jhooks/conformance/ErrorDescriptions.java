package org.jhooks.conformance;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.jhooks.ForeignException;

/**
 * A thrown error as language-neutral JSON for the outcome checks: {@code types} (simple names of
 * the class and its superclasses; for a carrier of a foreign exception ({@link ForeignException}, a
 * Python exception), the foreign type's name first), {@code message}, {@code stack} (the full stack
 * text, causes included) and {@code cause} (the same for the cause, or absent).
 */
public final class ErrorDescriptions {
  private ErrorDescriptions() {}

  public static JsonObject describe(Throwable t) {
    JsonObject o = new JsonObject();
    JsonArray types = new JsonArray();
    ForeignException foreign = t instanceof ForeignException f ? f : null;
    String foreignType = foreign == null ? null : foreign.foreignType();
    if (foreignType != null) {
      types.add(foreignType.substring(foreignType.lastIndexOf('.') + 1));
    }
    for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
      types.add(c.getSimpleName());
    }
    o.add("types", types);
    String foreignMessage = foreign == null ? null : foreign.foreignMessage();
    o.addProperty(
        "message", foreignMessage != null ? foreignMessage : String.valueOf(t.getMessage()));
    StringWriter w = new StringWriter();
    t.printStackTrace(new PrintWriter(w, true));
    String traceback = foreign == null ? null : foreign.foreignTraceback();
    o.addProperty("stack", w + (traceback != null ? "\n" + traceback : ""));
    if (t.getCause() != null && t.getCause() != t) {
      o.add("cause", describe(t.getCause()));
    }
    return o;
  }
}
