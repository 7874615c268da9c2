package io.locus.cli.replay;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;

/**
 * The progress bar of a long replay, on stderr: tasks submitted, done and total, the rate (done
 * per second when completions are followed, else submitted per second) and the time left at that
 * rate. On a terminal one line is redrawn in place ({@code \r}); otherwise (a log, CI) a line is
 * printed every interval. Nothing is drawn before the first interval has passed, so short replays
 * print no bar.
 */
public final class Progress {
  private static final int BAR = 24;

  private final PrintWriter err;
  private final boolean terminal;
  private final long intervalNanos;
  private final long startNanos;
  private long nextNanos;
  private boolean drawn;

  /**
   * @param err where to draw; null = silent ({@code --quiet})
   * @param terminal redraw in place
   * @param interval time between draws
   */
  public Progress(PrintWriter err, boolean terminal, Duration interval, long startNanos) {
    this.err = err;
    this.terminal = terminal;
    this.intervalNanos = Math.max(1, interval.toNanos());
    this.startNanos = startNanos;
    this.nextNanos = startNanos + intervalNanos;
  }

  /** The default: redrawn every 0.5 s on a terminal, a line every 10 s otherwise. */
  public static Progress forStderr(PrintWriter err, boolean quiet) {
    boolean tty = System.console() != null;
    return new Progress(quiet ? null : err, tty,
        tty ? Duration.ofMillis(500) : Duration.ofSeconds(10), System.nanoTime());
  }

  /**
   * Draws when the interval has passed.
   *
   * @param done completed tasks, or -1 when completions are not followed
   */
  public void update(long nowNanos, long submitted, long done, long total) {
    if (err == null || nowNanos < nextNanos) {
      return;
    }
    nextNanos = nowNanos + intervalNanos;
    String line = line((nowNanos - startNanos) / 1e9, submitted, done, total);
    if (terminal) {
      err.print("\r" + line);
    } else {
      err.println(line);
    }
    drawn = true;
    err.flush();
  }

  /** Draws the final state when a bar was shown, and ends the line. */
  public void finish(long nowNanos, long submitted, long done, long total) {
    if (err == null || !drawn) {
      return;
    }
    String line = line((nowNanos - startNanos) / 1e9, submitted, done, total);
    err.println(terminal ? "\r" + line : line);
    err.flush();
  }

  static String line(double seconds, long submitted, long done, long total) {
    long progress = done >= 0 ? done : submitted;
    double rate = seconds <= 0 ? 0 : progress / seconds;
    int filled = total <= 0 ? 0 : (int) Math.min(BAR, BAR * progress / total);
    String bar = "#".repeat(filled) + ".".repeat(BAR - filled);
    String eta = rate <= 0 ? "?" : duration((total - progress) / rate);
    return String.format(Locale.ROOT, "[%s] submitted %d  done %s  of %d  %.1f/s  ETA %s  (%s)",
        bar, submitted, done >= 0 ? Long.toString(done) : "-", total, rate, eta,
        duration(seconds));
  }

  static String duration(double seconds) {
    long s = Math.max(0, Math.round(seconds));
    return s >= 3600 ? String.format(Locale.ROOT, "%dh%02dm%02ds", s / 3600, s / 60 % 60, s % 60)
        : s >= 60 ? String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60) : s + "s";
  }
}
