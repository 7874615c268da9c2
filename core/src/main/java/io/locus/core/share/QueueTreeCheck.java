package io.locus.core.share;

import io.locus.core.model.Ids;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The checks a queue configuration must pass before a {@link QueueTree} is built from it. Every
 * problem is reported (not only the first), each naming the queue and the numbers involved, in the
 * specs' order then the tree checks' order, so the same input always gives the same text.
 */
final class QueueTreeCheck {
  private QueueTreeCheck() {}

  /** Every problem of {@code specs} (the implicit default queue included), empty when none. */
  static List<String> problems(List<QueueSpec> specs, int poolSlots) {
    List<String> out = new ArrayList<>();
    Map<String, QueueSpec> byName = new LinkedHashMap<>();
    Map<String, Integer> firstIndex = new HashMap<>();
    for (int i = 0; i < specs.size(); i++) {
      QueueSpec s = specs.get(i);
      if (s == null) {
        out.add("spec " + (i + 1) + " is empty");
        continue;
      }
      String nameProblem = QueueNames.problem(s.name());
      if (nameProblem != null) {
        out.add(nameProblem);
        continue;
      }
      if (firstIndex.containsKey(s.name())) {
        out.add("queue '" + s.name() + "' is declared twice (specs " + (firstIndex.get(s.name()) + 1)
            + " and " + (i + 1) + ")");
        continue;
      }
      firstIndex.put(s.name(), i);
      byName.put(s.name(), s);
      fields(s, out);
    }
    byName.putIfAbsent(QueueTree.DEFAULT, QueueSpec.defaultQueue());
    Set<String> inCycle = parents(byName, out);
    sums(byName, inCycle, poolSlots, out);
    return out;
  }

  /** The checks of one spec on its own. */
  private static void fields(QueueSpec s, List<String> out) {
    String q = "queue '" + s.name() + "': ";
    if (!(s.weight() > 0) || Double.isInfinite(s.weight())) {
      out.add(q + "weight must be a finite number > 0, got " + s.weight());
    }
    if (s.guaranteedSlots() < 0) {
      out.add(q + "guaranteed slots must be >= 0, got " + s.guaranteedSlots());
    }
    if (s.limitSlots() < 0) {
      out.add(q + "limit must be >= 0, got " + s.limitSlots());
    } else if (s.guaranteedSlots() > s.limitSlots()) {
      out.add(q + "guarantee " + s.guaranteedSlots() + " is above its limit " + s.limitSlots());
    }
    Integer lend = s.lendingLimitSlots();
    if (lend != null && lend < 0) {
      out.add(q + "lending limit must be >= 0, got " + lend);
    } else if (lend != null && lend > s.guaranteedSlots()) {
      out.add(q + "lending limit " + lend + " is above its guarantee " + s.guaranteedSlots()
          + " (a queue lends only what it is guaranteed)");
    }
    Long cg = s.cacheGuaranteeBytes();
    Long cl = s.cacheLimitBytes();
    if (cg != null && cg < 0) {
      out.add(q + "cache guarantee must be >= 0 bytes, got " + cg);
    }
    if (cl != null && cl < 0) {
      out.add(q + "cache limit must be >= 0 bytes, got " + cl);
    }
    if (cg != null && cl != null && cg >= 0 && cl >= 0 && cg > cl) {
      out.add(q + "cache guarantee " + cg + " B is above its cache limit " + cl + " B");
    }
    Double w = s.maxWaitSeconds();
    if (w != null && (!(w > 0) || w.isInfinite())) {
      out.add(q + "max wait must be a finite number of seconds > 0, got " + w);
    }
  }

  /** Unknown parents, a parent that is the default queue, and cycles; returns the queues in one. */
  private static Set<String> parents(Map<String, QueueSpec> byName, List<String> out) {
    for (QueueSpec s : byName.values()) {
      if (s.parent() == null) {
        continue;
      }
      if (!byName.containsKey(s.parent())) {
        out.add("queue '" + s.name() + "': parent '" + s.parent() + "' is not a queue");
      } else if (s.parent().equals(QueueTree.DEFAULT)) {
        out.add("queue '" + s.name() + "': the default queue '" + QueueTree.DEFAULT
            + "' cannot have children (jobs without a queue run in it)");
      }
    }
    Set<String> inCycle = new HashSet<>();
    Set<String> reported = new HashSet<>();
    for (String start : byName.keySet()) {
      // Follow parents from start; a walk longer than the number of queues has looped.
      List<String> walk = new ArrayList<>();
      String at = start;
      while (at != null && byName.containsKey(at) && walk.size() <= byName.size()) {
        int seen = walk.indexOf(at);
        if (seen >= 0) {
          List<String> cycle = walk.subList(seen, walk.size());
          inCycle.addAll(cycle);
          TreeSet<String> key = new TreeSet<>(Ids.ORDER);
          key.addAll(cycle);
          if (reported.add(String.join(",", key))) {
            out.add("queues form a cycle: " + cycleText(cycle));
          }
          break;
        }
        walk.add(at);
        at = byName.get(at).parent();
      }
    }
    return inCycle;
  }

  /** "a -> b -> a", starting at the cycle's lowest name so the text does not depend on the walk. */
  private static String cycleText(List<String> cycle) {
    int lo = 0;
    for (int i = 1; i < cycle.size(); i++) {
      if (Ids.compare(cycle.get(i), cycle.get(lo)) < 0) {
        lo = i;
      }
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i <= cycle.size(); i++) {
      b.append(i == 0 ? "" : " -> ").append(cycle.get((lo + i) % cycle.size()));
    }
    return b.toString() + " (each queue's parent is the next)";
  }

  /** Children's guarantees within their parent's (or the pool's), children's limits within theirs. */
  private static void sums(Map<String, QueueSpec> byName, Set<String> inCycle, int poolSlots,
      List<String> out) {
    Map<String, Long> childGuarantees = new LinkedHashMap<>();
    long topGuarantees = 0;
    for (QueueSpec s : byName.values()) {
      if (inCycle.contains(s.name())) {
        continue;
      }
      if (s.parent() == null) {
        topGuarantees += Math.max(0, s.guaranteedSlots());
        continue;
      }
      QueueSpec p = byName.get(s.parent());
      if (p == null) {
        continue;
      }
      childGuarantees.merge(p.name(), (long) Math.max(0, s.guaranteedSlots()), Long::sum);
      if (p.limitSlots() >= 0 && s.limitSlots() > p.limitSlots()) {
        out.add("queue '" + s.name() + "': limit " + limitText(s.limitSlots())
            + " is above its parent '" + p.name() + "''s limit " + p.limitSlots());
      }
    }
    for (Map.Entry<String, Long> e : childGuarantees.entrySet()) {
      QueueSpec p = byName.get(e.getKey());
      if (e.getValue() > p.guaranteedSlots()) {
        out.add("children of '" + p.name() + "' guarantee " + e.getValue()
            + " slots, more than its own guarantee of " + p.guaranteedSlots());
      }
    }
    if (poolSlots >= 0 && topGuarantees > poolSlots) {
      out.add("top-level queues guarantee " + topGuarantees + " slots, more than the pool's "
          + poolSlots);
    }
  }

  private static String limitText(int limit) {
    return limit == QueueSpec.UNLIMITED ? "none" : String.valueOf(limit);
  }
}
