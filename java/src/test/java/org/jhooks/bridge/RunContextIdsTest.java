package org.jhooks.bridge;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import org.jhooks.SessionRunArgs;
import org.jhooks.SessionRunContext;
import org.jhooks.tf.TfSession;
import org.junit.Test;
import org.tensorflow.Graph;
import org.tensorflow.Session;

public class RunContextIdsTest {
  private static long session(long id) {
    return id >>> RunContextIds.SESSION_SHIFT;
  }

  private static SessionRunContext context(TfSession s) {
    return new SessionRunContext(SessionRunArgs.of(null), s);
  }

  @Test
  public void anIdNamesItsContextAndTellsWhetherTheSessionIsTheLastOnes() {
    try (Graph g = new Graph();
        TfSession a = new TfSession(new Session(g), g);
        TfSession b = new TfSession(new Session(g), g)) {
      SessionRunContext a1 = context(a);
      SessionRunContext a2 = context(a);
      SessionRunContext b1 = context(b);
      SessionRunContext a3 = context(a);
      long id1 = RunContextIds.idOf(a1);
      long id2 = RunContextIds.idOf(a2);
      long id3 = RunContextIds.idOf(b1);
      long id4 = RunContextIds.idOf(a3);
      assertTrue(id1 > 0 && id2 > 0 && id3 > 0 && id4 > 0);
      assertEquals(id1, RunContextIds.idOf(a1)); // the same context, the same id
      assertNotEquals(id1, id2);
      assertSame(a2, RunContextIds.context(id2));
      assertEquals(session(id1), session(id2)); // the same session as the last new context's
      assertNotEquals(0, session(id1));
      assertNotEquals(session(id2), session(id3)); // another session
      assertNotEquals(session(id3), session(id4)); // the first session again: not the last one
      assertNotEquals(session(id1), session(id4));
      assertEquals(0, session(RunContextIds.idOf(context(null)))); // no session
    }
  }
}
