package io.locus.agent.real;

import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition that has no event to wait on (a process appearing, a file on disk): it is
 * re-checked every few milliseconds until it holds, and the test fails at the deadline.
 */
final class Await {
  private Await() {}

  static void until(String what, BooleanSupplier condition) {
    until(what, AwaitingOutput.DEADLINE, condition);
  }

  static void until(String what, Duration deadline, BooleanSupplier condition) {
    long end = System.nanoTime() + deadline.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        fail("timed out waiting for " + what);
      }
      LockSupport.parkNanos(5_000_000);
    }
  }
}
