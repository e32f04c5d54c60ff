package org.jhooks.tf;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;
import static org.tensorflow.internal.c_api.global.tensorflow.TF_SetStatus;

import java.util.List;
import java.util.Map;
import org.jhooks.testing.CounterGraph;
import org.junit.Test;
import org.tensorflow.Graph;
import org.tensorflow.Session;
import org.tensorflow.exceptions.TFInvalidArgumentException;
import org.tensorflow.exceptions.TFOutOfRangeException;
import org.tensorflow.exceptions.TensorFlowException;
import org.tensorflow.internal.c_api.TF_Status;
import org.tensorflow.ndarray.NdArrays;

public class ErrorCodesTest {

  @Test
  public void typedExceptionsFromRealRunsMapToTheirCodes() {
    try (Graph g = CounterGraph.counterWithInput(1);
        Session raw = new Session(g);
        TfSession s = new TfSession(raw, g)) {
      TFInvalidArgumentException invalid =
          assertThrows(
              TFInvalidArgumentException.class,
              () -> s.run("checked:0", Map.of("x", NdArrays.scalarOf(Float.NaN))));
      assertEquals(ErrorCodes.Code.INVALID_ARGUMENT, ErrorCodes.codeOf(invalid));
      assertFalse(ErrorCodes.isRecoverable(invalid));
      s.run("next:0");
      TFOutOfRangeException end = assertThrows(TFOutOfRangeException.class, () -> s.run("next:0"));
      assertEquals(ErrorCodes.Code.OUT_OF_RANGE, ErrorCodes.codeOf(end));
      assertTrue(ErrorCodes.isEndOfInput(end));
      assertFalse(ErrorCodes.isRecoverable(end));
    }
  }

  @Test
  public void tensorflowJavaRaisesAbortedAsAPlainExceptionWithoutTheCode() {
    RuntimeException e = ErrorCodes.exceptionFor(ErrorCodes.Code.ABORTED, "some text");
    assertSame(TensorFlowException.class, e.getClass());
    assertEquals("some text", e.getMessage());
    // Without a recognisable text the code is lost: not recovered.
    assertEquals(ErrorCodes.Code.UNKNOWN, ErrorCodes.codeOf(e));
    assertFalse(ErrorCodes.isRecoverable(e));
  }

  @Test
  public void recognisesCodeNamesAndTensorFlowsOwnTexts() {
    for (String text :
        List.of(
            "ABORTED: worker restarted",
            "From /job:worker/replica:0/task:1:\nAborted: Graph handle is not found",
            "Session handle is not found: abc. Possibly, this worker just restarted.",
            "RecvTensor expects a different device incarnation: 1 vs. 2.")) {
      assertEquals(
          text,
          ErrorCodes.Code.ABORTED,
          ErrorCodes.codeOf(ErrorCodes.exceptionFor(ErrorCodes.Code.ABORTED, text)));
    }
    for (String text :
        List.of(
            "UNAVAILABLE: Socket closed", "Unavailable: x", "failed to connect to all addresses")) {
      assertEquals(
          text,
          ErrorCodes.Code.UNAVAILABLE,
          ErrorCodes.codeOf(ErrorCodes.exceptionFor(ErrorCodes.Code.UNAVAILABLE, text)));
    }
    assertTrue(
        ErrorCodes.isRecoverable(
            new RuntimeException(
                "wrapped", ErrorCodes.exceptionFor(ErrorCodes.Code.ABORTED, "ABORTED: x"))));
    assertFalse(
        ErrorCodes.isRecoverable(
            ErrorCodes.exceptionFor(ErrorCodes.Code.INTERNAL, "aborted in the middle of a word")));
  }

  @Test
  public void exceptionForTypedCodesGivesTensorflowJavasTypes() {
    assertSame(
        TFOutOfRangeException.class,
        ErrorCodes.exceptionFor(ErrorCodes.Code.OUT_OF_RANGE, "x").getClass());
    assertSame(
        TFInvalidArgumentException.class,
        ErrorCodes.exceptionFor(ErrorCodes.Code.INVALID_ARGUMENT, "x").getClass());
    assertNull(ErrorCodes.codeOf(new IllegalStateException("ABORTED: not TensorFlow")));
    assertThrows(
        IllegalArgumentException.class, () -> ErrorCodes.exceptionFor(ErrorCodes.Code.OK, "x"));
  }

  @Test
  public void exceptionForMatchesTensorflowJavasOwnStatusForEveryCode() {
    for (ErrorCodes.Code code : ErrorCodes.Code.values()) {
      if (code == ErrorCodes.Code.OK) {
        continue;
      }
      TF_Status status = TF_Status.newStatus();
      try {
        TF_SetStatus(status, code.value, "text of " + code);
        RuntimeException real = assertThrows(RuntimeException.class, status::throwExceptionIfNotOK);
        RuntimeException ours = ErrorCodes.exceptionFor(code, "text of " + code);
        assertSame(code.toString(), real.getClass(), ours.getClass());
        assertEquals(code.toString(), real.getMessage(), ours.getMessage());
      } finally {
        status.delete();
      }
    }
  }

  @Test
  public void tensorflowPythonErrorsCarriedByTheBridgeKeepTheirCodes() {
    RuntimeException aborted =
        python("tensorflow.python.framework.errors_impl.AbortedError", "hook aborts");
    assertEquals(ErrorCodes.Code.ABORTED, ErrorCodes.codeOf(aborted));
    assertTrue(ErrorCodes.isRecoverable(aborted));
    RuntimeException end =
        python("tensorflow.python.framework.errors_impl.OutOfRangeError", "End of sequence");
    assertTrue(ErrorCodes.isEndOfInput(end));
    assertFalse(ErrorCodes.isRecoverable(end));
    RuntimeException plain = python("builtins.ValueError", "ABORTED: only the type counts");
    assertNull(ErrorCodes.codeOf(plain));
    assertFalse(ErrorCodes.isRecoverable(plain));
    assertFalse(ErrorCodes.isEndOfInput(plain));
  }

  private static RuntimeException python(String type, String message) {
    return new org.jhooks.bridge.PythonException(
        type, message, "", new String[0], new int[0], new String[0], new String[0], 0L, null);
  }
}
