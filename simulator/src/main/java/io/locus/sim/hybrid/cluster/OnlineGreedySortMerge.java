package io.locus.sim.hybrid.cluster;

import io.locus.core.hybrid.ComplementaryPlace;
import io.locus.core.model.Resource;
import io.locus.workloads.HybridJob;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * GREEDY_SORT_MERGE online (§2.4, event-driven) with the cluster-mode node choice (§2.5). Waiting
 * jobs sit in one {@link TreeSet} per resource (demand descending, submission order ascending);
 * the persistent pointer visits the lists' heads round robin. A head hits if it fits on at least
 * one node, and goes to the node {@link NodeChoice} picks; otherwise it is a miss. The round ends
 * after |R| consecutive misses.
 *
 * <p>D14 aging: a job that has waited more than {@code agingSeconds} moves to the head of every
 * list (aged jobs among themselves in submission order). Infinity turns aging off (thesis mode).
 */
public final class OnlineGreedySortMerge implements OnlineScheduler {
  /** D14: 10 minutes, as the core's COMPLEMENTARY_PLACE pools age their tasks. */
  public static final double DEFAULT_AGING_SECONDS = ComplementaryPlace.DEFAULT_AGING_SECONDS;

  private final List<Resource> order;
  private final NodeChoice choice;
  private final double agingSeconds;
  private final List<TreeSet<HybridJob>> lists = new ArrayList<>();
  /** Waiting, not yet aged jobs in submission order (the oldest age first). */
  private final TreeMap<Long, HybridJob> young = new TreeMap<>();
  private final TreeMap<Long, HybridJob> aged = new TreeMap<>();
  private int ptr;

  public OnlineGreedySortMerge() {
    this(Resource.CLUSTER_ORDER, NodeChoice.COMPLEMENTARY, DEFAULT_AGING_SECONDS);
  }

  public OnlineGreedySortMerge(List<Resource> order, NodeChoice choice, double agingSeconds) {
    if (order.isEmpty()) {
      throw new IllegalArgumentException("at least one resource list is needed");
    }
    if (!(agingSeconds > 0)) {
      throw new IllegalArgumentException("aging must be > 0 seconds (infinity: off), got "
          + agingSeconds);
    }
    this.order = List.copyOf(order);
    this.choice = choice;
    this.agingSeconds = agingSeconds;
    for (Resource r : this.order) {
      lists.add(new TreeSet<>(byDemand(r)));
    }
  }

  static Comparator<HybridJob> byDemand(Resource r) {
    return Comparator.comparingDouble((HybridJob j) -> -j.demand().get(r))
        .thenComparingLong(HybridJob::seq);
  }

  @Override
  public String name() {
    return choice == NodeChoice.COMPLEMENTARY ? "GREEDY_SORT_MERGE" : "GREEDY_SORT_MERGE/" + choice;
  }

  /** The list the pointer designates next. */
  public Resource pointer() {
    return order.get(ptr);
  }

  @Override
  public void arrive(HybridJob job) {
    if (young.putIfAbsent(job.seq(), job) != null || aged.containsKey(job.seq())) {
      throw new IllegalArgumentException("submission sequence " + job.seq() + " already waiting");
    }
    for (TreeSet<HybridJob> l : lists) {
      l.add(job);
    }
  }

  @Override
  public int waiting() {
    return young.size() + aged.size();
  }

  @Override
  public List<Start> dispatch(HybridCluster cluster, double now) {
    age(now);
    List<Start> starts = new ArrayList<>();
    int misses = 0;
    while (misses < order.size() && waiting() > 0) {
      HybridJob h = aged.isEmpty() ? lists.get(ptr).first() : aged.firstEntry().getValue();
      HybridCluster.Node k = choice.choose(cluster, h.demand());
      if (k != null) {
        cluster.start(h.id(), k.id(), h.demand());
        remove(h);
        starts.add(new Start(h, k.id()));
        misses = 0;
      } else {
        misses++;
      }
      ptr = (ptr + 1) % order.size();
    }
    return starts;
  }

  private void age(double now) {
    while (!young.isEmpty() && now - young.firstEntry().getValue().arrival() > agingSeconds) {
      HybridJob j = young.pollFirstEntry().getValue();
      for (TreeSet<HybridJob> l : lists) {
        l.remove(j);
      }
      aged.put(j.seq(), j);
    }
  }

  private void remove(HybridJob j) {
    if (aged.remove(j.seq()) == null) {
      young.remove(j.seq());
      for (TreeSet<HybridJob> l : lists) {
        l.remove(j);
      }
    }
  }
}
