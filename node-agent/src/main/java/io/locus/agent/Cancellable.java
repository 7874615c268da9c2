package io.locus.agent;

/** A handle on scheduled or in-progress work. Cancelling twice, or after completion, is harmless. */
@FunctionalInterface
public interface Cancellable {
  Cancellable NONE = () -> { };

  void cancel();
}
