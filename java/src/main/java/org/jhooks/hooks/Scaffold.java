package org.jhooks.hooks;

/**
 * A minimal stand-in for TensorFlow's {@code tf.compat.v1.train.Scaffold}: where the saver hooks
 * take their {@link Saver} and the summary saver its summary op when none is passed directly. Twin
 * of {@code jhooks.hooks.Scaffold(saver=None, summaryOp=None)}.
 */
public final class Scaffold {
  private final Saver saver;
  private final Object summaryOp;

  /**
   * @param saver what to save, or {@code null} for {@link Saver#defaults()}
   * @param summaryOp a tensor name or a list of names of serialized {@code Summary} protos, or
   *     {@code null}
   */
  public Scaffold(Saver saver, Object summaryOp) {
    this.saver = saver;
    this.summaryOp = summaryOp;
  }

  public Saver saver() {
    return saver;
  }

  public Object summaryOp() {
    return summaryOp;
  }
}
