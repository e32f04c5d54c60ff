package org.jhooks;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.Assert.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The layer rules of the Java side (ArchUnit), twin of the import-linter contracts in {@code
 * pyproject.toml}: lowest first API ({@code org.jhooks}), merger, checkpoint files, TF adapter
 * ({@code org.jhooks.tf}, the JVM driver), bridge, standard hooks, test support, conformance,
 * applications. Nothing depends on a layer above its own. A new package must be given a layer here
 * (and in pyproject.toml), or this test fails naming it. The classes come from every source set
 * (library, conformance, demo, bench: one jar each), so the rules cross the artifacts.
 */
public class ArchitectureTest {
  private static JavaClasses classes;

  @BeforeClass
  public static void importMainClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("org.jhooks");
  }

  /**
   * The rules see every source set's classes, not only the library's: the conformance suite, the
   * demo and the benchmarks live in their own source sets (and jars) but in the same layers.
   */
  @Test
  public void everyPackageOfEverySourceSetIsChecked() {
    Set<String> packages = new TreeSet<>();
    for (JavaClass c : classes) {
      packages.add(c.getPackageName());
    }
    for (String expected :
        List.of(
            "org.jhooks",
            "org.jhooks.tf",
            "org.jhooks.hooks",
            "org.jhooks.testing",
            "org.jhooks.conformance",
            "org.jhooks.demo",
            "org.jhooks.examples",
            "org.jhooks.bench")) {
      assertTrue(
          "no classes of " + expected + " imported: " + packages, packages.contains(expected));
    }
  }

  @Test
  public void nothingDependsOnALayerAboveItsOwn() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .ensureAllClassesAreContainedInArchitecture()
        .withOptionalLayers(true)
        .layer("Api")
        .definedBy("org.jhooks")
        .layer("ArrayTags")
        .definedBy("org.jhooks.ndarray..")
        .layer("Merger")
        .definedBy("org.jhooks.merger..")
        .layer("Checkpoint")
        .definedBy("org.jhooks.checkpoint..")
        .layer("TfAdapter")
        .definedBy("org.jhooks.tf..")
        .layer("Bridge")
        .definedBy("org.jhooks.bridge..", "org.jhooks.python..")
        .layer("StandardHooks")
        .definedBy("org.jhooks.hooks..")
        .layer("Testing")
        .definedBy("org.jhooks.testing..")
        .layer("Conformance")
        .definedBy("org.jhooks.conformance..")
        .layer("Apps")
        .definedBy("org.jhooks.demo..", "org.jhooks.examples..", "org.jhooks.bench..")
        .whereLayer("Apps")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("Conformance")
        .mayOnlyBeAccessedByLayers("Apps")
        .whereLayer("Testing")
        .mayOnlyBeAccessedByLayers("Conformance", "Apps")
        .whereLayer("StandardHooks")
        .mayOnlyBeAccessedByLayers("Testing", "Conformance", "Apps")
        .whereLayer("Bridge")
        .mayOnlyBeAccessedByLayers("StandardHooks", "Testing", "Conformance", "Apps")
        .whereLayer("TfAdapter")
        .mayOnlyBeAccessedByLayers("Bridge", "StandardHooks", "Testing", "Conformance", "Apps")
        .whereLayer("Checkpoint")
        .mayOnlyBeAccessedByLayers(
            "TfAdapter", "Bridge", "StandardHooks", "Testing", "Conformance", "Apps")
        .whereLayer("Merger")
        .mayOnlyBeAccessedByLayers(
            "Checkpoint", "TfAdapter", "Bridge", "StandardHooks", "Testing", "Conformance", "Apps")
        .whereLayer("ArrayTags")
        .mayOnlyBeAccessedByLayers(
            "Merger",
            "Checkpoint",
            "TfAdapter",
            "Bridge",
            "StandardHooks",
            "Testing",
            "Conformance",
            "Apps")
        .check(classes);
  }

  // One slice per package, org.jhooks itself included (slices().matching("org.jhooks.(**)") leaves
  // out the classes of org.jhooks).
  private static final SliceAssignment PACKAGES =
      new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
          return SliceIdentifier.of(javaClass.getPackageName());
        }

        @Override
        public String getDescription() {
          return "packages of org.jhooks";
        }
      };

  /**
   * No two packages depend on each other, directly or around a circle, whatever their layers (the
   * JVM MonitoredTrainingSession reaches the standard hooks through {@link
   * org.jhooks.tf.DefaultHooks}, an interface of its own layer).
   */
  @Test
  public void noPackageCycles() {
    slices().assignedFrom(PACKAGES).should().beFreeOfCycles().check(classes);
  }

  /**
   * No class of jhooks has the simple name of a public class of {@code java.lang}, {@code
   * java.util}, {@code java.io} or {@code java.nio} (or their subpackages), which it would shadow
   * in its own package and in every file that imports it (as {@code org.jhooks.bridge.Arrays} once
   * shadowed {@code java.util.Arrays}).
   */
  @Test
  public void noClassIsNamedLikeAJavaPlatformClass() throws IOException {
    Set<String> platform = platformClassNames("java/lang", "java/util", "java/io", "java/nio");
    classes()
        .should(
            new ArchCondition<JavaClass>(
                "not have the simple name of a public class of java.lang, java.util, java.io or"
                    + " java.nio") {
              @Override
              public void check(JavaClass c, ConditionEvents events) {
                String name = c.getSimpleName();
                if (platform.contains(name)) {
                  events.add(
                      SimpleConditionEvent.violated(
                          c, c.getName() + " is named like a public class of the JDK: " + name));
                }
              }
            })
        .check(classes);
  }

  // The simple names of the public top-level classes of java.base in these packages and their
  // subpackages, read from the running JDK's module image.
  private static Set<String> platformClassNames(String... packageDirs) throws IOException {
    Set<String> names = new TreeSet<>();
    FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
    for (String dir : packageDirs) {
      try (Stream<Path> files = Files.walk(jrt.getPath("/modules/java.base", dir))) {
        for (Path f : (Iterable<Path>) files::iterator) {
          String file = f.getFileName().toString();
          if (!file.endsWith(".class") || file.contains("$") || file.contains("-info")) {
            continue;
          }
          String binary =
              jrt.getPath("/modules/java.base").relativize(f).toString().replace('/', '.');
          try {
            Class<?> c = Class.forName(binary.substring(0, binary.length() - 6), false, null);
            if (Modifier.isPublic(c.getModifiers())) {
              names.add(c.getSimpleName());
            }
          } catch (ClassNotFoundException e) {
            throw new IllegalStateException("listed in the JDK image but not loadable: " + f, e);
          }
        }
      }
    }
    return names;
  }

  @Test
  public void theApiAndTheMergerUseNeitherTensorFlowNorJPype() {
    noClasses()
        .that()
        .resideInAnyPackage("org.jhooks", "org.jhooks.merger..")
        .should()
        .dependOnClassesThat(
            resideInAnyPackage("org.tensorflow..", "org.jpype..", "jpype..")
                .and(not(resideInAPackage("org.tensorflow.ndarray.."))))
        .because("the hook API needs only tensorflow-java's pure-Java ndarray library")
        .check(classes);
  }
}
