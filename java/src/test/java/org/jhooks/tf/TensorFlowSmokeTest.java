package org.jhooks.tf;

import static org.junit.Assert.assertEquals;

import org.junit.Test;
import org.tensorflow.Graph;
import org.tensorflow.Result;
import org.tensorflow.Session;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Constant;
import org.tensorflow.types.TFloat32;

/** Proves the wiring: tensorflow-java's native runtime loads and computes. */
public class TensorFlowSmokeTest {
  @Test
  public void graphRunsInSession() {
    try (Graph g = new Graph()) {
      Ops tf = Ops.create(g);
      Constant<TFloat32> a = tf.constant(new float[] {1.5f, 2f, 3f});
      tf.withName("sum").math.mul(tf.reduceSum(a, tf.constant(0)), tf.constant(2f));
      try (Session s = new Session(g);
          Result r = s.runner().fetch("sum").run()) {
        assertEquals(13f, ((TFloat32) r.get(0)).getFloat(), 0f);
      }
    }
  }
}
