/**
 * Test support shipped in the jar, not API: may change in any release. {@link
 * org.jhooks.testing.FaultInjectingSessionCreator} fails chosen runs of real sessions (the
 * conformance suite's recovery scenarios use it), {@link org.jhooks.testing.Trigger} calls hooks
 * and listeners from Java threads Python did not start, and {@link
 * org.jhooks.testing.KillableTraining} is a small resumable training job for crash tests. Python's
 * twin package is {@code jhooks.testing}. See CONTRIBUTING.md, "Test support".
 */
package org.jhooks.testing;
