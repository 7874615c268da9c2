package io.locus.core.policy;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.share.QueueTree;
import io.locus.core.state.PoolState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * A tiny discrete-event driver of a real {@link Scheduler} for the queue tests: tasks run exactly
 * their compute seconds, the node then caches what the task read (an agent's cache delta), and
 * the scheduler is dispatched once per instant (spec D1), also at the wake-ups of heads it holds
 * for locality.
 */
final class QueuePool {
  final Scheduler s;
  final List<Command.Run> runs = new ArrayList<>();
  final Map<String, Double> started = new HashMap<>();
  private final PriorityQueue<Object[]> ends =
      new PriorityQueue<>(Comparator.comparingDouble((Object[] e) -> (double) e[0])
          .thenComparing(e -> ((Command.Run) e[1]).task().taskId()));
  private final PriorityQueue<Task> arrivals =
      new PriorityQueue<>(Comparator.comparingDouble(Task::submitTime).thenComparingLong(Task::seq));
  private final Map<String, Long> cacheSeq = new HashMap<>();
  double now;
  /** Called after every dispatch, with the time. */
  java.util.function.DoubleConsumer probe = t -> {};

  QueuePool(String policy, QueueTree tree, int nodes, int slots) {
    s = new Scheduler("p", new PoolState(), Policies.create(policy, Map.of()));
    s.setQueues(tree);
    for (int i = 0; i < nodes; i++) {
      s.applyNodeRegistered(node(i), slots, 1L << 50, null, 0);
    }
  }

  static String node(int i) {
    return String.format("n%02d", i);
  }

  static Task task(String id, long seq, String queue, double submit, double compute, String file) {
    return new Task(id, id, 0, seq, List.of(InputFile.of(file, 1_000_000_000L)), compute, submit,
        null, List.of(), 0, null, List.of(), queue);
  }

  void cache(String node, String file) {
    long seq = cacheSeq.merge(node, 1L, Long::sum);
    s.applyCacheDelta(node, seq, Map.of(file, 1_000_000_000L), List.of());
  }

  void submit(Task t) {
    arrivals.add(t);
  }

  /** Runs events until {@code until} (or nothing is left). */
  void runUntil(double until) {
    while (true) {
      double next = Double.POSITIVE_INFINITY;
      if (!ends.isEmpty()) {
        next = (double) ends.peek()[0];
      }
      if (!arrivals.isEmpty()) {
        next = Math.min(next, arrivals.peek().submitTime());
      }
      double wake = s.nextQueueWakeup();
      if (!Double.isNaN(wake) && wake > now) {
        next = Math.min(next, wake);
      }
      if (next > until || next == Double.POSITIVE_INFINITY) {
        return;
      }
      now = next;
      while (!ends.isEmpty() && (double) ends.peek()[0] == now) {
        Command.Run r = (Command.Run) ends.poll()[1];
        s.applyTaskCompleted(r.task().taskId(), r.task().attempt(), r.node(),
            r.reason().localBytes(), r.reason().peerBytes(), r.reason().storageBytes());
        for (InputFile f : r.task().inputs()) {
          cache(r.node(), f.id());
        }
      }
      while (!arrivals.isEmpty() && arrivals.peek().submitTime() == now) {
        s.applyJobArrival(arrivals.poll());
      }
      for (Command c : s.dispatch(now)) {
        if (c instanceof Command.Run r) {
          runs.add(r);
          started.put(r.task().taskId(), now);
          ends.add(new Object[] {now + r.task().computeSeconds(), r});
        }
      }
      probe.accept(now);
    }
  }

  /** Placements of queue {@code q}'s tasks that found all their bytes on the node. */
  double localShare(String q) {
    long all = runs.stream().filter(r -> q.equals(r.task().queue())).count();
    long local = runs.stream().filter(r -> q.equals(r.task().queue()))
        .filter(r -> r.reason().score() >= 1.0).count();
    return all == 0 ? Double.NaN : (double) local / all;
  }

  double localShare() {
    return runs.isEmpty() ? Double.NaN
        : (double) runs.stream().filter(r -> r.reason().score() >= 1.0).count() / runs.size();
  }
}
