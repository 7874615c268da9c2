package io.locus.core.share;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What each queue is entitled to at one decision, in slots: its effective guarantee and its fair
 * share. Split from {@link FairShare}, which orders the queues; this only computes the amounts.
 */
final class Entitlements {
  private final QueueTree tree;
  private final int slots;
  private final Map<String, Integer> demand;
  private final Map<String, Double> guarantee = new HashMap<>();
  private final Map<String, Double> fair = new HashMap<>();

  /** {@code demand}: each queue's running + pending, its subtree's for a parent. */
  Entitlements(QueueTree tree, int slots, Map<String, Integer> demand) {
    this.tree = tree;
    this.slots = slots;
    this.demand = demand;
    guarantees(null, slots);
    fairShares(null, slots);
  }

  double guarantee(String q) {
    return guarantee.get(q);
  }

  double fairShare(String q) {
    return fair.get(q);
  }

  /** Effective guarantees: scaled down with the siblings' when they exceed what the parent has. */
  private void guarantees(String parent, double available) {
    List<String> kids = tree.children(parent);
    double sum = 0;
    for (String c : kids) {
      sum += tree.spec(c).guaranteedSlots();
    }
    double scale = sum <= available || sum == 0 ? 1.0 : available / sum;
    for (String c : kids) {
      double g = tree.spec(c).guaranteedSlots() * scale;
      guarantee.put(c, g);
      guarantees(c, g);
    }
  }

  /**
   * Weighted max-min fair shares of the active children of {@code parent} within {@code amount}
   * slots: each gets clamp(λ·weight, its guarantee, its demand capped by its limit), with λ the
   * level at which the shares fill {@code amount} (or everyone's demand, when that is less).
   */
  private void fairShares(String parent, double amount) {
    List<String> kids = tree.children(parent);
    List<String> active = new ArrayList<>();
    for (String c : kids) {
      fair.put(c, 0.0);
      if (demand.getOrDefault(c, 0) > 0) {
        active.add(c);
      }
    }
    double capSum = 0;
    double floorSum = 0;
    double minW = Double.POSITIVE_INFINITY;
    for (String c : active) {
      capSum += cap(c);
      floorSum += Math.min(guarantee.get(c), cap(c));
      minW = Math.min(minW, tree.spec(c).weight());
    }
    for (String c : active) {
      double share;
      if (capSum <= amount) {
        share = cap(c);
      } else if (floorSum >= amount) {
        share = floorSum == 0 ? 0 : Math.min(guarantee.get(c), cap(c)) * amount / floorSum;
      } else {
        share = clamp(level(active, amount, minW), c);
      }
      fair.put(c, share);
    }
    for (String c : kids) {
      if (!tree.isLeaf(c)) {
        fairShares(c, fair.get(c));
      }
    }
  }

  /** λ with Σ clamp(λ·w) = amount, by bisection: monotone, and exact enough for shares of slots. */
  private double level(List<String> active, double amount, double minW) {
    double lo = 0;
    double hi = amount / minW;
    for (int i = 0; i < 100; i++) {
      double mid = (lo + hi) / 2;
      double sum = 0;
      for (String c : active) {
        sum += clamp(mid, c);
      }
      if (sum < amount) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
    return hi;
  }

  private double clamp(double lambda, String q) {
    double c = cap(q);
    double f = Math.min(guarantee.get(q), c);
    return Math.max(f, Math.min(c, lambda * tree.spec(q).weight()));
  }

  /** A queue's demand (running + pending) capped by its limit and the pool. */
  private double cap(String q) {
    return Math.min((double) demand.getOrDefault(q, 0), Math.min(tree.spec(q).limitSlots(), slots));
  }

}
