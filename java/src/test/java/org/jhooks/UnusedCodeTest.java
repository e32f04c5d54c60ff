package org.jhooks;

import static org.junit.Assert.assertTrue;

import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaConstructor;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The Java dead-code gate (part of {@code gradle check}; the Python one is vulture, in {@code
 * scripts/test}): every class, constructor, method and field of the main sources is used, unless it
 * is API or named from outside the Gradle build. The main sources are every source set but the
 * tests: the library, the conformance suite, the demo and the benchmarks (one jar each,
 * docs/build.md "Artifacts"), each checked and each counted as a caller of the others.
 *
 * <p>A member is used when code of the main or test sources calls, references or reads it (calls
 * from the member itself do not count; a field that is only written is unused). Not flagged:
 *
 * <ul>
 *   <li>API: public and protected members of public classes in {@link #API_PACKAGES} (users call
 *       them; the public members of the other packages must still have a caller);
 *   <li>methods that implement or override a supertype's (called through the supertype), {@code
 *       main} methods, enum and compiler-made members, private no-argument constructors (the "no
 *       instances" idiom);
 *   <li>public members of public classes named from outside: JPype and jep call Java by name, so a
 *       name used as an attribute, or as a one-line string literal that is a name ({@code
 *       "org.jhooks.bridge.NumpyArrays"}, {@code "pythonType"}), in the Python sources ({@code
 *       jhooks/}, {@code tests/}, {@code benchmarks/}, {@code examples/}; comments and docstring
 *       prose do not count) counts as a caller, as does a word of the Java compiled outside the
 *       Gradle build ({@code tests/&#42;&#42;/java}, {@code examples/}) or of a code block of
 *       README.md and {@code docs/}; for a class and its constructors, its simple name;
 *   <li>compile-time constants are inlined by javac, so a static final primitive or String field
 *       counts as read when its name appears in the Java sources more than once;
 *   <li>{@link #ALLOWED}, each with its reason.
 * </ul>
 */
public class UnusedCodeTest {
  /**
   * Packages whose public classes are API: their public and protected members need no caller. Not
   * API: the dtype table and direct memory ({@code org.jhooks.ndarray}), the bridge (called from
   * Python), tensorflow-java's int8/int16 types ({@code org.jhooks.tf.types}), test support ({@code
   * org.jhooks.testing}, "not API" in CONTRIBUTING.md) and the applications.
   */
  static final Set<String> API_PACKAGES =
      Set.of(
          "org.jhooks",
          "org.jhooks.merger",
          "org.jhooks.checkpoint",
          "org.jhooks.tf",
          "org.jhooks.python",
          "org.jhooks.hooks",
          "org.jhooks.conformance");

  /** Unused on purpose, or used where this test cannot see: the name as reported, the reason. */
  static final Map<String, String> ALLOWED =
      Map.of(
          "org.jhooks.tf.types.TInt8Mapper.<init>()",
          "tensorflow-java instantiates it by reflection (@TensorType(mapperClass = ...) of TInt8)",
          "org.jhooks.tf.types.TInt16Mapper.<init>()",
          "tensorflow-java instantiates it by reflection (@TensorType(mapperClass = ...) of"
              + " TInt16)",
          "org.jhooks.bridge.PythonHook.pythonName()",
          "PythonHook is rewritten with the per-run plan (issue 27), which drops or uses it",
          "org.jhooks.bridge.PythonException.pythonMessage()",
          "PythonException implements the foreign-error interface (issue 27), which decides its"
              + " accessors");

  static final String HOW =
      "remove it, or, when something calls it that this test cannot see, add it to"
          + " UnusedCodeTest.ALLOWED with the reason (CONTRIBUTING.md, \"What the checks"
          + " enforce\")";

  private static JavaClasses all;
  private static Set<String> mainClasses;
  private static Set<String> foreignNames;
  private static String javaSources;

  @BeforeClass
  public static void load() throws IOException {
    all =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("org.jhooks");
    mainClasses =
        new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages("org.jhooks")
                .stream()
                .map(JavaClass::getName)
                .collect(Collectors.toSet());
    Path repo = Paths.get(System.getProperty("jhooks.repo", "."));
    foreignNames = new HashSet<>();
    for (Path py : files(repo, ".py", "jhooks", "tests", "benchmarks", "examples")) {
      pythonNames(read(py), foreignNames);
    }
    for (Path java : files(repo, ".java", "tests", "examples")) {
      words(read(java), foreignNames);
    }
    for (Path md : files(repo, ".md", "docs")) {
      codeBlockWords(read(md), foreignNames);
    }
    codeBlockWords(read(repo.resolve("README.md")), foreignNames);
    StringBuilder sources = new StringBuilder();
    for (Path java : files(repo, ".java", "java", "tests", "examples")) {
      sources.append(read(java)).append('\n');
    }
    javaSources = sources.toString();
  }

  /** The gate checks, and takes callers from, the classes of every source set but the tests. */
  @Test
  public void everySourceSetIsChecked() {
    for (String[] expected :
        new String[][] {
          {"main", "org.jhooks.tf.MonitoredSession"},
          {"conformance", "org.jhooks.conformance.ConformanceRunner"},
          {"demo", "org.jhooks.examples.TrainLinearModel"},
          {"bench", "org.jhooks.bench.SaverOverhead"}
        }) {
      String where =
          all.get(expected[1]).getSource().map(s -> s.getUri().toString()).orElse("(unknown)");
      assertTrue(
          expected[1] + " (from " + where + ") is not checked as a class of the main sources",
          mainClasses.contains(expected[1]));
      assertTrue(
          expected[1] + " comes from " + where + ", not the " + expected[0] + " source set",
          where.contains("/" + expected[0] + "/"));
    }
  }

  @Test
  public void everyClassAndMemberOfTheMainSourcesIsUsed() {
    Map<String, String> unused = new TreeMap<>();
    for (JavaClass c : all) {
      if (!mainClasses.contains(c.getName()) || isGenerated(c)) {
        continue;
      }
      if (!classUsed(c)) {
        unused.put(c.getName(), "class: nothing uses it");
        continue; // its members go with it
      }
      for (JavaMethod m : c.getMethods()) {
        if (!exempt(m) && !methodUsed(m)) {
          unused.put(describe(m), "method: no caller");
        }
      }
      for (JavaConstructor k : c.getConstructors()) {
        if (!exempt(k) && !constructorUsed(k)) {
          unused.put(describe(k), "constructor: no caller");
        }
      }
      for (JavaField f : c.getFields()) {
        if (!exempt(f) && !fieldRead(f)) {
          unused.put(describe(f), "field: never read");
        }
      }
    }
    Set<String> stale = new TreeSet<>(ALLOWED.keySet());
    stale.removeAll(unused.keySet());
    unused.keySet().removeAll(ALLOWED.keySet());
    assertTrue(
        "unused code in the main sources ("
            + HOW
            + "):\n"
            + unused.entrySet().stream()
                .map(e -> "  " + e.getKey() + "  (" + e.getValue() + ")")
                .collect(Collectors.joining("\n")),
        unused.isEmpty());
    assertTrue(
        "UnusedCodeTest.ALLOWED lists what is used now, or no longer exists: " + stale,
        stale.isEmpty());
  }

  private static boolean isGenerated(JavaClass c) {
    return c.getModifiers().contains(JavaModifier.SYNTHETIC)
        || c.getSimpleName().equals("package-info");
  }

  private static boolean isApi(JavaMember member) {
    Set<JavaModifier> mods = member.getModifiers();
    if (!mods.contains(JavaModifier.PUBLIC) && !mods.contains(JavaModifier.PROTECTED)) {
      return false;
    }
    return isApi(member.getOwner());
  }

  // A public class of an API package, nested only in public classes.
  private static boolean isApi(JavaClass c) {
    return isPublic(c) && API_PACKAGES.contains(c.getPackageName());
  }

  private static boolean classUsed(JavaClass c) {
    if (isApi(c) || (isPublic(c) && foreignNames.contains(c.getSimpleName())) || hasMain(c)) {
      return true;
    }
    return c.getDirectDependenciesToSelf().stream().anyMatch(d -> !within(d.getOriginClass(), c));
  }

  // c itself or a class nested in it (at any depth)
  private static boolean within(JavaClass inner, JavaClass c) {
    for (JavaClass k = inner; k != null; k = k.getEnclosingClass().orElse(null)) {
      if (k.equals(c)) {
        return true;
      }
    }
    return false;
  }

  private static boolean hasMain(JavaClass c) {
    return c.getMethods().stream().anyMatch(UnusedCodeTest::isMain);
  }

  private static boolean isMain(JavaMethod m) {
    return m.getName().equals("main")
        && m.getModifiers().contains(JavaModifier.STATIC)
        && m.getRawParameterTypes().size() == 1
        && m.getRawParameterTypes().get(0).getName().equals(String[].class.getName());
  }

  private static boolean exempt(JavaMember member) {
    Set<JavaModifier> mods = member.getModifiers();
    if (mods.contains(JavaModifier.SYNTHETIC)
        || mods.contains(JavaModifier.BRIDGE)
        || member.getName().contains("$")
        || isApi(member)) {
      return true;
    }
    JavaClass owner = member.getOwner();
    if (member instanceof JavaMethod) {
      JavaMethod m = (JavaMethod) member;
      return isMain(m) || overrides(m) || (owner.isEnum() && isEnumMethod(m));
    }
    if (member instanceof JavaConstructor) {
      JavaConstructor k = (JavaConstructor) member;
      return (mods.contains(JavaModifier.PRIVATE) && k.getRawParameterTypes().isEmpty())
          || owner.isEnum()
          || owner.isAnonymousClass();
    }
    JavaField f = (JavaField) member;
    return f.getName().equals("serialVersionUID") || (owner.isEnum() && f.getRawType() == owner);
  }

  private static boolean isEnumMethod(JavaMethod m) {
    return (m.getName().equals("values") && m.getRawParameterTypes().isEmpty())
        || (m.getName().equals("valueOf") && m.getRawParameterTypes().size() == 1);
  }

  // Implements or overrides a method of a superclass or interface (JDK ones included): called
  // through the supertype. Matched by name and arity, since generics erase parameter types.
  private static boolean overrides(JavaMethod m) {
    if (m.getModifiers().contains(JavaModifier.STATIC)
        || m.getModifiers().contains(JavaModifier.PRIVATE)) {
      return false;
    }
    JavaClass owner = m.getOwner();
    Stream<JavaClass> supertypes =
        Stream.concat(owner.getAllRawSuperclasses().stream(), owner.getAllRawInterfaces().stream());
    int arity = m.getRawParameterTypes().size();
    return supertypes.anyMatch(
        s ->
            s.getMethods().stream()
                .anyMatch(
                    o ->
                        o.getName().equals(m.getName())
                            && o.getRawParameterTypes().size() == arity));
  }

  private static boolean methodUsed(JavaMethod m) {
    return calledByOthers(m, m.getAccessesToSelf()) || namedOutside(m, m.getName());
  }

  private static boolean constructorUsed(JavaConstructor k) {
    return calledByOthers(k, k.getAccessesToSelf())
        || namedOutside(k, k.getOwner().getSimpleName());
  }

  // Python (JPype, jep) and Java outside these packages reach public members of public classes
  // only.
  private static boolean namedOutside(JavaMember member, String name) {
    return member.getModifiers().contains(JavaModifier.PUBLIC)
        && isPublic(member.getOwner())
        && foreignNames.contains(name);
  }

  private static boolean isPublic(JavaClass c) {
    for (JavaClass k = c; k != null; k = k.getEnclosingClass().orElse(null)) {
      if (!k.getModifiers().contains(JavaModifier.PUBLIC) || k.isAnonymousClass()) {
        return false;
      }
    }
    return true;
  }

  private static boolean calledByOthers(
      JavaCodeUnit unit, Set<? extends JavaAccess<? extends AccessTarget>> accesses) {
    return accesses.stream().anyMatch(a -> !a.getOrigin().equals(unit));
  }

  private static boolean fieldRead(JavaField f) {
    for (JavaFieldAccess a : f.getAccessesToSelf()) {
      if (a.getAccessType() == JavaFieldAccess.AccessType.GET) {
        return true;
      }
    }
    if (namedOutside(f, f.getName())) {
      return true;
    }
    return isConstant(f) && occurrences(javaSources, f.getName()) > 1;
  }

  // javac inlines a static final primitive or String initialised by a constant expression: its
  // reads leave no trace in the class files.
  private static boolean isConstant(JavaField f) {
    return f.getModifiers().contains(JavaModifier.STATIC)
        && f.getModifiers().contains(JavaModifier.FINAL)
        && (f.getRawType().isPrimitive() || f.getRawType().getName().equals("java.lang.String"));
  }

  private static int occurrences(String text, String word) {
    Matcher m = Pattern.compile("\\b" + Pattern.quote(word) + "\\b").matcher(text);
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  private static String describe(JavaCodeUnit unit) {
    return unit.getOwner().getName()
        + "."
        + (unit instanceof JavaConstructor ? "<init>" : unit.getName())
        + unit.getRawParameterTypes().stream()
            .map(JavaClass::getSimpleName)
            .collect(Collectors.joining(", ", "(", ")"));
  }

  private static String describe(JavaField f) {
    return f.getOwner().getName() + "." + f.getName();
  }

  private static final Pattern WORD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  // One Python token of interest, scanned left to right so that nothing inside a string or a
  // comment is taken for code: a triple-quoted string (group 2: docstrings, and scripts run in a
  // subprocess: its attributes), a comment (skipped), a one-line string (group 3 or 4: its words),
  // an attribute (group 5).
  private static final String ATTRIBUTE = "\\.([A-Za-z_][A-Za-z0-9_]*)";
  private static final Pattern PYTHON =
      Pattern.compile(
          String.join(
              "|",
              "(?s)(\"\"\"|''')(.*?)\\1",
              "#[^\n]*",
              "\"((?:[^\"\\\\\n]|\\\\.)*)\"",
              "'((?:[^'\\\\\n]|\\\\.)*)'",
              ATTRIBUTE));
  private static final Pattern CODE_BLOCK = Pattern.compile("(?s)```[a-z]*\\n(.*?)```");

  // A string that names something: "member", "org.jhooks.bridge.NumpyArrays", "module:Class".
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.$:]*");

  // The attribute names, and the parts of one-line strings that are names, of a Python source
  // (JPype's and jep's ways of naming a Java member: JClass("org.jhooks.X").member,
  // getattr(obj, "member")).
  static void pythonNames(String source, Set<String> out) {
    Matcher t = PYTHON.matcher(source);
    while (t.find()) {
      if (t.group(2) != null) {
        Matcher a = Pattern.compile(ATTRIBUTE).matcher(t.group(2));
        while (a.find()) {
          out.add(a.group(1));
        }
      }
      for (int g = 3; g <= 4; g++) {
        if (t.group(g) != null && NAME.matcher(t.group(g)).matches()) {
          words(t.group(g), out);
        }
      }
      if (t.group(5) != null) {
        out.add(t.group(5));
      }
    }
  }

  private static void codeBlockWords(String markdown, Set<String> out) {
    Matcher m = CODE_BLOCK.matcher(markdown);
    while (m.find()) {
      words(m.group(1), out);
    }
  }

  private static void words(String text, Set<String> out) {
    Matcher w = WORD.matcher(text);
    while (w.find()) {
      out.add(w.group());
    }
  }

  private static List<Path> files(Path repo, String suffix, String... dirs) throws IOException {
    List<Path> found = new java.util.ArrayList<>();
    for (String dir : dirs) {
      Path root = repo.resolve(dir);
      if (!Files.isDirectory(root)) {
        continue;
      }
      try (Stream<Path> walk = Files.walk(root)) {
        walk.filter(p -> p.toString().endsWith(suffix))
            .filter(p -> !p.toString().contains("/build/") && !p.toString().contains("/.venv/"))
            .forEach(found::add);
      }
    }
    return found;
  }

  private static String read(Path p) {
    try {
      return Files.readString(p, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
