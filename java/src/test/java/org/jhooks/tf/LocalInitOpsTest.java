package org.jhooks.tf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.nio.file.Path;
import java.util.List;
import org.jhooks.checkpoint.Checkpoints;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.tensorflow.Graph;
import org.tensorflow.Operand;
import org.tensorflow.Result;
import org.tensorflow.Session;
import org.tensorflow.ndarray.Shape;
import org.tensorflow.op.Ops;
import org.tensorflow.op.core.Variable;
import org.tensorflow.op.data.Iterator;
import org.tensorflow.op.data.TensorSliceDataset;
import org.tensorflow.types.TFloat32;
import org.tensorflow.types.family.TType;

/** A restored session re-initializes what the checkpoint does not hold, through local init ops. */
public class LocalInitOpsTest {
  @Rule public TemporaryFolder tmp = new TemporaryFolder();

  private static Graph inputGraph() {
    Graph g = new Graph();
    Ops tf = Ops.create(g);
    Ops init = tf.withInitScope();
    List<Class<? extends TType>> types = List.of(TFloat32.class);
    List<Shape> shapes = List.of(Shape.scalar());
    TensorSliceDataset dataset =
        init.data.tensorSliceDataset(List.of(init.constant(new float[] {10f, 20f, 30f})), shapes);
    Iterator iterator = init.withName("input_iterator").data.iterator("", "", types, shapes);
    init.withName("make_iterator").data.makeIterator(dataset, iterator);
    @SuppressWarnings("unchecked")
    Operand<TFloat32> next =
        (Operand<TFloat32>)
            tf.withName("input_next")
                .data
                .iteratorGetNext(iterator, types, shapes)
                .components()
                .get(0);
    Variable<TFloat32> sum = tf.withName("sum").variable(tf.constant(0f));
    tf.withName("add").assignAdd(sum, next);
    return g;
  }

  private static float run(Session s, String fetch, String target) {
    Session.Runner r = s.runner().fetch(fetch);
    if (target != null) {
      r.addTarget(target);
    }
    try (Result result = r.run()) {
      return ((TFloat32) result.get(0)).getFloat();
    }
  }

  @Test
  public void restoredSessionRunsLocalInitOpsSoTheInputStartsAgain() throws Exception {
    Path dir = tmp.newFolder("ckpt").toPath();
    try (Graph g = inputGraph()) {
      CheckpointRestoringSessionCreator first =
          new CheckpointRestoringSessionCreator(dir, null, List.of("make_iterator"));
      try (Session s = first.createSession(g)) {
        assertEquals(10f, run(s, "add", null), 0f);
        assertEquals(30f, run(s, "add", null), 0f);
        Path prefix = Checkpoints.checkpointPrefix(dir, Checkpoints.DEFAULT_BASENAME, 2);
        s.save(prefix.toString());
        Checkpoints.recordCheckpoint(dir, "model.ckpt", prefix, 5);
      }

      CheckpointRestoringSessionCreator withLocalInit =
          new CheckpointRestoringSessionCreator(dir, null, List.of("make_iterator"));
      try (Session s = withLocalInit.createSession(g)) {
        assertEquals(dir.resolve("model.ckpt-2").toString(), withLocalInit.lastRestored());
        assertEquals(30f, run(s, "sum", null), 0f);
        assertEquals(10f, run(s, "input_next", null), 0f);
      }

      CheckpointRestoringSessionCreator without = new CheckpointRestoringSessionCreator(dir, null);
      try (Session s = without.createSession(g)) {
        assertEquals(30f, run(s, "sum", null), 0f);
        assertThrows(RuntimeException.class, () -> run(s, "input_next", null));
      }
    }
  }
}
