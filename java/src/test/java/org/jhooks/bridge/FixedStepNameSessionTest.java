package org.jhooks.bridge;

import static org.junit.Assert.assertEquals;

import java.lang.reflect.Method;
import org.jhooks.Session;
import org.junit.Test;

/** The Java view of a Python session with a fixed global step name forwards everything else. */
public class FixedStepNameSessionTest {
  @Test
  public void everySessionMethodIsForwardedNotLeftToItsDefault() throws Exception {
    for (Method m : Session.class.getMethods()) {
      Method own = FixedStepNameSession.class.getMethod(m.getName(), m.getParameterTypes());
      // a default method left in place would act on the wrapper, not on the Python session
      assertEquals(m.toString(), FixedStepNameSession.class, own.getDeclaringClass());
    }
  }
}
