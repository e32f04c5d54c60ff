package org.jhooks.tf;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jhooks.ForeignException;
import org.tensorflow.exceptions.TFFailedPreconditionException;
import org.tensorflow.exceptions.TFInvalidArgumentException;
import org.tensorflow.exceptions.TFOutOfRangeException;
import org.tensorflow.exceptions.TFPermissionDeniedException;
import org.tensorflow.exceptions.TFResourceExhaustedException;
import org.tensorflow.exceptions.TFUnauthenticatedException;
import org.tensorflow.exceptions.TFUnimplementedException;
import org.tensorflow.exceptions.TensorFlowException;

/**
 * TensorFlow status codes of tensorflow-java exceptions, and which of them the JVM driver recovers
 * from (ABORTED, UNAVAILABLE, as TensorFlow's {@code MonitoredSession}).
 *
 * <p>tensorflow-java maps seven codes to typed exceptions ({@code TFInvalidArgumentException},
 * {@code TFOutOfRangeException}, ...) and every other code, ABORTED and UNAVAILABLE included, to a
 * plain {@link TensorFlowException} whose message is the C API's {@code TF_Message}: the status
 * text <em>without</em> the code ({@code AbstractTF_Status.throwExceptionIfNotOK}). So for plain
 * exceptions the code can only be inferred from the text; {@link #codeOf} recognises
 *
 * <ul>
 *   <li>a line starting with the code's name and a colon, in absl form ({@code "ABORTED: ..."}) or
 *       TensorFlow's older form ({@code "Aborted: ..."}), which is how a status embedded in another
 *       status's message (for example one relayed from a remote worker) reads;
 *   <li>the texts TensorFlow's own runtime uses for these codes, listed in {@link #ABORTED_TEXTS}
 *       and {@link #UNAVAILABLE_TEXTS}.
 * </ul>
 *
 * Anything else is {@link Code#UNKNOWN}: not recovered. A driver that knows better takes its own
 * predicate ({@code MonitoredSession.Builder.recoverableWhen}). See {@code docs/contract.md},
 * "Recovery".
 */
public final class ErrorCodes {
  private ErrorCodes() {}

  /** TensorFlow's {@code error::Code} values. */
  public enum Code {
    OK(0),
    CANCELLED(1),
    UNKNOWN(2),
    INVALID_ARGUMENT(3),
    DEADLINE_EXCEEDED(4),
    NOT_FOUND(5),
    ALREADY_EXISTS(6),
    PERMISSION_DENIED(7),
    RESOURCE_EXHAUSTED(8),
    FAILED_PRECONDITION(9),
    ABORTED(10),
    OUT_OF_RANGE(11),
    UNIMPLEMENTED(12),
    INTERNAL(13),
    UNAVAILABLE(14),
    DATA_LOSS(15),
    UNAUTHENTICATED(16);

    /** The numeric code, as {@code TF_Code}. */
    public final int value;

    Code(int value) {
      this.value = value;
    }
  }

  /**
   * Phrases of TensorFlow's runtime errors with code ABORTED (worker session managers, rendezvous).
   */
  public static final List<String> ABORTED_TEXTS =
      List.of("Possibly, this worker just restarted", "expects a different device incarnation");

  /** Phrases of gRPC/TensorFlow errors with code UNAVAILABLE. */
  public static final List<String> UNAVAILABLE_TEXTS =
      List.of("Socket closed", "Connection reset by peer", "failed to connect to all addresses");

  private static final Pattern CODE_PREFIX =
      Pattern.compile("(?m)^\\s*(ABORTED|Aborted|UNAVAILABLE|Unavailable)\\s*:");

  /**
   * The code of a tensorflow-java exception, or {@code null} if {@code t} is not one (note that
   * {@code TFInvalidArgumentException} extends {@link IllegalArgumentException}, not {@link
   * TensorFlowException}). Plain {@link TensorFlowException}s are classified by their text (see the
   * class doc); unrecognised ones are {@link Code#UNKNOWN}.
   */
  public static Code codeOf(Throwable t) {
    if (t instanceof TFInvalidArgumentException) {
      return Code.INVALID_ARGUMENT;
    } else if (t instanceof TFOutOfRangeException) {
      return Code.OUT_OF_RANGE;
    } else if (t instanceof TFFailedPreconditionException) {
      return Code.FAILED_PRECONDITION;
    } else if (t instanceof TFResourceExhaustedException) {
      return Code.RESOURCE_EXHAUSTED;
    } else if (t instanceof TFPermissionDeniedException) {
      return Code.PERMISSION_DENIED;
    } else if (t instanceof TFUnauthenticatedException) {
      return Code.UNAUTHENTICATED;
    } else if (t instanceof TFUnimplementedException) {
      return Code.UNIMPLEMENTED;
    } else if (t instanceof TensorFlowException) {
      return codeOfText(t.getMessage());
    }
    return codeOfPython(t);
  }

  /** TensorFlow's Python error classes ({@code tf.errors.*Error}) to their codes. */
  private static final java.util.Map<String, Code> PYTHON_ERRORS =
      java.util.Map.of(
          "AbortedError", Code.ABORTED,
          "UnavailableError", Code.UNAVAILABLE,
          "OutOfRangeError", Code.OUT_OF_RANGE,
          "InvalidArgumentError", Code.INVALID_ARGUMENT);

  // A Python exception carried by the bridge (a ForeignException): a TensorFlow Python error keeps
  // its code, so an AbortedError from a Python hook recovers a JVM session.
  private static Code codeOfPython(Throwable t) {
    if (!(t instanceof ForeignException foreign) || foreign.foreignType() == null) {
      return null;
    }
    String name = foreign.foreignType();
    return PYTHON_ERRORS.get(name.substring(name.lastIndexOf('.') + 1));
  }

  /**
   * Whether {@code t}, or an exception in its cause chain, has code ABORTED or UNAVAILABLE: the
   * errors after which TensorFlow's {@code MonitoredSession} re-creates the session and retries.
   */
  public static boolean isRecoverable(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      Code code = codeOf(c);
      if (code == Code.ABORTED || code == Code.UNAVAILABLE) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code t} is end of input ({@link TFOutOfRangeException}). */
  public static boolean isEndOfInput(Throwable t) {
    return t instanceof TFOutOfRangeException
        || (!(t instanceof TensorFlowException) && codeOf(t) == Code.OUT_OF_RANGE);
  }

  /**
   * The exception tensorflow-java raises for a failed status with {@code code} and {@code message}:
   * the same type and message as its own {@code AbstractTF_Status.throwExceptionIfNotOK} (seven
   * codes have typed exceptions, every other code a plain {@link TensorFlowException}), built
   * without TensorFlow's natives, so a Java hook in a hooks-only JVM can raise it too. Used for
   * fault injection and by hooks that signal the end of input.
   *
   * @throws IllegalArgumentException {@code code} is OK
   */
  public static RuntimeException exceptionFor(Code code, String message) {
    return switch (code) {
      case OK -> throw new IllegalArgumentException("no exception for code OK");
      case INVALID_ARGUMENT -> new TFInvalidArgumentException(message);
      case UNAUTHENTICATED -> new TFUnauthenticatedException(message);
      case PERMISSION_DENIED -> new TFPermissionDeniedException(message);
      case RESOURCE_EXHAUSTED -> new TFResourceExhaustedException(message);
      case FAILED_PRECONDITION -> new TFFailedPreconditionException(message);
      case OUT_OF_RANGE -> new TFOutOfRangeException(message);
      case UNIMPLEMENTED -> new TFUnimplementedException(message);
      default -> new TensorFlowException(message);
    };
  }

  private static Code codeOfText(String message) {
    if (message == null) {
      return Code.UNKNOWN;
    }
    Matcher m = CODE_PREFIX.matcher(message);
    if (m.find()) {
      return m.group(1).equalsIgnoreCase("ABORTED") ? Code.ABORTED : Code.UNAVAILABLE;
    }
    for (String text : ABORTED_TEXTS) {
      if (message.contains(text)) {
        return Code.ABORTED;
      }
    }
    for (String text : UNAVAILABLE_TEXTS) {
      if (message.contains(text)) {
        return Code.UNAVAILABLE;
      }
    }
    return Code.UNKNOWN;
  }
}
