package org.jhooks.bridge;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class EmbeddedPythonTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  @After
  public void clearProperty() {
    System.clearProperty(EmbeddedPython.PYTHON_PROPERTY);
  }

  /** site-packages/jep inside a virtual environment: the interpreter runs as its bin/python. */
  @Test
  public void thePythonOfTheVirtualEnvironmentHoldingJepsJarIsEmbedded() throws Exception {
    Path venv = tmp.newFolder("venv").toPath();
    Files.writeString(venv.resolve("pyvenv.cfg"), "home = /usr/bin\n");
    Files.createDirectories(venv.resolve("bin"));
    Files.writeString(venv.resolve("bin").resolve("python"), "");
    Path jep = Files.createDirectories(venv.resolve("lib/python3.11/site-packages/jep"));
    assertEquals(
        venv.resolve("bin").resolve("python").toString(), EmbeddedPython.pythonExecutable(jep));
  }

  @Test
  public void outsideAVirtualEnvironmentJepsDefaultPythonIsUsed() throws Exception {
    Path jep = Files.createDirectories(tmp.newFolder("usr").toPath().resolve("site-packages/jep"));
    assertNull(EmbeddedPython.pythonExecutable(jep));
    assertNull(EmbeddedPython.pythonExecutable(null));
  }

  @Test
  public void thePropertyNamesAnotherPython() throws Exception {
    System.setProperty(EmbeddedPython.PYTHON_PROPERTY, "/opt/env/bin/python3");
    assertEquals("/opt/env/bin/python3", EmbeddedPython.pythonExecutable(tmp.getRoot().toPath()));
  }

  /** The JUnit classpath has no jep: start() says how to get it, and nothing is started. */
  @Test
  public void withoutJepStartSaysHowToGetItsJar() {
    assertFalse(EmbeddedPython.jepAvailable());
    try {
      EmbeddedPython.start();
      fail("jep is not on the classpath");
    } catch (IllegalStateException e) {
      assertTrue(e.getMessage(), e.getMessage().contains("jvm-options --jep-jar"));
      assertTrue(e.getMessage(), e.getMessage().contains("never a jar from Maven Central"));
    }
    assertFalse(EmbeddedPython.started());
  }

  @Test
  public void classNamesListTheClassAndItsSuperclasses() {
    assertEquals(
        java.util.List.of(
            "java.lang.IllegalStateException",
            "java.lang.RuntimeException",
            "java.lang.Exception",
            "java.lang.Throwable",
            "java.lang.Object"),
        java.util.List.of(EmbeddedPython.classNames(new IllegalStateException())));
  }
}
