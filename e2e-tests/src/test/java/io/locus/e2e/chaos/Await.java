package io.locus.e2e.chaos;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.concurrent.locks.LockSupport;

/** Waiting on a condition with a deadline (never a bare sleep). */
final class Await {
  private Await() {}

  static void until(BooleanSupplier condition, Duration timeout, Supplier<String> what) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + timeout + ": " + what.get());
      }
      LockSupport.parkNanos(100_000_000L);
    }
  }
}
