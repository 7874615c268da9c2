package io.locus.core.share;

import io.locus.core.model.Ids;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * What replacing one queue tree by another changes, queue by queue in {@link Ids#ORDER}: the text a
 * {@code locus queues apply --dry-run} prints. An empty diff means applying is a no-op.
 */
public record QueueTreeDiff(List<Change> changes) {
  public QueueTreeDiff {
    changes = List.copyOf(changes);
  }

  /** One queue added, removed, or changed in some fields. */
  public record Change(String queue, Kind kind, List<String> details) {
    public Change {
      details = List.copyOf(details);
    }

    /** "+ queue 'a' (parent -, weight 1, ...)", "- queue 'b'", "~ queue 'c': weight 1 -> 2". */
    public String describe() {
      return switch (kind) {
        case ADDED -> "+ queue '" + queue + "' (" + details.get(0) + ")";
        case REMOVED -> "- queue '" + queue + "'";
        case CHANGED -> "~ queue '" + queue + "': " + String.join("; ", details);
      };
    }
  }

  public enum Kind { ADDED, REMOVED, CHANGED }

  public boolean isEmpty() {
    return changes.isEmpty();
  }

  /** One line per change. */
  public List<String> describe() {
    List<String> out = new ArrayList<>();
    for (Change c : changes) {
      out.add(c.describe());
    }
    return out;
  }

  static QueueTreeDiff between(QueueTree before, QueueTree after) {
    TreeSet<String> names = new TreeSet<>(Ids.ORDER);
    names.addAll(before.specs().keySet());
    names.addAll(after.specs().keySet());
    List<Change> out = new ArrayList<>();
    for (String n : names) {
      QueueSpec a = before.specs().get(n);
      QueueSpec b = after.specs().get(n);
      if (a == null) {
        out.add(new Change(n, Kind.ADDED, List.of(b.describe())));
      } else if (b == null) {
        out.add(new Change(n, Kind.REMOVED, List.of()));
      } else if (!a.equals(b)) {
        out.add(new Change(n, Kind.CHANGED, fields(a, b)));
      }
    }
    return new QueueTreeDiff(out);
  }

  private static List<String> fields(QueueSpec a, QueueSpec b) {
    List<String> d = new ArrayList<>();
    field(d, "parent", a.parent(), b.parent());
    field(d, "weight", QueueSpec.num(a.weight()), QueueSpec.num(b.weight()));
    field(d, "guaranteed", a.guaranteedSlots(), b.guaranteedSlots());
    field(d, "limit", limit(a.limitSlots()), limit(b.limitSlots()));
    field(d, "lending limit", a.lendingLimitSlots(), b.lendingLimitSlots());
    field(d, "cache guaranteed", a.cacheGuaranteeBytes(), b.cacheGuaranteeBytes());
    field(d, "cache limit", a.cacheLimitBytes(), b.cacheLimitBytes());
    field(d, "max wait", a.maxWaitSeconds(), b.maxWaitSeconds());
    return d;
  }

  private static String limit(int l) {
    return l == QueueSpec.UNLIMITED ? "none" : String.valueOf(l);
  }

  private static void field(List<String> d, String what, Object a, Object b) {
    if (!Objects.equals(a, b)) {
      d.add(what + " " + (a == null ? "-" : a) + " -> " + (b == null ? "-" : b));
    }
  }
}
