package io.locus.agent.real;

import io.locus.agent.AgentScheduler;
import io.locus.agent.Cancellable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The task processes an agent started, with their descendants, and how they are stopped: SIGTERM
 * to the whole tree, then SIGKILL to what is still alive after the kill grace. Every process that
 * may still be alive is remembered for the final sweep at shutdown. Thread-safe.
 */
final class ProcessTrees {
  private static final Logger LOG = LoggerFactory.getLogger(ProcessTrees.class);

  private final AgentScheduler scheduler;
  private final Duration killGrace;
  private final Set<ProcessHandle> spawned = ConcurrentHashMap.newKeySet();

  ProcessTrees(AgentScheduler scheduler, Duration killGrace) {
    this.scheduler = scheduler;
    this.killGrace = killGrace;
  }

  void started(Process p) {
    spawned.add(p.toHandle());
  }

  void exited(Process p) {
    spawned.remove(p.toHandle());
  }

  /** SIGTERM to the process and its descendants now, SIGKILL to survivors after the grace. */
  void kill(Process p, String node, String key) {
    List<ProcessHandle> all = new ArrayList<>();
    // Descendants first, while they are still the process's (an orphan is re-parented away).
    p.descendants().forEach(all::add);
    all.add(p.toHandle());
    spawned.addAll(all);
    for (ProcessHandle h : all) {
      h.destroy();
    }
    scheduler.schedule(killGrace.toNanos(), () -> {
      for (ProcessHandle h : all) {
        if (isRunning(h)) {
          LOG.warn("{}: pid {} of {} ignored SIGTERM; killing it", node, h.pid(), key);
          h.destroyForcibly();
        }
      }
    });
    for (ProcessHandle h : all) {
      h.onExit().thenRun(() -> spawned.remove(h));
    }
  }

  /**
   * A preemption's stop: SIGTERM to the process and its descendants now, SIGKILL to survivors
   * after {@code grace}; {@code stopped} once every one of them is gone (true if one had to be
   * killed). Polled every {@value #POLL_MS} ms rather than by {@code onExit}: an orphaned
   * grandchild's exit is seen late or never (a zombie waits for its new parent to reap it).
   * Reported anyway {@value #REAP_MS} ms after the SIGKILL: a process SIGKILL cannot end (stuck
   * in the kernel) must not hold the answer forever.
   */
  void stop(Process p, String node, String key, Duration grace,
      Consumer<Boolean> stopped) {
    List<ProcessHandle> all = new ArrayList<>();
    p.descendants().forEach(all::add);
    all.add(p.toHandle());
    spawned.addAll(all);
    for (ProcessHandle h : all) {
      h.destroy();
    }
    long killAt = System.nanoTime() + grace.toNanos();
    long giveUpAt = killAt + REAP_MS * 1_000_000L;
    AtomicBoolean killed = new AtomicBoolean();
    AtomicBoolean done = new AtomicBoolean();
    AtomicReference<Cancellable> poll = new AtomicReference<>();
    Runnable check = () -> {
      if (done.get()) {
        return;
      }
      long now = System.nanoTime();
      boolean alive = all.stream().anyMatch(ProcessTrees::isRunning);
      if (alive && now >= killAt && !killed.get()) {
        killed.set(true);
        for (ProcessHandle h : all) {
          if (isRunning(h)) {
            LOG.warn("{}: pid {} of {} still runs {} after SIGTERM (preemption); killing it",
                node, h.pid(), key, grace);
            h.destroyForcibly();
          }
        }
        return;
      }
      if (!alive || now >= giveUpAt) {
        if (done.compareAndSet(false, true)) {
          Cancellable c = poll.get();
          if (c != null) {
            c.cancel();
          }
          spawned.removeAll(all);
          stopped.accept(killed.get());
        }
      }
    };
    poll.set(scheduler.scheduleAtFixedRate(POLL_MS * 1_000_000L, check));
    if (done.get()) {
      poll.get().cancel();
    }
  }

  /** How often a preemption's stop looks whether the process tree is gone. */
  static final long POLL_MS = 10;
  /** How long after SIGKILL a preemption's stop is reported even if a process is still seen. */
  static final long REAP_MS = 5_000;

  /**
   * Stops every process still alive: SIGTERM, up to the kill grace for them to exit, then
   * SIGKILL. Blocks for at most the grace.
   */
  void stopAll() {
    long deadline = System.nanoTime() + killGrace.toNanos();
    for (ProcessHandle h : List.copyOf(spawned)) {
      h.destroy();
    }
    // isAlive, re-checked every few ms: onExit of a grandchild is polled by the JDK with growing
    // intervals, which would stretch every shutdown to the whole grace period.
    while (spawned.stream().anyMatch(ProcessTrees::isRunning) && System.nanoTime() < deadline) {
      LockSupport.parkNanos(5_000_000);
    }
    for (ProcessHandle h : List.copyOf(spawned)) {
      if (isRunning(h)) {
        LOG.warn("process {} ignored SIGTERM for {}; killing it", h.pid(), killGrace);
        h.destroyForcibly();
      }
      spawned.remove(h);
    }
  }

  /**
   * Whether the process still runs. A zombie does not: an orphaned descendant that exited waits
   * for its new parent (often PID 1) to reap it, and {@link ProcessHandle#isAlive()} says true
   * until then.
   */
  static boolean isRunning(ProcessHandle h) {
    if (!h.isAlive()) {
      return false;
    }
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(h.pid()), "stat"));
      // "pid (comm) S ...": the state follows the last ')' (comm may contain one).
      int close = stat.lastIndexOf(')');
      return close < 0 || close + 2 >= stat.length() || stat.charAt(close + 2) != 'Z';
    } catch (IOException | RuntimeException e) {
      return h.isAlive();
    }
  }
}
