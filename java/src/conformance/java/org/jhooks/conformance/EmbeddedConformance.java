package org.jhooks.conformance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jhooks.bridge.EmbeddedPython;

/**
 * Runs the conformance suite's JVM-driver combinations with Python hooks on the jep backend, in
 * this JVM (started by plain {@code java}, with jep's jar of the Python environment on the
 * classpath and the options of {@code python -m jhooks jvm-options}): {@code EmbeddedConformance
 * jvm-driver-python-hooks [jvm-driver-mixed-hooks ...] [-- SCENARIO ...]}. Prints one line per case
 * ({@code passed|xfailed|skipped|failed <case id>}) and exits with status 1 when a case failed. The
 * Python half is {@code jhooks.conformance.embedded}.
 */
public final class EmbeddedConformance {
  private EmbeddedConformance() {}

  /** Runs the combinations named in {@code args}; see the class comment. */
  public static void main(String[] args) {
    List<String> combos = new ArrayList<>();
    List<String> scenarios = new ArrayList<>();
    int split = Arrays.asList(args).indexOf("--");
    for (int i = 0; i < args.length; i++) {
      if (split < 0 || i < split) {
        combos.add(args[i]);
      } else if (i > split) {
        scenarios.add(args[i]);
      }
    }
    Object failed =
        EmbeddedPython.callFunction(
            "jhooks.conformance.embedded", "main", combos.toArray(), scenarios.toArray());
    System.exit(((Number) failed).intValue() == 0 ? 0 : 1);
  }
}
