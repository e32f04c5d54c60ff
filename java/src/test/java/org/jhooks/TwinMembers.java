package org.jhooks;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The public members of the Java twins in {@code docs/twins.json}, camelCase-normalised, and their
 * comparison with the Python twins' members. The rules are CONTRIBUTING.md, "Twins"; their Python
 * copy is {@code tests/twin_members.py}, and the two must agree.
 *
 * <p>Each language inspects its own side live and checks it against its export in {@code
 * docs/twins-members/} (java.json here, python.json by {@code tests/test_twins.py}); both compare
 * the two exports with the manifest's per-member allowlist ({@code onlyIn}). {@link #main} rewrites
 * java.json: {@code gradle -q twinMembers}.
 */
public final class TwinMembers {
  static final List<String> SIDES = List.of("python", "java");

  /** A constructor taking any arguments (Python's *args or Exception's): any parameter matches. */
  static final String ANY_ARGUMENTS = "constructor(*)";

  static final String WRITE = "gradle -q twinMembers";
  private static final Set<String> OBJECT_METHODS =
      Set.of("equals", "hashCode", "toString", "clone", "finalize");

  private TwinMembers() {}

  static Path repo() {
    return Paths.get(System.getProperty("jhooks.repo", ".")).toAbsolutePath().normalize();
  }

  static JsonObject read(Path file) throws IOException {
    return JsonParser.parseString(Files.readString(file, StandardCharsets.UTF_8)).getAsJsonObject();
  }

  static JsonObject manifest() throws IOException {
    return read(repo().resolve("docs").resolve("twins.json"));
  }

  static Path exportPath(String side) {
    return repo().resolve("docs").resolve("twins-members").resolve(side + ".json");
  }

  /**
   * The entries with names on both sides, but for the two halves of one crossing ({@code "compare":
   * false}).
   */
  static List<JsonObject> comparedEntries(JsonObject manifest) {
    List<JsonObject> out = new ArrayList<>();
    for (JsonElement e : manifest.getAsJsonArray("twins")) {
      JsonObject entry = e.getAsJsonObject();
      boolean compare = !entry.has("compare") || entry.get("compare").getAsBoolean();
      if (entry.getAsJsonArray("python").size() > 0
          && entry.getAsJsonArray("java").size() > 0
          && compare) {
        out.add(entry);
      }
    }
    return out;
  }

  static List<String> strings(JsonArray array) {
    List<String> out = new ArrayList<>();
    for (JsonElement e : array) {
      out.add(e.getAsString());
    }
    return out;
  }

  // --- normalisation ----------------------------------------------------------------------------

  /** {@code FooException} -> {@code Foo} (Python's {@code FooError} likewise). */
  static String normalise(String name) {
    if (!name.isEmpty()
        && Character.isUpperCase(name.charAt(0))
        && name.endsWith("Exception")
        && name.length() > "Exception".length()) {
      return name.substring(0, name.length() - "Exception".length());
    }
    return name;
  }

  /**
   * A getter {@code getFoo()} and a setter {@code setFoo(value)} are the member {@code foo}, as
   * Python's property or attribute.
   */
  static String methodName(Method m) {
    String n = m.getName();
    boolean accessor =
        (n.startsWith("get") && m.getParameterCount() == 0)
            || (n.startsWith("set") && m.getParameterCount() == 1);
    if (accessor && n.length() > 3 && Character.isUpperCase(n.charAt(3))) {
      return Character.toLowerCase(n.charAt(3)) + n.substring(4);
    }
    return n;
  }

  static String constructor(String parameter) {
    return "constructor(" + parameter + ")";
  }

  // --- the Java side, live
  // ------------------------------------------------------------------------

  static boolean inLibrary(Class<?> c) {
    return c.getName().startsWith("org.jhooks.");
  }

  /** The library types {@code c} is: itself, its superclasses and interfaces. */
  static List<Class<?>> libraryTypes(Class<?> c) {
    List<Class<?>> out = new ArrayList<>();
    Deque<Class<?>> todo = new ArrayDeque<>(List.of(c));
    while (!todo.isEmpty()) {
      Class<?> k = todo.pop();
      if (k == null || !inLibrary(k) || out.contains(k)) {
        continue;
      }
      out.add(k);
      todo.add(k.getSuperclass() == null ? Object.class : k.getSuperclass());
      todo.addAll(List.of(k.getInterfaces()));
    }
    return out;
  }

  /** Public members; all but private ones of a class that is itself package-private. */
  static boolean visible(Class<?> listed, int modifiers) {
    return Modifier.isPublic(modifiers)
        || (!Modifier.isPublic(listed.getModifiers()) && !Modifier.isPrivate(modifiers));
  }

  /** The builder type {@code builder()} returns, when it has a {@code build()}; else null. */
  static Class<?> builderOf(Class<?> c) {
    for (Method m : c.getDeclaredMethods()) {
      if (m.getName().equals("builder")
          && Modifier.isStatic(m.getModifiers())
          && visible(c, m.getModifiers())) {
        for (Method b : m.getReturnType().getMethods()) {
          if (b.getName().equals("build") && b.getParameterCount() == 0) {
            return m.getReturnType();
          }
        }
      }
    }
    return null;
  }

  static Set<String> declared(Class<?> listed, Class<?> k, Class<?> builder) {
    Set<String> out = new TreeSet<>();
    for (Method m : k.getDeclaredMethods()) {
      boolean inheritedStatic =
          k != listed && k.isInterface() && Modifier.isStatic(m.getModifiers());
      boolean enumMethod =
          k.isEnum() && (m.getName().equals("values") || m.getName().equals("valueOf"));
      if (!m.isSynthetic()
          && !m.isBridge()
          && visible(listed, m.getModifiers())
          && !OBJECT_METHODS.contains(m.getName())
          && !inheritedStatic
          && !enumMethod
          && !(builder != null && m.getName().equals("builder"))) {
        out.add(methodName(m));
      }
    }
    for (Field f : k.getDeclaredFields()) {
      if (!f.isSynthetic() && visible(listed, f.getModifiers())) {
        out.add(f.getName());
      }
    }
    for (Class<?> n : k.getDeclaredClasses()) {
      if (!n.isSynthetic() && visible(listed, n.getModifiers()) && n != builder) {
        out.add(normalise(n.getSimpleName()));
      }
    }
    return out;
  }

  static Set<String> parameters(Class<?> listed, Member member, Parameter[] parameters) {
    Set<String> out = new TreeSet<>();
    for (Parameter p : parameters) {
      if (!p.isNamePresent()) {
        throw new IllegalStateException(
            member + " has no parameter names: compile with javac -parameters (build.gradle)");
      }
      if (!(Throwable.class.isAssignableFrom(listed) && p.getName().equals("cause"))) {
        out.add(constructor(p.getName()));
      }
    }
    return out;
  }

  /**
   * The constructor parameters: of its constructors (Java's overloads are Python's defaults), and
   * of a builder (its {@code builder(...)} parameters and setters are Python's keyword arguments).
   * A throwable's {@code cause} is Python's {@code raise ... from}, not a parameter.
   */
  static Set<String> constructorParameters(Class<?> c, Class<?> builder) {
    Set<String> out = new TreeSet<>();
    if (c.isEnum() || c.isInterface()) {
      return out;
    }
    for (Constructor<?> k : c.getDeclaredConstructors()) {
      if (!k.isSynthetic() && visible(c, k.getModifiers())) {
        out.addAll(parameters(c, k, k.getParameters()));
      }
    }
    if (builder != null) {
      for (Method m : c.getDeclaredMethods()) {
        if (m.getName().equals("builder") && Modifier.isStatic(m.getModifiers())) {
          out.addAll(parameters(c, m, m.getParameters()));
        }
      }
      for (Method m : builder.getMethods()) {
        if (m.getReturnType() == builder && !Modifier.isStatic(m.getModifiers())) {
          out.add(constructor(m.getName()));
        }
      }
    }
    return out;
  }

  /**
   * {@code own}: what {@code c} declares, or gets from a library supertype that is not itself
   * listed; {@code inherited}: what it gets from listed library supertypes (compared at their own
   * pair).
   */
  static Map<String, Set<String>> membersOf(Class<?> c, Set<String> listed) {
    Class<?> builder = builderOf(c);
    Set<String> own = new TreeSet<>(constructorParameters(c, builder));
    Set<String> inherited = new TreeSet<>();
    for (Class<?> k : libraryTypes(c)) {
      if (k == c || !listed.contains(k.getName())) {
        own.addAll(declared(c, k, builder));
      } else {
        inherited.addAll(declared(c, k, builder));
      }
    }
    inherited.removeAll(own);
    Map<String, Set<String>> out = new LinkedHashMap<>();
    out.put("own", own);
    out.put("inherited", inherited);
    return out;
  }

  static Map<String, Map<String, Set<String>>> javaMembers(JsonObject manifest)
      throws ClassNotFoundException {
    Set<String> listed = new HashSet<>();
    for (JsonElement e : manifest.getAsJsonArray("twins")) {
      listed.addAll(strings(e.getAsJsonObject().getAsJsonArray("java")));
    }
    Map<String, Map<String, Set<String>>> out = new TreeMap<>();
    for (JsonObject entry : comparedEntries(manifest)) {
      for (String name : strings(entry.getAsJsonArray("java"))) {
        out.put(
            name,
            membersOf(Class.forName(name, false, TwinMembers.class.getClassLoader()), listed));
      }
    }
    return out;
  }

  // --- exports ----------------------------------------------------------------------------------

  static Map<String, Map<String, Set<String>>> readExport(String side) throws IOException {
    Map<String, Map<String, Set<String>>> out = new TreeMap<>();
    JsonObject members = read(exportPath(side)).getAsJsonObject("members");
    for (String name : members.keySet()) {
      Map<String, Set<String>> kinds = new LinkedHashMap<>();
      for (String kind : List.of("own", "inherited")) {
        JsonArray array = members.getAsJsonObject(name).getAsJsonArray(kind);
        kinds.put(kind, new TreeSet<>(array == null ? List.of() : strings(array)));
      }
      out.put(name, kinds);
    }
    return out;
  }

  /** Rewrites docs/twins-members/java.json from the classes on the classpath. */
  public static void main(String[] args) throws Exception {
    JsonObject out = new JsonObject();
    out.addProperty(
        "$comment",
        "Generated: the public members of the Java twins, camelCase-normalised (CONTRIBUTING.md,"
            + " 'Twins'). Kept current by org.jhooks.TwinsManifestTest; rewrite with `"
            + WRITE
            + "`.");
    out.add("members", new GsonBuilder().create().toJsonTree(javaMembers(manifest())));
    Files.createDirectories(exportPath("java").getParent());
    Files.writeString(
        exportPath("java"),
        new GsonBuilder().setPrettyPrinting().create().toJson(out) + "\n",
        StandardCharsets.UTF_8);
    System.out.println("wrote " + repo().relativize(exportPath("java")));
  }

  // --- the comparison (the same in tests/twin_members.py)
  // -----------------------------------------

  /** member -> the first listed name that has it. */
  static Map<String, String> union(
      Map<String, Map<String, Set<String>>> members, List<String> names, String kind) {
    Map<String, String> out = new TreeMap<>();
    for (String n : names) {
      for (String m : members.getOrDefault(n, Map.of()).getOrDefault(kind, Set.of())) {
        out.putIfAbsent(m, n);
      }
    }
    return out;
  }

  static String capitalised(String side) {
    return Character.toUpperCase(side.charAt(0)) + side.substring(1);
  }

  /**
   * Every member on one side of a pair without its twin or an allowlist entry, and every allowlist
   * entry that no longer differs; each as one message saying the pair, member, side and fix.
   */
  static List<String> differences(
      JsonObject manifest, Map<String, Map<String, Map<String, Set<String>>>> members) {
    List<String> problems = new ArrayList<>();
    for (JsonObject entry : comparedEntries(manifest)) {
      String pair =
          String.join(" + ", strings(entry.getAsJsonArray("python")))
              + " <-> "
              + String.join(" + ", strings(entry.getAsJsonArray("java")));
      Map<String, Map<String, String>> own = new TreeMap<>();
      Map<String, Map<String, String>> every = new TreeMap<>();
      for (String side : SIDES) {
        List<String> names = strings(entry.getAsJsonArray(side));
        own.put(side, union(members.get(side), names, "own"));
        Map<String, String> all = new TreeMap<>(union(members.get(side), names, "inherited"));
        all.putAll(own.get(side));
        every.put(side, all);
      }
      JsonObject allowed = entry.has("onlyIn") ? entry.getAsJsonObject("onlyIn") : new JsonObject();
      for (String side : SIDES) {
        String other = side.equals("python") ? "java" : "python";
        Map<String, String> only = new TreeMap<>();
        for (Map.Entry<String, String> m : own.get(side).entrySet()) {
          boolean matchedByAnyArguments =
              every.get(other).containsKey(ANY_ARGUMENTS) && m.getKey().startsWith("constructor(");
          if (!every.get(other).containsKey(m.getKey())
              && !m.getKey().equals(ANY_ARGUMENTS)
              && !matchedByAnyArguments) {
            only.put(m.getKey(), m.getValue());
          }
        }
        Set<String> listed = allowed.has(side) ? allowed.getAsJsonObject(side).keySet() : Set.of();
        for (Map.Entry<String, String> m : only.entrySet()) {
          if (!listed.contains(m.getKey())) {
            problems.add(
                pair
                    + ": '"
                    + m.getKey()
                    + "' is a member of the "
                    + capitalised(side)
                    + " side only ("
                    + m.getValue()
                    + "). Fix: give the "
                    + capitalised(other)
                    + " twin the same member (CONTRIBUTING.md, 'Twins', says how names compare),"
                    + " or rename/remove it in "
                    + capitalised(side)
                    + "; if the difference is deliberate, add \""
                    + m.getKey()
                    + "\": \"<one-line reason>\" to this entry's \"onlyIn\": {\""
                    + side
                    + "\": {...}} in docs/twins.json.");
          }
        }
        for (String m : new TreeSet<>(listed)) {
          if (!only.containsKey(m)) {
            String why =
                every.get(side).containsKey(m)
                    ? "both sides have it now"
                    : "the " + capitalised(side) + " side has no such member";
            problems.add(
                pair
                    + ": docs/twins.json allows \""
                    + m
                    + "\" in onlyIn."
                    + side
                    + ", but it no longer differs ("
                    + why
                    + "). Fix: remove that allowlist entry.");
          }
        }
      }
    }
    return problems;
  }
}
