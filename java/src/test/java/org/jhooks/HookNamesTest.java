package org.jhooks;

import static org.junit.Assert.assertEquals;

import java.util.List;
import org.junit.Test;

/** The same names as Python's {@code hook_name} (tests/api/test_hook.py). */
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
        List.of("hook #1 (org.jhooks.HookNamesTest$Plain)", "hook #2 (mymodule.MyHook, Python)"),
        List.of(HookNames.name(new Plain(), 1), HookNames.name(new Wrapper(), 2)));
  }

  @Test
  public void withoutAPositionAPlainHookIsItsClassADescribedOneHookInParentheses() {
    assertEquals(
        List.of("org.jhooks.HookNamesTest$Plain", "hook (mymodule.MyHook, Python)"),
        List.of(HookNames.name(new Plain()), HookNames.name(new Wrapper())));
  }
}
