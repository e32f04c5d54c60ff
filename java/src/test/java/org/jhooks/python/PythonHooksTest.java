package org.jhooks.python;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import org.junit.Test;

public class PythonHooksTest {

  /** The JUnit classpath has no jep: neither backend applies. */
  @Test
  public void outsideTheLauncherAndWithoutJepEveryCallSaysHowToStartTheApp() {
    assertFalse(PythonHooks.available());
    try {
      PythonHooks.fromCommandLine();
      fail("no loader is installed");
    } catch (IllegalStateException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("python -m jhooks java"));
    }
    try {
      PythonHooks.load("my.module:Hook", 1, "x");
      fail("no loader is installed");
    } catch (IllegalStateException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("python -m jhooks java"));
      assertTrue(e.getMessage(), e.getMessage().contains("jvm-options --jep-jar"));
    }
  }
}
