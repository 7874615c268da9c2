package io.locus.jobs.run;

/** A service {@code locus run} needs (Kafka, a Flink cluster) did not answer; names the address. */
final class Unreachable extends Exception {
  Unreachable(String message) {
    super(message);
  }
}
