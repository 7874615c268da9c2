package io.locus.core.share;

import io.locus.core.model.Ids;
import io.locus.core.model.Task;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A pool's queues as an immutable, checked tree. Built only from a configuration that passes every
 * check ({@link #build}: otherwise a {@link QueueConfigException} with every reason, and nothing is
 * built), so a tree in hand is always valid.
 *
 * <p><b>The default queue.</b> Every pool has a leaf queue named {@value #DEFAULT}: declared in the
 * configuration (to give it a weight, a guarantee or a limit; it may not have children) or added
 * with no guarantee and no limit. A job that names no queue runs in it. A pool whose configuration
 * declares nothing else has only this queue ({@link #isDefaultOnly}): fair share then picks the
 * same task as the pool's queue order alone, so a pool without queues decides as before.
 *
 * <p><b>A job naming a queue that is not a leaf of its pool is refused</b>, with the reason
 * ({@link #resolve}): an unknown queue, or a parent queue (jobs run in leaves, as in YuniKorn).
 * Routing it to the default queue instead would hide a typo and charge the job to a queue its
 * owner never chose; Kueue likewise leaves a workload whose LocalQueue does not exist
 * inadmissible, and Slurm rejects a job naming an unknown account or partition.
 */
public final class QueueTree {
  /** The name of every pool's default queue. */
  public static final String DEFAULT = "default";

  private static final QueueTree DEFAULT_ONLY = build(List.of(), -1);

  private final Map<String, QueueSpec> specs;
  private final Map<String, List<String>> children;
  private final List<String> leaves;

  private QueueTree(Map<String, QueueSpec> specs) {
    this.specs = specs;
    Map<String, List<String>> kids = new TreeMap<>(Ids.ORDER);
    for (QueueSpec s : specs.values()) {
      kids.computeIfAbsent(s.name(), k -> new ArrayList<>());
      if (s.parent() != null) {
        kids.computeIfAbsent(s.parent(), k -> new ArrayList<>()).add(s.name());
      }
    }
    List<String> top = new ArrayList<>();
    for (QueueSpec s : specs.values()) {
      if (s.parent() == null) {
        top.add(s.name());
      }
    }
    Map<String, List<String>> frozen = new LinkedHashMap<>();
    for (Map.Entry<String, List<String>> e : kids.entrySet()) {
      List<String> l = new ArrayList<>(e.getValue());
      l.sort(Ids.ORDER);
      frozen.put(e.getKey(), List.copyOf(l));
    }
    top.sort(Ids.ORDER);
    frozen.put(null, List.copyOf(top));
    this.children = Collections.unmodifiableMap(frozen);
    List<String> lv = new ArrayList<>();
    for (String n : specs.keySet()) {
      if (children.get(n).isEmpty()) {
        lv.add(n);
      }
    }
    this.leaves = List.copyOf(lv);
  }

  /**
   * The tree of {@code specs}, checked against a pool of {@code poolSlots} slots (negative when the
   * pool's size is not known or changes: then only the queues' own guarantees are checked).
   *
   * @throws QueueConfigException with every problem found, when there is any
   */
  public static QueueTree build(List<QueueSpec> specs, int poolSlots) {
    List<String> problems = QueueTreeCheck.problems(specs, poolSlots);
    if (!problems.isEmpty()) {
      throw new QueueConfigException(problems);
    }
    Map<String, QueueSpec> byName = new TreeMap<>(Ids.ORDER);
    for (QueueSpec s : specs) {
      byName.put(s.name(), s);
    }
    byName.putIfAbsent(DEFAULT, QueueSpec.defaultQueue());
    return new QueueTree(Collections.unmodifiableMap(byName));
  }

  /** Every problem of {@code specs} without building anything (a dry run); empty when valid. */
  public static List<String> problems(List<QueueSpec> specs, int poolSlots) {
    return QueueTreeCheck.problems(specs, poolSlots);
  }

  /** The tree of a pool that configures no queue: the default queue alone. */
  public static QueueTree defaultOnly() {
    return DEFAULT_ONLY;
  }

  /** True when the pool has no queue but its default one. */
  public boolean isDefaultOnly() {
    return specs.size() == 1;
  }

  /** Every queue's spec by name, in {@link Ids#ORDER}, the implicit default queue included. */
  public Map<String, QueueSpec> specs() {
    return specs;
  }

  public boolean contains(String name) {
    return name != null && specs.containsKey(name);
  }

  public QueueSpec spec(String name) {
    QueueSpec s = specs.get(name);
    if (s == null) {
      throw new IllegalArgumentException("no queue '" + name + "'");
    }
    return s;
  }

  /** The parent's name, or null for a top-level queue. */
  public String parent(String name) {
    return spec(name).parent();
  }

  /** The children of {@code name} in {@link Ids#ORDER}; {@code null} gives the top-level queues. */
  public List<String> children(String name) {
    List<String> c = children.get(name);
    if (c == null) {
      throw new IllegalArgumentException("no queue '" + name + "'");
    }
    return c;
  }

  public boolean isLeaf(String name) {
    return children(name).isEmpty();
  }

  /** The leaf queues (those jobs run in), in {@link Ids#ORDER}. */
  public List<String> leaves() {
    return leaves;
  }

  /** {@code name} and its ancestors, the top-level queue first. */
  public List<String> lineage(String name) {
    List<String> l = new ArrayList<>();
    for (String at = name; at != null; at = parent(at)) {
      l.add(at);
    }
    Collections.reverse(l);
    return l;
  }

  /** The queue's path from the pool, "root.eng.ml" (YuniKorn's notation; names have no dot). */
  public String path(String name) {
    return "root." + String.join(".", lineage(name));
  }

  /**
   * The leaf queue a job naming {@code requested} runs in: null or blank means the default queue;
   * a name that is not a leaf of this tree is refused with the reason (see the class comment).
   */
  public Resolution resolve(String requested) {
    if (requested == null || requested.isBlank()) {
      return new Resolution(DEFAULT, null);
    }
    if (!specs.containsKey(requested)) {
      String shown = requested.length() > 80 ? requested.substring(0, 80) + "..." : requested;
      return new Resolution(null, "unknown queue '" + shown + "' (this pool's queues: "
          + String.join(", ", leaves) + ")");
    }
    if (!isLeaf(requested)) {
      return new Resolution(null, "queue '" + requested + "' has child queues; a job runs in one "
          + "of them: " + String.join(", ", children(requested)));
    }
    return new Resolution(requested, null);
  }

  /** The leaf queue of {@code task}; a task whose queue is refused is a caller's bug here. */
  public String leafOf(Task task) {
    Resolution r = resolve(task.queue());
    if (!r.ok()) {
      throw new IllegalArgumentException("task " + task.taskId() + ": " + r.refusal());
    }
    return r.queue();
  }

  /** What applying {@code next} in place of this tree changes (for a dry run). */
  public QueueTreeDiff diff(QueueTree next) {
    return QueueTreeDiff.between(this, next);
  }

  /** Where a job's queue name leads: a leaf queue, or a refusal with its reason. */
  public record Resolution(String queue, String refusal) {
    public boolean ok() {
      return refusal == null;
    }
  }
}
