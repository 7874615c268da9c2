package io.locus.workflows;

import io.locus.connectors.functions.Validation;
import io.locus.connectors.functions.Violation;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.WorkflowFailurePolicy;
import io.locus.schemas.WorkflowSubmitted;
import io.locus.schemas.limits.Limits;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What a usable workflow is, without Flink: the rules a submission's parts must agree on, and the
 * DAG its jobs form (each job valid by the same rules as a job submitted alone, ids unique,
 * parents inside the workflow, no cycle). Every refusal is one sentence naming the part, the
 * job or the cycle, because it becomes the dead letter's and the {@code REFUSED} status's reason
 * that {@code locus replay} prints.
 */
public final class WorkflowDag {
  /** Most parts of one submission: with parts of ~512 KiB, a 512 MiB workflow. */
  public static final int MAX_PARTS = 1024;
  /** Most jobs of one workflow: its state (one entry per job) stays bounded. */
  public static final int MAX_JOBS = 100_000;
  private static final int MAX_QUOTED = 80;

  private WorkflowDag() {}

  /**
   * A valid DAG: its jobs in submission order (part 0's first) and, per job id, the ids of the
   * jobs that name it as a parent, in submission order.
   */
  public record Dag(List<JobSubmitted> jobs, Map<String, List<String>> children) {
    /** A job's distinct parents, in the order it names them. */
    public static List<String> parents(JobSubmitted job) {
      return List.copyOf(new LinkedHashSet<>(job.getParents()));
    }
  }

  /** Either a {@link Dag} or the reason the workflow is refused. */
  public record Result(Dag dag, String refusal) {
    static Result refused(String reason) {
      return new Result(null, reason);
    }
  }

  /**
   * What is wrong with one part on its own (its numbering, time or failure policy), or null. The
   * workflow id is checked before keying (an id that is no id has no state to refuse it in).
   */
  public static String headerProblem(WorkflowSubmitted part) {
    if (part.getParts() < 1 || part.getParts() > MAX_PARTS) {
      return "parts " + part.getParts() + " is out of range [1, " + MAX_PARTS + "]";
    }
    if (part.getPart() < 0 || part.getPart() >= part.getParts()) {
      return "part " + part.getPart() + " is out of range [0, " + (part.getParts() - 1) + "]";
    }
    if (part.getSubmitTimeMs() < 0 || part.getSubmitTimeMs() > Limits.MAX_TIME_MS) {
      // it becomes the release time of the roots, hence a pool's clock
      return "submitTimeMs " + part.getSubmitTimeMs() + " is out of range [0, "
          + Limits.MAX_TIME_MS + "]";
    }
    if (part.getOnFailure() == WorkflowFailurePolicy.UNKNOWN) {
      return "onFailure is UNKNOWN: say FAIL_DESCENDANTS or FAIL_WORKFLOW";
    }
    return null;
  }

  /**
   * What makes {@code part} disagree with the first part received of the same workflow, or null:
   * every part repeats the submission's header (parts, onFailure, submitTimeMs, requestId).
   */
  public static String partProblem(Header first, WorkflowSubmitted part) {
    String at = "part " + part.getPart() + " ";
    if (part.getParts() != first.parts()) {
      return at + "says the workflow has " + part.getParts() + " parts, an earlier part says "
          + first.parts();
    }
    if (!part.getOnFailure().name().equals(first.onFailure())) {
      return at + "says onFailure " + part.getOnFailure() + ", an earlier part says "
          + first.onFailure();
    }
    if (part.getSubmitTimeMs() != first.submitTimeMs()) {
      return at + "says submitTimeMs " + part.getSubmitTimeMs() + ", an earlier part says "
          + first.submitTimeMs();
    }
    String rid = part.getRequestId();
    if (rid == null ? first.requestId() != null : !rid.equals(first.requestId())) {
      return at + "says requestId " + quote(rid) + ", an earlier part says "
          + quote(first.requestId());
    }
    return null;
  }

  /** The fields every part of a submission repeats. */
  public record Header(int parts, String onFailure, long submitTimeMs, String requestId) {
    public static Header of(WorkflowSubmitted part) {
      return new Header(part.getParts(), part.getOnFailure().name(), part.getSubmitTimeMs(),
          part.getRequestId());
    }
  }

  /**
   * The DAG of a complete submission ({@code parts} in part order, already agreeing), or the
   * first rule it breaks: no job; too many; a job invalid by {@link Validation#jobSubmitted}; a
   * job that names another workflow; a duplicate job id; a parent not in the workflow; a cycle.
   */
  public static Result build(String workflowId, List<WorkflowSubmitted> parts) {
    List<JobSubmitted> jobs = new ArrayList<>();
    for (WorkflowSubmitted p : parts) {
      jobs.addAll(p.getJobs());
    }
    if (jobs.isEmpty()) {
      return Result.refused("the workflow has no jobs");
    }
    if (jobs.size() > MAX_JOBS) {
      return Result.refused("the workflow has " + jobs.size() + " jobs, more than the limit of "
          + MAX_JOBS);
    }
    Map<String, JobSubmitted> byId = new HashMap<>();
    for (JobSubmitted job : jobs) {
      // Reused, not copied: a job of a workflow is released to the scheduler as is, so it must
      // pass the scheduler's own rules (a job that would be dead-lettered there stalls the DAG).
      Optional<Violation> bad = Validation.jobSubmitted(job, null);
      if (bad.isPresent()) {
        return Result.refused("job " + quote(job.getJobId()) + ": " + bad.get().reason());
      }
      if (job.getWorkflow() != null && !job.getWorkflow().equals(workflowId)) {
        return Result.refused("job " + quote(job.getJobId()) + " names workflow "
            + quote(job.getWorkflow()) + ", not " + quote(workflowId));
      }
      if (byId.putIfAbsent(job.getJobId(), job) != null) {
        return Result.refused("duplicate job id " + quote(job.getJobId()));
      }
    }
    Map<String, List<String>> children = new HashMap<>();
    for (JobSubmitted job : jobs) {
      for (String parent : Dag.parents(job)) {
        if (!byId.containsKey(parent)) {
          return Result.refused("job " + quote(job.getJobId()) + " names parent "
              + quote(parent) + ", which is not a job of this workflow");
        }
        children.computeIfAbsent(parent, k -> new ArrayList<>()).add(job.getJobId());
      }
    }
    String cycle = cycle(jobs, byId, children);
    if (cycle != null) {
      return Result.refused("cycle: " + cycle);
    }
    return new Result(new Dag(List.copyOf(jobs), children), null);
  }

  /**
   * One cycle, as {@code a → b → a} (parent before child), or null. Kahn's algorithm removes every
   * job that is not on or below a cycle; every job left has a parent left, so walking parents
   * from the first one left (submission order, first parent named) must come back to a job
   * already walked: that loop is a cycle, and the same one on every run.
   */
  private static String cycle(List<JobSubmitted> jobs, Map<String, JobSubmitted> byId,
      Map<String, List<String>> children) {
    Map<String, Integer> missing = new HashMap<>();
    ArrayDeque<String> ready = new ArrayDeque<>();
    for (JobSubmitted job : jobs) {
      int n = Dag.parents(job).size();
      missing.put(job.getJobId(), n);
      if (n == 0) {
        ready.add(job.getJobId());
      }
    }
    Set<String> done = new HashSet<>();
    while (!ready.isEmpty()) {
      String id = ready.poll();
      done.add(id);
      for (String child : children.getOrDefault(id, List.of())) {
        if (missing.merge(child, -1, Integer::sum) == 0) {
          ready.add(child);
        }
      }
    }
    if (done.size() == jobs.size()) {
      return null;
    }
    String at = jobs.stream().map(JobSubmitted::getJobId).filter(id -> !done.contains(id))
        .findFirst().orElseThrow();
    List<String> walk = new ArrayList<>();
    Map<String, Integer> seenAt = new HashMap<>();
    while (!seenAt.containsKey(at)) {
      seenAt.put(at, walk.size());
      walk.add(at);
      at = Dag.parents(byId.get(at)).stream().filter(p -> !done.contains(p)).findFirst()
          .orElseThrow();
    }
    // walked child → parent from the job found twice; said parent → child, from that job
    List<String> walked = walk.subList(seenAt.get(at), walk.size());
    List<String> loop = new ArrayList<>(walked.subList(1, walked.size()));
    Collections.reverse(loop);
    loop.add(0, at);
    loop.add(at);
    return String.join(" → ", loop.stream().map(WorkflowDag::quote).toList());
  }

  /** A value quoted for a reason: cut to 80 chars, control characters shown as '?'. */
  static String quote(String value) {
    if (value == null) {
      return "null";
    }
    String cut = value.length() > MAX_QUOTED ? value.substring(0, MAX_QUOTED) + "..." : value;
    return "'" + cut.replaceAll("\\p{Cntrl}", "?") + "'";
  }
}
