package org.jhooks.conformance;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.jhooks.Hook;

/**
 * A user's Java hook factory, named as the conformance suite's {@code --java-hook-factory} names
 * it: {@code com.example.MakeHook} (a class implementing {@code Supplier<Hook>} with a public
 * no-argument constructor, or a class with exactly one public static no-argument method returning a
 * {@link Hook}) or {@code com.example.MakeHook::create} (that static method). Twin of {@code
 * jhooks.conformance.user_hooks.load_callable}.
 */
public final class UserHooks {
  private UserHooks() {}

  /**
   * The factory {@code spec} names, loaded with {@code loader}.
   *
   * @throws IllegalArgumentException naming the spec when the class or method is missing, or the
   *     class is neither a {@code Supplier} nor has one public static no-argument method returning
   *     a Hook
   */
  public static Supplier<Hook> factory(String spec, ClassLoader loader) {
    int sep = spec.indexOf("::");
    String className = sep < 0 ? spec : spec.substring(0, sep);
    String methodName = sep < 0 ? null : spec.substring(sep + 2);
    Class<?> cls;
    try {
      cls = Class.forName(className, true, loader);
    } catch (ClassNotFoundException | LinkageError e) {
      throw new IllegalArgumentException(
          "hook factory " + spec + ": class " + className + " not found (" + e + ")", e);
    }
    if (methodName == null && Supplier.class.isAssignableFrom(cls)) {
      return () -> {
        try {
          return (Hook) ((Supplier<?>) cls.getDeclaredConstructor().newInstance()).get();
        } catch (ReflectiveOperationException e) {
          throw new IllegalArgumentException(
              "hook factory " + spec + ": cannot make the Supplier: " + e, e);
        }
      };
    }
    List<Method> candidates = new ArrayList<>();
    for (Method m : cls.getMethods()) {
      if (Modifier.isStatic(m.getModifiers())
          && m.getParameterCount() == 0
          && Hook.class.isAssignableFrom(m.getReturnType())
          && (methodName == null || m.getName().equals(methodName))) {
        candidates.add(m);
      }
    }
    if (candidates.size() != 1) {
      throw new IllegalArgumentException(
          "hook factory "
              + spec
              + ": expected a Supplier<Hook> class or exactly one public static no-argument method"
              + " returning a Hook"
              + (methodName == null ? "" : " named " + methodName)
              + ", found "
              + candidates.size());
    }
    Method method = candidates.get(0);
    return () -> {
      try {
        return (Hook) method.invoke(null);
      } catch (InvocationTargetException e) {
        Throwable cause = e.getCause();
        if (cause instanceof RuntimeException) {
          throw (RuntimeException) cause;
        }
        if (cause instanceof Error) {
          throw (Error) cause;
        }
        throw new IllegalStateException(cause);
      } catch (IllegalAccessException e) {
        throw new IllegalArgumentException("hook factory " + spec + ": " + e, e);
      }
    };
  }

  /** {@link #factory(String, ClassLoader)} with this thread's context class loader. */
  public static Supplier<Hook> factory(String spec) {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    return factory(spec, loader != null ? loader : UserHooks.class.getClassLoader());
  }
}
