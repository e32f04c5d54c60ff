package org.jhooks.bridgetest;

import org.jhooks.CallerFeedConflictException;
import org.jhooks.Hook;
import org.jhooks.HookException;
import org.jhooks.HookFeedConflictException;
import org.jhooks.SessionRunContext;
import org.jhooks.SessionRunValues;
import org.jhooks.hooks.NanLossDuringTrainingException;
import org.jhooks.tf.GraphNameException;

/**
 * A Java hook whose {@code afterSessionRun} throws what {@code what} names: {@code NanLoss}, {@code
 * Hook}, {@code GraphName}, {@code HookFeedConflict}, {@code CallerFeedConflict} (jhooks' own
 * exceptions), {@code StackOverflow} (real unbounded recursion) or {@code OutOfMemory} (a real
 * allocation beyond the VM's limit); or a standard exception thrown by the JDK itself: {@code
 * NumberFormat} ({@code Integer.parseInt}), {@code IllegalState} (a closed {@code Scanner}), {@code
 * UnsupportedOperation} (an immutable list's {@code add}), {@code Arithmetic} (integer division by
 * zero), {@code ClassCast}, {@code NoSuchElement} (an empty iterator's {@code next}), {@code
 * IndexOutOfBounds}.
 */
public final class ThrowingHook implements Hook {
  private final String what;

  public ThrowingHook(String what) {
    this.what = what;
  }

  @Override
  public void afterSessionRun(SessionRunContext runContext, SessionRunValues runValues) {
    switch (what) {
      case "NanLoss":
        throw new NanLossDuringTrainingException("loss:0", 7);
      case "Hook":
        throw new HookException("a java hook", "afterSessionRun", "is unhappy");
      case "GraphName":
        throw new GraphNameException("a java hook", "afterSessionRun", "nope:0", "is missing");
      case "HookFeedConflict":
        throw new HookFeedConflictException("x:0", "first java hook", "second java hook");
      case "CallerFeedConflict":
        throw new CallerFeedConflictException("x:0", "a java hook");
      case "StackOverflow":
        recurse(0);
        return;
      case "OutOfMemory":
        long[] huge = new long[Integer.MAX_VALUE];
        huge[0] = 1;
        return;
      case "NumberFormat":
        Integer.parseInt("not a number");
        return;
      case "IllegalState":
        java.util.Scanner closed = new java.util.Scanner("");
        closed.close();
        closed.hasNext();
        return;
      case "UnsupportedOperation":
        java.util.List.of().add(null);
        return;
      case "Arithmetic":
        int zero = what.length() - what.length();
        System.out.println(1 / zero);
        return;
      case "ClassCast":
        Object text = what;
        System.out.println((Integer) text);
        return;
      case "NoSuchElement":
        java.util.List.of().iterator().next();
        return;
      case "IndexOutOfBounds":
        java.util.List.of().get(0);
        return;
      default:
        throw new IllegalArgumentException("unknown " + what);
    }
  }

  private static int recurse(int depth) {
    return recurse(depth + 1) + 1;
  }
}
