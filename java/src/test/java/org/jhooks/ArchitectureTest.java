package org.jhooks;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static org.junit.Assert.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
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
        // The one allowed upward edge, as TensorFlow's monitored_session imports
        // basic_session_run_hooks: the JVM MonitoredTrainingSession builds TensorFlow's default
        // hooks (checkpoint saver, step counter, summary saver) from the standard hooks.
        .ignoreDependency(
            nameMatching("org\\.jhooks\\.tf\\.MonitoredTrainingSession(\\$.*)?"),
            resideInAPackage("org.jhooks.hooks"))
        .check(classes);
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
