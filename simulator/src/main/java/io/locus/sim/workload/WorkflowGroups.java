package io.locus.sim.workload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which jobs form one workflow, for {@link JobFeeder.OnFailure#FAIL_WORKFLOW}: the connected
 * components of the parent graph (the jobs one WfCommons instance, or one DAG of a trace, links),
 * grown as jobs arrive and name their parents, and which of them failed.
 *
 * <p>Why components and not a field: a trace job has no workflow id, and the jobs a DAG links are
 * what a submitter groups into one {@code WorkflowSubmitted}. A union-find (path halving) keeps a
 * look-up near constant; only jobs with parents and those parents ever enter it, so a workload
 * without a DAG costs nothing.
 */
final class WorkflowGroups {
  /** id → the next id towards its component's root; a root has no entry. */
  private final Map<String, String> link = new HashMap<>();
  /** root → why its workflow failed ("X failed", "X cancelled"). */
  private final Map<String, String> failed = new HashMap<>();

  /** {@code child} names {@code parent}: one workflow from now on (failed if either was). */
  void join(String child, String parent) {
    String a = root(child);
    String b = root(parent);
    if (a.equals(b)) {
      return;
    }
    link.put(a, b);
    String why = failed.remove(a);
    if (why != null) {
      failed.putIfAbsent(b, why);
    }
  }

  /** {@code jobId}'s workflow fails because of {@code why}; false if it had failed already. */
  boolean fail(String jobId, String why) {
    return failed.putIfAbsent(root(jobId), why) == null;
  }

  /** Why {@code jobId}'s workflow failed, or null while it has not. */
  String failure(String jobId) {
    return failed.isEmpty() ? null : failed.get(root(jobId));
  }

  /** The ids among {@code ids} in {@code jobId}'s workflow. */
  List<String> sameWorkflow(String jobId, Iterable<String> ids) {
    String r = root(jobId);
    List<String> out = new ArrayList<>();
    for (String id : ids) {
      if (root(id).equals(r)) {
        out.add(id);
      }
    }
    return out;
  }

  private String root(String id) {
    String x = id;
    String next;
    while ((next = link.get(x)) != null) {
      String up = link.get(next);
      if (up != null) {
        link.put(x, up); // path halving
      }
      x = up != null ? up : next;
    }
    return x;
  }
}
