package io.locus.agent;

import java.util.List;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.slf4j.Logger;

/**
 * Collects what one logger writes ({@code "LEVEL message"}, formatted) while open, at every level
 * from INFO: a test can check what an operator would read in the log.
 */
final class LogCapture extends AbstractAppender implements AutoCloseable {
  private final List<String> lines;
  private final String loggerName;
  private final LoggerConfig previous;

  private LogCapture(String loggerName, List<String> lines, LoggerConfig previous) {
    super("capture-" + loggerName, null, null, true, Property.EMPTY_ARRAY);
    this.loggerName = loggerName;
    this.lines = lines;
    this.previous = previous;
  }

  static LogCapture of(Logger logger, List<String> lines) {
    LoggerContext ctx = (LoggerContext) org.apache.logging.log4j.LogManager.getContext(false);
    Configuration config = ctx.getConfiguration();
    LoggerConfig own = new LoggerConfig(logger.getName(), Level.INFO, true);
    LogCapture capture = new LogCapture(logger.getName(), lines,
        config.getLoggers().get(logger.getName()));
    capture.start();
    own.addAppender(capture, Level.INFO, null);
    config.addLogger(logger.getName(), own);
    ctx.updateLoggers();
    return capture;
  }

  @Override
  public synchronized void append(LogEvent event) {
    lines.add(event.getLevel() + " " + event.getMessage().getFormattedMessage());
  }

  @Override
  public void close() {
    LoggerContext ctx = (LoggerContext) org.apache.logging.log4j.LogManager.getContext(false);
    Configuration config = ctx.getConfiguration();
    config.removeLogger(loggerName);
    if (previous != null) {
      config.addLogger(loggerName, previous);
    }
    ctx.updateLoggers();
    stop();
  }
}
