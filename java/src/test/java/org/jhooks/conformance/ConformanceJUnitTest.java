package org.jhooks.conformance;

import org.junit.runner.RunWith;

/**
 * The shared conformance suite on the JVM driver with Java hooks, no Python: one test per scenario
 * ({@code normal_end_hook_order[jvm-driver-java-hooks]}), run by the published {@link
 * ConformanceRunner} as a user's build runs it. Expected failures are listed with a reason in
 * {@code jhooks/conformance/data/xfail-java.json} and enforced both ways: a listed case that passes
 * fails (remove it from the list), an unlisted failing case fails. A listed case that fails as
 * expected is reported as skipped with its reason.
 */
@RunWith(ConformanceRunner.class)
public class ConformanceJUnitTest {}
