package org.jhooks.bridgetest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jhooks.Hook;
import org.tensorflow.ndarray.NdArray;

/**
 * A user's Java hook with overloads and a builder, for building Java hooks from plain Python values
 * (jhooks.bridge.hooks.construct). {@link #got} records which constructor or builder ran and the
 * Java class and value of each argument.
 */
public final class ArgsHook implements Hook {
  public final List<String> got = new ArrayList<>();

  private static String show(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof long[]) {
      return "long[]" + Arrays.toString((long[]) value);
    }
    if (value instanceof String[]) {
      return "String[]" + Arrays.toString((String[]) value);
    }
    return value.getClass().getSimpleName() + ":" + value;
  }

  private ArgsHook(String which, Object... values) {
    got.add(which);
    for (Object v : values) {
      got.add(show(v));
    }
  }

  public ArgsHook(long steps, Double rate, boolean flag) {
    this("long,Double,boolean", steps, rate, flag);
  }

  public ArgsHook(int small, String name) {
    this("int,String", small, name);
  }

  public ArgsHook(List<Long> steps, Map<String, Double> weights) {
    this("List<Long>,Map<String,Double>", steps, weights);
  }

  public ArgsHook(Path dir, long[] shape, String... tags) {
    this("Path,long[],String...", dir, shape, tags);
  }

  public ArgsHook(NdArray<?> array) {
    this("NdArray", array.shape(), array.getClass().getSimpleName());
  }

  /** Ambiguous on purpose: two one-Object constructors of equal cost for a None. */
  public ArgsHook(Hook other) {
    this("Hook", other == null ? null : other.getClass().getSimpleName());
  }

  public ArgsHook(Number number) {
    this("Number", number);
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** {@code ArgsHook.builder(name).everyN(5).label("x").build()}. */
  public static final class Builder {
    private final String name;
    private int everyN = 1;
    private String label = "";

    Builder(String name) {
      this.name = name;
    }

    public Builder everyN(int everyN) {
      this.everyN = everyN;
      return this;
    }

    public Builder label(String label) {
      this.label = label;
      return this;
    }

    public ArgsHook build() {
      return new ArgsHook("builder", name, everyN, label);
    }
  }
}
