package org.jhooks.tf.types;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.tensorflow.internal.types.registry.TensorTypeRegistry;
import org.tensorflow.proto.DataType;

/**
 * Adds {@link TInt8} and {@link TInt16} to tensorflow-java's tensor type registry, which 1.1 fills
 * with a fixed list lacking them ({@code TensorTypeRegistry}'s static initializer; its {@code
 * register} method is private, so it is called by reflection, which works with the jars on the
 * class path). Without them a run that fetches an int8 or int16 tensor fails inside tensorflow-java
 * with "No tensor type has been registered", and none can be fed.
 */
public final class TensorTypes {
  private TensorTypes() {}

  private static final boolean REGISTERED = registerAll();

  /**
   * Registers the types once; true when int8 and int16 tensors can be used (the registry knows
   * them), false when tensorflow-java refused (another version): callers then refuse those dtypes
   * with a clear error.
   */
  public static boolean register() {
    return REGISTERED;
  }

  private static boolean registerAll() {
    try {
      Method register = TensorTypeRegistry.class.getDeclaredMethod("register", Class.class);
      register.setAccessible(true);
      if (!known(DataType.DT_INT8)) {
        register.invoke(null, TInt8.class);
      }
      if (!known(DataType.DT_INT16)) {
        register.invoke(null, TInt16.class);
      }
      return known(DataType.DT_INT8) && known(DataType.DT_INT16);
    } catch (NoSuchMethodException
        | IllegalAccessException
        | InvocationTargetException
        | RuntimeException e) {
      return false;
    }
  }

  // Any type for the dtype: a later tensorflow-java that has its own is used as it is.
  private static boolean known(DataType dtype) {
    try {
      return TensorTypeRegistry.find(dtype) != null;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
