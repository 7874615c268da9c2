package io.locus.sim.hybrid.epoch;

import io.locus.core.model.Resource;
import io.locus.core.model.ResourceVector;
import io.locus.workloads.HybridJob;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The per-resource lists of the epoch schedulers: each list holds every job sorted by that
 * resource's demand, descending, ties by submission order (stable, D3). A dispatched job is marked
 * done and skipped lazily (equivalent to removing it from every list, §2.1).
 */
final class SortedLists {
  /** Per list, positions into {@link #bySeq}. */
  private final int[][] lists;
  private final int[] head;
  private final HybridJob[] bySeq;
  private final boolean[] done;
  private int remaining;

  SortedLists(List<HybridJob> jobs, List<Resource> order) {
    this(jobs, order, false);
  }

  /** One list in plain submission order (FIFO_HEAD). */
  static SortedLists submissionOrder(List<HybridJob> jobs) {
    return new SortedLists(jobs, List.of(Resource.CPU), true);
  }

  private SortedLists(List<HybridJob> jobs, List<Resource> order, boolean unsorted) {
    bySeq = jobs.toArray(new HybridJob[0]);
    Arrays.sort(bySeq, Comparator.comparingLong(HybridJob::seq));
    for (int i = 1; i < bySeq.length; i++) {
      if (bySeq[i].seq() == bySeq[i - 1].seq()) {
        throw new IllegalArgumentException("jobs " + bySeq[i - 1].id() + " and " + bySeq[i].id()
            + " share submission sequence " + bySeq[i].seq());
      }
    }
    lists = new int[order.size()][];
    head = new int[order.size()];
    done = new boolean[bySeq.length];
    remaining = bySeq.length;
    for (int l = 0; l < order.size(); l++) {
      lists[l] = unsorted ? identity() : sortedBy(order.get(l));
    }
  }

  /** Positions sorted DESC by {@code r}, ties by submission order (a stable sort of seq order). */
  private int[] sortedBy(Resource r) {
    Integer[] pos = new Integer[bySeq.length];
    for (int i = 0; i < pos.length; i++) {
      pos[i] = i;
    }
    Arrays.sort(pos, (a, b) -> Double.compare(bySeq[b].demand().get(r), bySeq[a].demand().get(r)));
    int[] out = new int[pos.length];
    for (int i = 0; i < pos.length; i++) {
      out[i] = pos[i];
    }
    return out;
  }

  private int[] identity() {
    int[] out = new int[bySeq.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = i;
    }
    return out;
  }

  int size() {
    return lists.length;
  }

  boolean anyLeft() {
    return remaining > 0;
  }

  /** The first not-done job of list {@code l} (head only), or -1 when the list is exhausted. */
  int head(int l) {
    int[] list = lists[l];
    while (head[l] < list.length && done[list[head[l]]]) {
      head[l]++;
    }
    return head[l] < list.length ? list[head[l]] : -1;
  }

  /** The first not-done job of list {@code l} that fits {@code cap} (backfilling), or -1. */
  int firstFitting(int l, ResourceVector cap) {
    int[] list = lists[l];
    for (int i = head(l) < 0 ? list.length : head[l]; i < list.length; i++) {
      int p = list[i];
      if (!done[p] && bySeq[p].demand().fitsIn(cap)) {
        return p;
      }
    }
    return -1;
  }

  HybridJob job(int p) {
    return bySeq[p];
  }

  void markDone(int p) {
    if (!done[p]) {
      done[p] = true;
      remaining--;
    }
  }
}
