package io.locus.jobs.run;

/**
 * {@code locus run} cannot start because something on this machine already holds what it needs
 * (the REST port, the state directory); the message is one line naming the flag to change.
 */
final class StartClash extends Exception {
  StartClash(String message) {
    super(message);
  }
}
