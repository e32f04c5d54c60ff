package org.jhooks.conformance;

import org.jhooks.Hook;

/**
 * Makes the hooks of another language for {@link JvmScenarioRunner} (the Python runner implements
 * it through JPype to put Python hooks into a JVM session).
 */
public interface ForeignHooks {

  /**
   * The hook for one scenario hook entry (scripted or standard), recording into {@code recorder}.
   *
   * @param hookJson the scenario's hook entry as JSON text
   * @param checkpointDir the driver's checkpoint dir, or {@code null}
   */
  Hook create(String hookJson, Recorder recorder, String checkpointDir);

  /** The {@code finalOpsValues} of the FinalOpsHook named {@code hookName}, as JSON text. */
  String finalOpsValues(String hookName);
}
