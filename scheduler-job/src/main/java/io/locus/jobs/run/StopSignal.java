package io.locus.jobs.run;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGTERM and SIGINT of a local {@code locus run}, handled before the JVM starts shutting down:
 * the stop-with-savepoint runs while the embedded MiniCluster is still whole. From a shutdown hook
 * it raced Flink's own hooks (which close the blob server and delete the TaskManager's temporary
 * directories) and often failed (docs/reliability.md). A second signal while the stop runs exits
 * at once (status 143), through the shutdown hooks.
 */
final class StopSignal {
  private StopSignal() {}

  /**
   * Runs {@code stop} on a new thread at the first SIGTERM or SIGINT, until the returned handle is
   * closed (which puts the previous handlers back: a signal after the run ends the JVM as usual).
   */
  static AutoCloseable install(Runnable stop) {
    AtomicBoolean stopping = new AtomicBoolean();
    Map<Signal, SignalHandler> previous = new LinkedHashMap<>();
    AutoCloseable restore = () -> previous.forEach(Signal::handle);
    try {
      for (String name : new String[] {"TERM", "INT"}) {
        Signal signal = new Signal(name);
        previous.put(signal, Signal.handle(signal, sig -> {
          if (stopping.compareAndSet(false, true)) {
            System.out.println("locus run: received SIG" + sig.getName());
            System.out.flush();
            Thread t = new Thread(stop, "locus-stop-on-SIG" + sig.getName());
            t.start();
          } else {
            System.out.println("locus run: received SIG" + sig.getName() + " again: exiting now");
            System.out.flush();
            System.exit(128 + sig.getNumber());
          }
        }));
      }
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      // signal not available here (or the JVM runs with -Xrs): the shutdown hook still runs
    }
    return restore;
  }
}
