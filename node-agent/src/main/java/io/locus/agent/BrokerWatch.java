package io.locus.agent;

import java.time.Duration;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells the log when the agents lose the broker and when they have it back: one WARN when sends
 * have gone unanswered for longer than a threshold, one INFO when the broker answers again, with
 * how long it was out and how many sends failed meanwhile.
 *
 * <p>Why it is needed: the Kafka producer rides out an outage by itself (it reconnects and resends
 * until {@code delivery.timeout.ms}, two minutes), so an 18-second broker outage made no send fail
 * and nothing was logged; the agents recovered, and the outage was invisible. The agents send a
 * heartbeat every second, so a broker that answers nothing for {@link #DEFAULT_THRESHOLD} is gone,
 * not slow. The watch measures from the oldest send still unanswered (or the last answer, if
 * later): an idle producer is not an outage.
 *
 * <p>Thread-safe: sends come from the agents' threads, answers from the producer's I/O thread,
 * checks from a timer of their own. {@code locus replay}'s publisher uses it too.
 */
public final class BrokerWatch {
  private static final Logger LOG = LoggerFactory.getLogger(BrokerWatch.class);
  /** Unanswered sends for this long mean the broker is out (a healthy ack takes milliseconds). */
  public static final Duration DEFAULT_THRESHOLD = Duration.ofSeconds(5);

  private final String who;
  private final String bootstrap;
  private final long thresholdNanos;
  private final LongSupplier nanoClock;
  private long inFlight;
  /** Since when sends have waited without an answer (the last ack, or the first send after it). */
  private long waitingSinceNanos;
  private boolean out;
  private long outSinceNanos;
  private long failedWhileOut;
  private long outages;

  /**
   * @param who what the log lines name as losing the broker ("agents of pool p", "locus replay")
   * @param threshold how long sends may go unanswered before it is an outage
   * @param nanoClock {@code System::nanoTime} (tests move their own)
   */
  public BrokerWatch(String who, String bootstrap, Duration threshold, LongSupplier nanoClock) {
    this.who = who;
    this.bootstrap = bootstrap;
    this.thresholdNanos = threshold.toNanos();
    this.nanoClock = nanoClock;
  }

  /** A send is handed to the producer. */
  public synchronized void sent() {
    if (inFlight++ == 0 && !out) {
      waitingSinceNanos = nanoClock.getAsLong();
    }
  }

  /** The broker took a send: it is there. */
  public synchronized void acked() {
    inFlight = Math.max(0, inFlight - 1);
    long now = nanoClock.getAsLong();
    waitingSinceNanos = now;
    if (out) {
      out = false;
      LOG.info("{}: the broker at {} answers again after {} s out; {} send(s) failed meanwhile",
          who, bootstrap, seconds(now - outSinceNanos), failedWhileOut);
    }
  }

  /**
   * A send failed (its delivery timeout ran out, or the producer refused it). Returns whether the
   * caller should log it: not while the outage is already logged, so a long outage is one line.
   */
  public synchronized boolean failed() {
    inFlight = Math.max(0, inFlight - 1);
    if (out) {
      failedWhileOut++;
      return false;
    }
    return true;
  }

  /** Called periodically: logs the start of an outage once. */
  public synchronized void check() {
    if (out || inFlight == 0) {
      return;
    }
    long now = nanoClock.getAsLong();
    if (now - waitingSinceNanos > thresholdNanos) {
      out = true;
      outages++;
      outSinceNanos = waitingSinceNanos;
      failedWhileOut = 0;
      LOG.warn("{}: the broker at {} has answered no send for {} s ({} waiting); the producer"
              + " keeps retrying (up to its delivery.timeout.ms); a line follows when it is back",
          who, bootstrap, seconds(now - waitingSinceNanos), inFlight);
    }
  }

  /** Whether an outage is on now (logged, not yet over). */
  public synchronized boolean out() {
    return out;
  }

  /** Outages logged so far. */
  public synchronized long outages() {
    return outages;
  }

  private static long seconds(long nanos) {
    return Math.round(nanos / 1e9);
  }
}
