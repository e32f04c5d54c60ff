package org.jhooks;

import static org.junit.Assert.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The twins manifest ({@code docs/twins.json}), Java side: every public top-level class of the
 * library packages is listed with its Python twin (or a reason it has none), and every listed Java
 * class exists. The Python side is {@code tests/test_twins.py}. How to add an entry:
 * CONTRIBUTING.md, "Twins".
 */
public class TwinsManifestTest {
  static final Set<String> PACKAGES =
      Set.of(
          "org.jhooks",
          "org.jhooks.ndarray",
          "org.jhooks.merger",
          "org.jhooks.checkpoint",
          "org.jhooks.tf",
          "org.jhooks.bridge",
          "org.jhooks.python",
          "org.jhooks.hooks",
          "org.jhooks.testing",
          "org.jhooks.conformance");
  static final String HOW =
      "add it to docs/twins.json: to the \"java\" list of the entry of its Python twin, or as a new"
          + " entry {\"python\": [...], \"java\": [...], \"differences\": \"...\"} (\"differences\""
          + " when it has no twin, or another name or place); see CONTRIBUTING.md, \"Twins\"";

  private static JavaClasses classes;
  private static List<String> listed;

  @BeforeClass
  public static void load() throws Exception {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("org.jhooks");
    Path manifest = Paths.get(System.getProperty("jhooks.repo", "."), "docs", "twins.json");
    JsonObject json =
        JsonParser.parseString(Files.readString(manifest, StandardCharsets.UTF_8))
            .getAsJsonObject();
    listed = new ArrayList<>();
    for (JsonElement entry : json.getAsJsonArray("twins")) {
      for (JsonElement name : entry.getAsJsonObject().getAsJsonArray("java")) {
        listed.add(name.getAsString());
      }
    }
  }

  @Test
  public void everyPublicClassHasAnEntry() {
    Set<String> missing = new TreeSet<>();
    for (JavaClass c : classes) {
      if (PACKAGES.contains(c.getPackageName())
          && c.getModifiers().contains(JavaModifier.PUBLIC)
          && c.isTopLevelClass()
          && !c.getSimpleName().equals("package-info")
          && !listed.contains(c.getName())) {
        missing.add(c.getName());
      }
    }
    assertTrue(
        "public Java classes missing from docs/twins.json:\n  "
            + String.join("\n  ", missing)
            + "\n"
            + HOW,
        missing.isEmpty());
  }

  @Test
  public void everyListedClassExists() {
    Set<String> gone = new TreeSet<>();
    for (String name : listed) {
      if (!classes.contain(name)) {
        gone.add(name);
      }
    }
    assertTrue(
        "docs/twins.json lists Java classes that do not exist (moved or renamed? update the"
            + " entry):\n  "
            + String.join("\n  ", gone),
        gone.isEmpty());
  }

  @Test
  public void noClassIsListedTwice() {
    Set<String> seen = new HashSet<>();
    Set<String> twice = new TreeSet<>();
    for (String name : listed) {
      if (!seen.add(name)) {
        twice.add(name);
      }
    }
    assertTrue("listed more than once in docs/twins.json: " + twice, twice.isEmpty());
  }
}
