package io.locus.workloads.wf;

import io.locus.core.model.InputFile;
import io.locus.schemas.limits.FileIds;
import io.locus.workloads.TraceDag;
import io.locus.workloads.TraceJob;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Turns a {@link WfWorkflow} into Locus trace jobs, one per task, in a topological order.
 * IllegalArgumentException for a file id that the scheduler and the agents would refuse once
 * prefixed ({@link FileIds}).
 *
 * <ul>
 *   <li>job id {@code <instance>/<taskId>}; file ids {@code <instance>/<fileId>}, so two instances
 *       never share a file;
 *   <li>{@code arrival} 0 for every task: the DAG orders them ({@code parents}, prefixed);
 *   <li>{@code computeSeconds} = recorded runtime × time scale;
 *   <li>{@code inputs}: the files the task reads, with their sizes. A file no task writes is a
 *       workflow input, read from storage ({@link io.locus.workloads.TraceFiles#storageInputs});
 *       one a parent writes is in that
 *       parent's node cache once it has run;
 *   <li>{@code outputs}: the files the task writes;
 *   <li>{@code attributes}: {@code workflow} (the instance's name), and where the instance has them
 *       {@code name}, {@code category} and {@code type}.
 * </ul>
 *
 * <p>Order: Kahn's algorithm, taking among the ready tasks the smallest id first, so the order is
 * deterministic and independent of the file's task order.
 */
public final class WfJobs {
  private WfJobs() {}

  /** The jobs of one instance, prefixed with {@code instance}, in topological order. */
  public static List<TraceJob> jobs(WfWorkflow wf, String instance, double timeScale) {
    Map<String, WfTask> byId = new HashMap<>();
    for (WfTask t : wf.tasks()) {
      byId.put(t.id(), t);
    }
    List<TraceJob> jobs = new ArrayList<>(wf.tasks().size());
    for (String id : order(wf.tasks())) {
      WfTask t = byId.get(id);
      Map<String, String> attrs = new LinkedHashMap<>();
      attrs.put("workflow", wf.name());
      if (t.name() != null && !t.name().equals(t.id())) {
        attrs.put("name", t.name());
      }
      if (t.category() != null) {
        attrs.put("category", t.category());
      }
      if (t.type() != null) {
        attrs.put("type", t.type());
      }
      jobs.add(new TraceJob(instance + "/" + id, null, 0.0, files(wf, instance, t.inputs()),
          t.runtimeSeconds() * timeScale, 0, attrs, null,
          t.parents().stream().map(p -> instance + "/" + p).toList(),
          files(wf, instance, t.outputs()), null, List.of()));
    }
    return jobs;
  }

  private static List<InputFile> files(WfWorkflow wf, String instance, List<String> ids) {
    List<InputFile> out = new ArrayList<>(ids.size());
    for (String f : ids) {
      Long size = wf.fileSizes().get(f);
      if (size == null) {
        throw new IllegalArgumentException("workflow " + wf.name() + ": file '" + f
            + "' has no size");
      }
      String id = instance + "/" + f;
      String bad = FileIds.problem(id);
      if (bad != null) {
        // The reader checked f; the prefix can still make it longer than an agent stores.
        throw new IllegalArgumentException("workflow " + wf.name() + ": file id " + bad);
      }
      out.add(InputFile.of(id, size));
    }
    return out;
  }

  /**
   * Task ids in topological order (Kahn, smallest ready id first). IllegalArgumentException for an
   * unknown parent or a cycle.
   */
  public static List<String> order(List<WfTask> tasks) {
    Map<String, Integer> missing = new HashMap<>();
    Map<String, List<String>> children = new HashMap<>();
    for (WfTask t : tasks) {
      missing.put(t.id(), t.parents().size());
    }
    for (WfTask t : tasks) {
      for (String p : t.parents()) {
        if (!missing.containsKey(p)) {
          throw new IllegalArgumentException("task '" + t.id() + "': unknown parent '" + p + "'");
        }
        children.computeIfAbsent(p, k -> new ArrayList<>()).add(t.id());
      }
    }
    PriorityQueue<String> ready = new PriorityQueue<>();
    missing.forEach((id, n) -> {
      if (n == 0) {
        ready.add(id);
      }
    });
    List<String> order = new ArrayList<>(tasks.size());
    while (!ready.isEmpty()) {
      String id = ready.poll();
      order.add(id);
      for (String c : children.getOrDefault(id, List.of())) {
        if (missing.merge(c, -1, Integer::sum) == 0) {
          ready.add(c);
        }
      }
    }
    if (order.size() != tasks.size()) {
      throw new IllegalArgumentException("the tasks form a cycle: "
          + String.join(" -> ", cycle(tasks)));
    }
    return order;
  }

  /**
   * One cycle of the graph as task ids, first id repeated at the end ({@code a -> b -> a}); empty
   * if the graph is acyclic. Parents that are not tasks are ignored here.
   */
  public static List<String> cycle(List<WfTask> tasks) {
    Map<String, List<String>> parents = new LinkedHashMap<>();
    for (WfTask t : tasks) {
      parents.put(t.id(), t.parents());
    }
    return TraceDag.cycle(parents);
  }
}
