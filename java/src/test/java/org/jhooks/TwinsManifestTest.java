package org.jhooks;

import static org.junit.Assert.assertTrue;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.File;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The twins manifest ({@code docs/twins.json}), Java side: every public top-level class of the
 * library packages is listed with its Python twin (or a reason it has none), every listed Java
 * class exists, and the members of every pair match but for the manifest's per-member allowlist
 * ({@link TwinMembers}). The Python side is {@code tests/test_twins.py}. How to add an entry:
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

  private static JsonObject manifest;

  /** Class name -> the source root holding its file, over the roots of scope.sourceRoots.java. */
  private static Map<String, String> sources;

  private static List<String> listed;

  @BeforeClass
  public static void load() throws Exception {
    manifest = TwinMembers.manifest();
    sources = new TreeMap<>();
    for (String root :
        TwinMembers.strings(
            manifest
                .getAsJsonObject("scope")
                .getAsJsonObject("sourceRoots")
                .getAsJsonArray("java"))) {
      Path dir = TwinMembers.repo().resolve(root);
      assertTrue(
          "docs/twins.json scope.sourceRoots.java lists " + root + ", which is no directory",
          Files.isDirectory(dir));
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path f :
            (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
          String name = dir.relativize(f).toString().replace(File.separatorChar, '.');
          sources.put(name.substring(0, name.length() - ".java".length()), root);
        }
      }
    }
    listed = new ArrayList<>();
    for (JsonElement entry : manifest.getAsJsonArray("twins")) {
      listed.addAll(TwinMembers.strings(entry.getAsJsonObject().getAsJsonArray("java")));
    }
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name, false, TwinsManifestTest.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      return null;
    }
  }

  @Test
  public void everyPublicClassHasAnEntry() {
    Set<String> missing = new TreeSet<>();
    Set<String> notLoadable = new TreeSet<>();
    for (Map.Entry<String, String> source : sources.entrySet()) {
      String name = source.getKey();
      String pkg = name.contains(".") ? name.substring(0, name.lastIndexOf('.')) : "";
      if (!PACKAGES.contains(pkg) || name.endsWith(".package-info")) {
        continue;
      }
      Class<?> c = load(name);
      if (c == null) {
        notLoadable.add(name + " (in " + source.getValue() + ")");
      } else if (Modifier.isPublic(c.getModifiers()) && !listed.contains(name)) {
        missing.add(name);
      }
    }
    assertTrue(
        "classes of the source roots that are not on the test classpath:\n  "
            + String.join("\n  ", notLoadable),
        notLoadable.isEmpty());
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
    Set<String> unscanned = new TreeSet<>();
    for (String name : listed) {
      if (load(name) == null) {
        gone.add(name);
      } else if (!sources.containsKey(name)) {
        unscanned.add(name);
      }
    }
    assertTrue(
        "docs/twins.json lists Java classes that do not exist (moved or renamed? update the"
            + " entry):\n  "
            + String.join("\n  ", gone),
        gone.isEmpty());
    assertTrue(
        "docs/twins.json lists Java classes whose source is under none of scope.sourceRoots.java"
            + " (moved to a new source root? add it there):\n  "
            + String.join("\n  ", unscanned),
        unscanned.isEmpty());
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

  @Test
  public void theJavaMembersExportIsCurrent() throws Exception {
    Map<String, Map<String, Set<String>>> live = TwinMembers.javaMembers(manifest);
    Map<String, Map<String, Set<String>>> exported = TwinMembers.readExport("java");
    Set<String> stale = new TreeSet<>();
    for (String name : union(live.keySet(), exported.keySet())) {
      if (!Objects.equals(live.get(name), exported.get(name))) {
        stale.add(
            name
                + ": live "
                + live.get(name)
                + ", docs/twins-members/java.json "
                + exported.get(name));
      }
    }
    assertTrue(
        "docs/twins-members/java.json is out of date (run `"
            + TwinMembers.WRITE
            + "` and commit it; then this test compares the members):\n  "
            + String.join("\n  ", stale),
        stale.isEmpty());
  }

  @Test
  public void theMembersOfEveryPairMatchButForTheAllowlist() throws Exception {
    Map<String, Map<String, Map<String, Set<String>>>> members = new TreeMap<>();
    members.put("java", TwinMembers.javaMembers(manifest));
    members.put("python", TwinMembers.readExport("python"));
    List<String> problems = TwinMembers.differences(manifest, members);
    assertTrue(
        problems.size()
            + " member difference(s) between twins (rules: CONTRIBUTING.md, \"Twins\"):\n  "
            + String.join("\n  ", problems),
        problems.isEmpty());
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> out = new TreeSet<>(a);
    out.addAll(b);
    return out;
  }
}
