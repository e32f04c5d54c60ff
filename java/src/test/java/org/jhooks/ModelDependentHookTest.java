package org.jhooks;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.Map;
import org.junit.Test;

public class ModelDependentHookTest {
  static final class MyHook extends ModelDependentHook {}

  @Test
  public void theInstanceIsSetOnceAndSettingItAgainIsANoOp() {
    MyHook hook = new MyHook();
    assertNull(hook.modelInstance());
    ModelInstance model = ModelInstance.of("loss:0", "train", "global_step:0");
    hook.setModelInstance(model);
    hook.setModelInstance(model);
    assertSame(model, hook.modelInstance());
  }

  @Test
  public void aDifferentInstanceIsRefusedNamingTheHook() {
    MyHook hook = new MyHook();
    hook.setModelInstance(ModelInstance.of("loss:0", "train", "global_step:0"));
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> hook.setModelInstance(ModelInstance.of("l2:0", "t", "g:0")));
    assertTrue(
        e.getMessage(),
        e.getMessage().contains(MyHook.class.getName()) && e.getMessage().contains("l2:0"));
    assertThrows(IllegalArgumentException.class, () -> new MyHook().setModelInstance(null));
  }

  @Test
  public void modelInstanceNamesItsEndpoints() {
    ModelInstance m = new ModelInstance(Map.of("loss", "loss:0", "logits", "dense/BiasAdd:0"));
    assertEquals("loss:0", m.loss());
    assertNull(m.trainOp());
    assertEquals("dense/BiasAdd:0", m.endpoint("logits"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> m.endpoint("probs"));
    assertTrue(e.getMessage(), e.getMessage().contains("'probs'"));
  }
}
