package org.jhooks.bridgetest;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.jhooks.CheckpointSaverListener;
import org.jhooks.Session;

/**
 * afterSave throws UncheckedIOException("upload failed at N") caused by IOException("network
 * down").
 */
public class FailingListener implements CheckpointSaverListener {
  @Override
  public boolean afterSave(Session session, long globalStep) {
    throw new UncheckedIOException(
        "upload failed at " + globalStep, new IOException("network down"));
  }
}
