package org.jhooks.tf;

import static org.junit.Assert.assertEquals;

import java.util.List;
import org.jhooks.Described;
import org.jhooks.Hook;
import org.junit.Test;

public class HookNamesTest {
  static final class Plain implements Hook {}

  static final class Wrapper implements Hook, Described {
    @Override
    public String describe() {
      return "mymodule.MyHook, Python";
    }
  }

  @Test
  public void aDescribedHookIsNamedByItsDescriptionOthersByClass() {
    assertEquals(
        List.of("hook #1 (org.jhooks.tf.HookNamesTest$Plain)", "hook #2 (mymodule.MyHook, Python)"),
        List.of(HookNames.name(new Plain(), 1), HookNames.name(new Wrapper(), 2)));
  }
}
