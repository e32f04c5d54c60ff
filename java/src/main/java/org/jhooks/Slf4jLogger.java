package org.jhooks;

import java.text.MessageFormat;
import java.util.ResourceBundle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link System.Logger} that hands its records to the SLF4J logger of the same name ({@link
 * Logs}): TRACE, DEBUG, INFO, WARNING and ERROR map to SLF4J's levels of the same names, ALL to
 * TRACE. Loaded only when SLF4J is on the classpath.
 */
final class Slf4jLogger implements System.Logger {
  private final Logger delegate;

  Slf4jLogger(String name) {
    this.delegate = LoggerFactory.getLogger(name);
  }

  @Override
  public String getName() {
    return delegate.getName();
  }

  @Override
  public boolean isLoggable(Level level) {
    switch (level) {
      case ALL:
      case TRACE:
        return delegate.isTraceEnabled();
      case DEBUG:
        return delegate.isDebugEnabled();
      case INFO:
        return delegate.isInfoEnabled();
      case WARNING:
        return delegate.isWarnEnabled();
      case ERROR:
        return delegate.isErrorEnabled();
      default:
        return false;
    }
  }

  @Override
  public void log(Level level, ResourceBundle bundle, String msg, Throwable thrown) {
    switch (level) {
      case ALL:
      case TRACE:
        delegate.trace(msg, thrown);
        break;
      case DEBUG:
        delegate.debug(msg, thrown);
        break;
      case INFO:
        delegate.info(msg, thrown);
        break;
      case WARNING:
        delegate.warn(msg, thrown);
        break;
      case ERROR:
        delegate.error(msg, thrown);
        break;
      default:
        break;
    }
  }

  @Override
  public void log(Level level, ResourceBundle bundle, String format, Object... params) {
    if (isLoggable(level)) {
      String msg =
          params == null || params.length == 0 ? format : MessageFormat.format(format, params);
      log(level, bundle, msg, (Throwable) null);
    }
  }
}
