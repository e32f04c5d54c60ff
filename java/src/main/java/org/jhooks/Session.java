package org.jhooks;

import java.util.Collections;
import java.util.Map;
import org.tensorflow.ndarray.NdArray;

/**
 * The language-neutral session view that hooks talk to. A run through it never fires hooks.
 *
 * <p>Fetches are a tensor name ({@code "loss:0"}), an op name run as a target (result {@code
 * null}), or a {@link java.util.List} / {@link java.util.Map} (String keys) nest of them; the
 * result has the same structure with {@link NdArray} leaves. Values handed out are copies that the
 * caller owns (see {@code docs/contract.md}, "Values and ownership").
 */
public interface Session {

  /**
   * Runs fetches with feeds and options.
   *
   * @param fetches a name or a nest of names, see above; {@code null} runs nothing and returns null
   * @param feeds tensor name to value; may be empty, never null
   * @param options run options, or {@code null}
   * @return the results in the structure of {@code fetches}
   * @throws RuntimeException a name is not in the graph: in a hook callback the JVM driver's view
   *     throws {@code org.jhooks.tf.GraphNameException} naming the hook, the callback and the name
   *     (as Python's {@code jhooks.tf.GraphNameError}); elsewhere an {@link
   *     IllegalArgumentException}
   */
  Object run(Object fetches, Map<String, ? extends NdArray<?>> feeds, RunOptions options);

  /** Runs fetches without feeds or options. */
  default Object run(Object fetches) {
    return run(fetches, Collections.emptyMap(), null);
  }

  /** Runs fetches with feeds. */
  default Object run(Object fetches, Map<String, ? extends NdArray<?>> feeds) {
    return run(fetches, feeds, null);
  }

  /**
   * Writes a TF V2 checkpoint ({@code prefix.index}, {@code prefix.data-00000-of-00001}) of every
   * saveable variable; it does not update the {@code checkpoint} state file.
   *
   * @param prefix the checkpoint prefix, for example {@code /ckpt/model.ckpt-100}
   */
  void save(String prefix);

  /** Restores every saveable variable from the checkpoint at {@code prefix}. */
  void restore(String prefix);

  /**
   * The variables that {@link #save(String)} writes: checkpoint key (the variable name, for example
   * {@code "w"}) to the name of a tensor that reads its current value ({@code "w:0"} for a
   * VariableV2), in graph order. Saver hooks that snapshot values use it when no explicit variable
   * list is given (see {@code docs/standard-hooks.md}).
   *
   * @throws UnsupportedOperationException this view cannot list its variables; the default
   */
  default Map<String, String> saveableVariables() {
    throw new UnsupportedOperationException(
        "this session view cannot list its variables; pass variables to Saver");
  }

  /**
   * The checkpoint keys of the float variables that {@link #save(String)} writes holding a NaN or
   * an infinity, in {@link #saveableVariables()} order; empty when all are finite. The checkpoint
   * saver hooks call it before {@code save} and write nothing when it is not empty ({@code
   * docs/standard-hooks.md}, "No poisoned checkpoints"); views without it make them fetch the
   * values and check those.
   *
   * @throws UnsupportedOperationException this view cannot check its variables; the default
   */
  default java.util.List<String> nonFiniteVariables() {
    throw new UnsupportedOperationException("this session view cannot check its variables");
  }

  /**
   * Copies every variable that {@link #save(String)} writes into this view's snapshot buffers, in
   * ONE run of one grouped op (the JVM driver's view: TensorFlow's {@code Assign} into a buffer per
   * variable in the training graph; after the first snapshot a copy into the buffers' existing
   * memory, nothing fetched into the heap), and returns the global step read in that same run: the
   * step the snapshot holds. The buffers keep one copy of the saved variables from the first
   * snapshot on. {@link org.jhooks.hooks.AsyncCheckpointSaverHook} takes its snapshot with it on
   * the training thread ({@code docs/standard-hooks.md}).
   *
   * @throws UnsupportedOperationException this view has no snapshot buffers; the default (the saver
   *     then fetches the values)
   */
  default long takeSnapshot() {
    throw new UnsupportedOperationException("this session view has no snapshot buffers");
  }

  /**
   * Writes the last {@link #takeSnapshot()} as a TF V2 checkpoint at {@code prefix}: the files and
   * keys {@link #save(String)} writes, holding the snapshot's values; the {@code checkpoint} state
   * file is not touched. Safe on another thread while training runs; not while {@link
   * #takeSnapshot()} runs (the caller waits).
   *
   * @throws UnsupportedOperationException this view has no snapshot buffers; the default
   * @throws RuntimeException the write failed (TensorFlow's error, e.g. OUT_OF_RANGE for a file
   *     size limit)
   */
  default void saveSnapshot(String prefix) {
    throw new UnsupportedOperationException("this session view has no snapshot buffers");
  }

  /**
   * The checkpoint keys of the float variables of the last {@link #takeSnapshot()} that hold a NaN
   * or an infinity; empty when all are finite (the fused check of {@link #nonFiniteVariables()},
   * over the buffers). Safe on another thread as {@link #saveSnapshot(String)}.
   *
   * @throws UnsupportedOperationException this view has no snapshot buffers; the default
   */
  default java.util.List<String> nonFiniteSnapshot() {
    throw new UnsupportedOperationException("this session view has no snapshot buffers");
  }

  /**
   * The session's graph as a serialized {@code GraphDef} proto (the JVM driver's view: {@code
   * org.tensorflow.Graph.toGraphDef()}; Python's: {@code graph.as_graph_def(add_shapes=True)}). The
   * checkpoint saver hooks write it to {@code graph.pbtxt} and the event file at session creation,
   * as TensorFlow's {@code CheckpointSaverHook} ({@code docs/standard-hooks.md}).
   *
   * @return the serialized {@code GraphDef}, a new array the caller owns
   * @throws UnsupportedOperationException this view has no graph; the default (the savers then
   *     write no graph)
   */
  default byte[] graphDef() {
    throw new UnsupportedOperationException("this session view has no graph");
  }

  /**
   * A serialized {@code MetaGraphDef} proto of the session's graph: the {@link #graphDef()} and,
   * when the view has one, the {@code SaverDef} of the saver {@link #save(String)} uses
   * (TensorFlow's {@code tf.compat.v1.train.import_meta_graph} reads it). The checkpoint saver
   * hooks write it to the event file at session creation, as TensorFlow's {@code
   * CheckpointSaverHook}.
   *
   * @return the serialized {@code MetaGraphDef}, a new array the caller owns
   * @throws UnsupportedOperationException this view has no graph; the default
   */
  default byte[] metaGraphDef() {
    throw new UnsupportedOperationException("this session view has no graph");
  }

  /**
   * The {@link CheckpointGuard} every hook of this raw session shares (the NaN-loss signal that the
   * checkpoint savers check). Views that own a session (the JVM driver's {@code
   * org.jhooks.tf.TfSession}, the bridge's view of a Python session) return theirs; the default is
   * one guard per view object, kept while the view is reachable. Read it with {@link
   * CheckpointGuard#of(Session)}.
   */
  default CheckpointGuard checkpointGuard() {
    return SharedCheckpointGuard.attachedTo(this);
  }

  /** The name of the int64 scalar global step tensor, normally {@code "global_step:0"}. */
  String globalStepTensorName();

  /**
   * Reads the global step with a raw run.
   *
   * @return the current value of {@link #globalStepTensorName()}
   */
  default long globalStep() {
    NdArray<?> value = (NdArray<?>) run(globalStepTensorName());
    return ((Number) value.getObject()).longValue();
  }
}
