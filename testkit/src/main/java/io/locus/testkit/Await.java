package io.locus.testkit;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The one way a Locus test waits: on a condition, re-checked at a polling interval until it holds,
 * failing with a message at a deadline (never a bare sleep, never an unbounded wait). Use it for
 * what has no event to wait on (a record on a topic, a process, a file, a metric); a condition may
 * do work itself (poll a consumer, read a file) and return what it saw.
 *
 * <pre>{@code
 * Await.atMost(Duration.ofSeconds(30)).until("t1 running", () -> a.process("t1").isPresent());
 * List<Row> rows = Await.atMost(WAIT).until("20 rows", reader::rows, r -> r.size() >= 20);
 * }</pre>
 *
 * <p>Why a module of its own, with this class in main sources, rather than a test-jar of an
 * existing module: every module's tests need it, from the plain-Java ones (no Kafka, no Flink) up
 * to the whole-system tests, so it sits first in the reactor with no dependencies at all;
 * kafka-testkit's test-jar would have put a Kafka broker on the test classpath of modules that
 * start none, and its main jar is bundled into the CLI. The root pom manages this module at
 * {@code test} scope, so a module that names it gets it on its test classpath only, and nothing
 * here can reach the CLI, the job jar or the agent distribution.
 */
public final class Await {
  /** The interval between checks unless {@link #pollEvery} says otherwise. */
  public static final Duration DEFAULT_POLL = Duration.ofMillis(20);

  /** A condition; it may throw, which ends the wait with that exception (see {@link #ignoring}). */
  @FunctionalInterface
  public interface Condition {
    boolean holds() throws Exception;
  }

  /** Reads a value to test; it may throw, as a {@link Condition} may. */
  @FunctionalInterface
  public interface Probe<T> {
    T read() throws Exception;
  }

  private final Duration timeout;
  private final Duration poll;
  private final List<Class<? extends Exception>> ignored;

  private Await(Duration timeout, Duration poll, List<Class<? extends Exception>> ignored) {
    if (timeout.isNegative() || poll.isNegative()) {
      throw new IllegalArgumentException("negative timeout or poll interval");
    }
    this.timeout = timeout;
    this.poll = poll;
    this.ignored = ignored;
  }

  /** A wait that fails once {@code timeout} has passed without the condition holding. */
  public static Await atMost(Duration timeout) {
    return new Await(Objects.requireNonNull(timeout), DEFAULT_POLL, List.of());
  }

  /**
   * The same wait, checking every {@code interval} (zero: check again at once, for a condition
   * that blocks by itself, such as a consumer's poll with its own timeout).
   */
  public Await pollEvery(Duration interval) {
    return new Await(timeout, Objects.requireNonNull(interval), ignored);
  }

  /**
   * The same wait, counting an exception of {@code type} from the condition as "not yet" (an
   * endpoint that does not answer yet); the last one is named if the deadline passes.
   */
  public Await ignoring(Class<? extends Exception> type) {
    List<Class<? extends Exception>> all = new ArrayList<>(ignored);
    all.add(Objects.requireNonNull(type));
    return new Await(timeout, poll, List.copyOf(all));
  }

  /** Shorthand for {@code atMost(timeout).until(what, condition)}. */
  public static void until(String what, Duration timeout, Condition condition) {
    atMost(timeout).until(what, condition);
  }

  /** Returns once {@code condition} holds; fails naming {@code what} at the deadline. */
  public void until(String what, Condition condition) {
    until(() -> what, condition);
  }

  /**
   * Returns once {@code condition} holds; at the deadline fails with {@code what}, computed then
   * (so it can describe the state the test gave up on).
   */
  public void until(Supplier<String> what, Condition condition) {
    poll(what, condition::holds, Boolean::booleanValue, false);
  }

  /**
   * Reads {@code value} until {@code done} accepts it and returns that value; at the deadline fails
   * with {@code what} and the last value read.
   */
  public <T> T until(String what, Probe<T> value, Predicate<? super T> done) {
    return poll(() -> what, value, done, true);
  }

  /** As {@link #until(String, Probe, Predicate)}, with the message computed at the deadline. */
  public <T> T until(Supplier<String> what, Probe<T> value, Predicate<? super T> done) {
    return poll(what, value, done, true);
  }

  /** Reads {@code value} until it is present and returns what it holds. */
  public <T> T untilPresent(String what, Probe<Optional<T>> value) {
    return untilPresent(() -> what, value);
  }

  /** As {@link #untilPresent(String, Probe)}, with the message computed at the deadline. */
  public <T> T untilPresent(Supplier<String> what, Probe<Optional<T>> value) {
    return poll(what, value, Optional::isPresent, false).orElseThrow();
  }

  private <T> T poll(Supplier<String> what, Probe<T> value, Predicate<? super T> done,
      boolean showLast) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Exception lastIgnored = null;
    while (true) {
      T v = null;
      boolean read = false;
      try {
        v = value.read();
        read = true;
        lastIgnored = null;
      } catch (Exception e) {
        if (ignored.stream().noneMatch(c -> c.isInstance(e))) {
          throw Await.<RuntimeException>sneaky(e);
        }
        lastIgnored = e;
      }
      if (read && done.test(v)) {
        return v;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        AssertionError failure = new AssertionError("not within " + timeout + ": " + what.get()
            + (showLast && read ? " (last seen: " + v + ")" : "")
            + (lastIgnored != null ? " (last: " + lastIgnored + ")" : ""));
        if (lastIgnored != null) {
          failure.initCause(lastIgnored);
        }
        throw failure;
      }
      if (Thread.currentThread().isInterrupted()) {
        throw new AssertionError("interrupted waiting for " + what.get());
      }
      LockSupport.parkNanos(Math.min(poll.toNanos(), left));
    }
  }

  /** Rethrows a checked exception from a condition as it is (the test method declares it). */
  @SuppressWarnings("unchecked")
  private static <E extends Exception> E sneaky(Exception e) throws E {
    throw (E) e;
  }
}
