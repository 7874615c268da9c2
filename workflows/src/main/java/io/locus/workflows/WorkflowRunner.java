package io.locus.workflows;

import io.locus.connectors.functions.ParseAndValidate;
import io.locus.connectors.records.LocusTypes;
import io.locus.core.model.PendingCode;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobState;
import io.locus.schemas.JobStatus;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.WorkflowFailurePolicy;
import io.locus.schemas.WorkflowState;
import io.locus.schemas.WorkflowStatus;
import io.locus.schemas.WorkflowSubmitted;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.internal.RawRecord;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Runs workflows to completion inside the scheduler job, keyed by workflow id. It assembles a
 * submission's parts ({@code workflows}), refuses an invalid one ({@link WorkflowDag}: dead
 * letter {@code invalid-workflow} naming the part, job or cycle, and {@code REFUSED}; nothing is
 * released), and runs a valid one: roots go to {@code job-arrivals} at once (main output, with
 * {@code workflow} set), every other job is {@code WAITING} on {@code job-status} (pending code
 * {@code parents}, naming the parents it still waits for) until its last parent is COMPLETED. A
 * job FAILED or CANCELLED for good applies the workflow's {@code onFailure}: FAIL_DESCENDANTS
 * fails every job below it, FAIL_WORKFLOW every job not yet released. {@code workflow-status}
 * gets the workflow's state and counts after every record that changed them.
 *
 * <p><b>The Kafka loop.</b> The runner learns that a job completed from the scheduler's own
 * {@code job-status} output, read back from Kafka: the scheduler operator writes it, a source of
 * this same job reads it. Flink 2 has no iterations (the DataStream iteration API was removed),
 * and a feedback edge inside the graph could not be checkpointed anyway; Kafka is the loop. It
 * also means the scheduler needs no knowledge of workflows: a released job is an ordinary
 * arrival. Exactly-once here means: with exactly-once delivery the released jobs, the WAITING and
 * FAILED statuses and the workflow statuses are written in the checkpoint's Kafka transaction,
 * and the job-status source's offsets are in the same checkpoint as this state, read with
 * {@code read_committed}. After a restore, the state and the source position go back together,
 * the job-status records after that position are read again, and the outputs they cause are
 * written again in place of the ones whose transaction was aborted: every job is released once.
 * Each hop through Kafka waits for a checkpoint to commit, so a DAG level costs about two
 * checkpoint intervals of latency. With at-least-once delivery a job may be released twice after
 * a restore (the scheduler dead-letters the second arrival as {@code duplicate-job}).
 *
 * <p>Every transition is idempotent: only a RELEASED job of a RUNNING workflow moves, and only to
 * a final state, so a job-status record delivered twice, the scheduler's intermediate states
 * (QUEUED, PLACED, RUNNING), and this runner's own WAITING and FAILED records coming back through
 * the loop change nothing. Every time written is a record's time (the part's submitTimeMs, the
 * job-status record's timeMs; never decreasing), never the wall clock, so a replay of the same
 * input writes the same output. When several jobs change at once, they are written in submission
 * order.
 *
 * <p>State (RocksDB-friendly: a completion reads and writes a few entries, not the DAG): the
 * workflow's {@link WorkflowMeta}; the parts received while assembling; per job a
 * {@link JobNode}; the definitions of jobs not yet released. A finished workflow keeps only its
 * meta, so its id stays taken.
 */
public class WorkflowRunner extends KeyedProcessFunction<String, RawRecord, JobSubmitted> {
  private static final long serialVersionUID = 1L;

  /** WAITING (not released) and FAILED (by the failure policy) transitions of workflow jobs. */
  public static final OutputTag<JobStatus> JOB_STATUS =
      new OutputTag<>("workflow-job-status", WorkflowTypes.JOB_STATUS);
  public static final OutputTag<WorkflowStatus> WORKFLOW_STATUS =
      new OutputTag<>("workflow-status", WorkflowTypes.WORKFLOW_STATUS);
  /** Refused submissions ({@code invalid-workflow}). */
  public static final OutputTag<DeadLetter> DEAD_LETTERS =
      new OutputTag<>("workflow-dead-letters", LocusTypes.DEAD_LETTER);

  /** Most parent names a WAITING reason lists. */
  static final int MAX_NAMED = 10;

  private transient ValueState<WorkflowMeta> meta;
  private transient MapState<Integer, WorkflowSubmitted> parts;
  private transient MapState<String, JobNode> nodes;
  private transient MapState<String, JobSubmitted> definitions;

  @Override
  public void open(OpenContext openContext) {
    meta = getRuntimeContext().getState(
        new ValueStateDescriptor<>("workflow", WorkflowTypes.META));
    parts = getRuntimeContext().getMapState(
        new MapStateDescriptor<>("parts", Types.INT, WorkflowTypes.WORKFLOW_SUBMITTED));
    nodes = getRuntimeContext().getMapState(
        new MapStateDescriptor<>("jobs", Types.STRING, WorkflowTypes.NODE));
    definitions = getRuntimeContext().getMapState(
        new MapStateDescriptor<>("definitions", Types.STRING, WorkflowTypes.JOB_SUBMITTED));
  }

  @Override
  public void processElement(RawRecord raw, Context ctx, Collector<JobSubmitted> out)
      throws Exception {
    WorkflowSubmitted part = WorkflowInputs.part(raw);
    if (part != null) {
      onPart(part, raw, ctx, out);
    } else {
      onStatus(WorkflowInputs.status(raw), ctx, out);
    }
  }

  // ---- submission ----

  private void onPart(WorkflowSubmitted part, RawRecord raw, Context ctx,
      Collector<JobSubmitted> out) throws Exception {
    WorkflowMeta m = meta.value();
    if (m != null && !WorkflowMeta.ASSEMBLING.equals(m.state)) {
      // No REFUSED status: that key holds the earlier workflow's status, which stays true.
      ctx.output(DEAD_LETTERS, ParseAndValidate.deadLetter(raw, DeadLetterCodes.INVALID_WORKFLOW,
          "invalid workflow " + WorkflowDag.quote(part.getWorkflowId()) + ": the id was"
              + " submitted before (that workflow is " + m.state + "); a workflow id is used once",
          raw.getTimestampMs()));
      return;
    }
    String problem = WorkflowDag.headerProblem(part);
    if (problem == null && m != null) {
      problem = WorkflowDag.partProblem(
          new WorkflowDag.Header(m.parts, m.onFailure, m.submitTimeMs, m.requestId), part);
    }
    if (m == null) {
      m = new WorkflowMeta();
      m.workflowId = part.getWorkflowId();
      m.state = WorkflowMeta.ASSEMBLING;
      m.parts = part.getParts();
      m.onFailure = part.getOnFailure().name();
      m.submitTimeMs = part.getSubmitTimeMs();
      m.requestId = part.getRequestId();
    }
    m.timeMs = Math.max(m.timeMs, part.getSubmitTimeMs());
    if (problem == null && parts.contains(part.getPart())) {
      if (parts.get(part.getPart()).equals(part)) {
        return; // the same part delivered again
      }
      problem = "part " + part.getPart() + " arrived twice with different contents";
    }
    if (problem != null) {
      refuse(m, problem, raw, ctx);
      return;
    }
    parts.put(part.getPart(), part);
    m.partsReceived++;
    if (m.partsReceived < m.parts) {
      meta.update(m);
      status(m, "parts " + m.partsReceived + " of " + m.parts + " received", ctx);
      return;
    }
    List<WorkflowSubmitted> all = new ArrayList<>();
    for (int i = 0; i < m.parts; i++) {
      all.add(parts.get(i));
    }
    parts.clear();
    WorkflowDag.Result r = WorkflowDag.build(m.workflowId, all);
    if (r.refusal() != null) {
      refuse(m, r.refusal(), raw, ctx);
    } else {
      start(m, r.dag(), ctx, out);
    }
  }

  private void refuse(WorkflowMeta m, String reason, RawRecord raw, Context ctx)
      throws Exception {
    parts.clear();
    m.state = WorkflowMeta.REFUSED;
    m.reason = reason;
    meta.update(m);
    ctx.output(DEAD_LETTERS, ParseAndValidate.deadLetter(raw, DeadLetterCodes.INVALID_WORKFLOW,
        "invalid workflow " + WorkflowDag.quote(m.workflowId) + ": " + reason,
        raw.getTimestampMs()));
    status(m, reason, ctx);
  }

  private void start(WorkflowMeta m, WorkflowDag.Dag dag, Context ctx,
      Collector<JobSubmitted> out) throws Exception {
    m.state = WorkflowMeta.RUNNING;
    m.jobs = dag.jobs().size();
    List<JobSubmitted> roots = new ArrayList<>();
    int index = 0;
    for (JobSubmitted job : dag.jobs()) {
      JobNode n = new JobNode();
      n.pool = job.getPool();
      n.index = index++;
      n.parents = WorkflowDag.Dag.parents(job).toArray(String[]::new);
      n.children = dag.children().getOrDefault(job.getJobId(), List.of())
          .toArray(String[]::new);
      n.missing = n.parents.length;
      n.priority = job.getPriority();
      n.submitTimeMs = job.getSubmitTimeMs();
      if (n.missing == 0) {
        n.state = JobNode.WAITING; // released below, after every node is in state
        roots.add(job);
      } else {
        n.state = JobNode.WAITING;
        definitions.put(job.getJobId(), job);
        ctx.output(JOB_STATUS, jobStatus(m, job.getJobId(), n, JobState.WAITING,
            waitingReason(Arrays.asList(n.parents)), PendingCode.PARENTS.code()));
      }
      m.waiting++;
      nodes.put(job.getJobId(), n);
    }
    for (JobSubmitted root : roots) {
      release(m, root, nodes.get(root.getJobId()), out);
    }
    finishOrReport(m, ctx);
  }

  // ---- progress ----

  private void onStatus(JobStatus s, Context ctx, Collector<JobSubmitted> out) throws Exception {
    WorkflowMeta m = meta.value();
    if (m == null || !WorkflowMeta.RUNNING.equals(m.state)) {
      return; // an unknown workflow, or one that ended: nothing can change
    }
    JobNode n = nodes.get(s.getJobId());
    if (n == null || !JobNode.RELEASED.equals(n.state) || !n.pool.equals(s.getPool())) {
      return; // not ours, not released (our own WAITING/FAILED echo), or already final
    }
    JobState state = s.getState();
    if (state != JobState.COMPLETED && state != JobState.FAILED
        && state != JobState.CANCELLED) {
      return;
    }
    m.timeMs = Math.max(m.timeMs, s.getTimeMs());
    m.released--;
    if (state == JobState.COMPLETED) {
      n.state = JobNode.COMPLETED;
      m.completed++;
      nodes.put(s.getJobId(), n);
      completed(m, n, ctx, out);
    } else {
      n.state = JobNode.FAILED;
      m.failed++;
      nodes.put(s.getJobId(), n);
      String what = state == JobState.CANCELLED ? "was cancelled" : "failed";
      String cause = "job " + WorkflowDag.quote(s.getJobId()) + " " + what
          + (s.getReason().isEmpty() ? "" : ": " + s.getReason());
      if (m.reason == null) {
        m.reason = cause;
      }
      if (WorkflowFailurePolicy.FAIL_WORKFLOW.name().equals(m.onFailure)) {
        failUnreleased(m, cause, ctx);
      } else {
        failDescendants(m, s.getJobId(), n, what, s.getReason(), ctx);
      }
    }
    finishOrReport(m, ctx);
  }

  /** Releases the children {@code n} was the last missing parent of; updates the others. */
  private void completed(WorkflowMeta m, JobNode n, Context ctx, Collector<JobSubmitted> out)
      throws Exception {
    for (String childId : n.children) {
      JobNode c = nodes.get(childId);
      if (!JobNode.WAITING.equals(c.state)) {
        continue; // failed by an earlier parent's failure
      }
      c.missing--;
      if (c.missing == 0) {
        release(m, definitions.get(childId), c, out);
      } else {
        nodes.put(childId, c);
        ctx.output(JOB_STATUS, jobStatus(m, childId, c, JobState.WAITING,
            waitingReason(unfinished(c)), PendingCode.PARENTS.code()));
      }
    }
  }

  /** FAIL_DESCENDANTS: every job below {@code failedId} that is not final fails, nearest first. */
  private void failDescendants(WorkflowMeta m, String failedId, JobNode failed, String what,
      String reason, Context ctx) throws Exception {
    String cause = WorkflowDag.quote(failedId) + " " + what
        + (reason.isEmpty() ? "" : ": " + reason);
    ArrayDeque<String[]> todo = new ArrayDeque<>(); // {job, "parent" or "ancestor"}
    for (String c : failed.children) {
      todo.add(new String[] {c, "parent"});
    }
    while (!todo.isEmpty()) {
      String[] next = todo.poll();
      JobNode c = nodes.get(next[0]);
      if (!JobNode.WAITING.equals(c.state)) {
        continue; // already failed through another path
      }
      fail(m, next[0], c, next[1] + " " + cause, ctx);
      for (String grandchild : c.children) {
        todo.add(new String[] {grandchild, "ancestor"});
      }
    }
  }

  /** FAIL_WORKFLOW: every job not released yet fails, in submission order. */
  private void failUnreleased(WorkflowMeta m, String cause, Context ctx) throws Exception {
    List<Map.Entry<String, JobNode>> waiting = new ArrayList<>();
    for (Map.Entry<String, JobNode> e : nodes.entries()) {
      if (JobNode.WAITING.equals(e.getValue().state)) {
        waiting.add(Map.entry(e.getKey(), e.getValue()));
      }
    }
    waiting.sort(Comparator.comparingInt(e -> e.getValue().index));
    for (Map.Entry<String, JobNode> e : waiting) {
      fail(m, e.getKey(), e.getValue(), "workflow failed (fail-workflow): " + cause, ctx);
    }
  }

  private void fail(WorkflowMeta m, String jobId, JobNode n, String reason, Context ctx)
      throws Exception {
    n.state = JobNode.FAILED;
    m.waiting--;
    m.failed++;
    nodes.put(jobId, n);
    definitions.remove(jobId);
    ctx.output(JOB_STATUS, jobStatus(m, jobId, n, JobState.FAILED, reason, null));
  }

  private void release(WorkflowMeta m, JobSubmitted job, JobNode n,
      Collector<JobSubmitted> out) throws Exception {
    n.state = JobNode.RELEASED;
    m.waiting--;
    m.released++;
    nodes.put(job.getJobId(), n);
    definitions.remove(job.getJobId());
    out.collect(JobSubmitted.newBuilder(job)
        .setWorkflow(m.workflowId)
        // submitted when it was released, by the record that released it (never earlier than
        // its own time): a pool's clock and a response time count from here
        .setSubmitTimeMs(Math.max(job.getSubmitTimeMs(), m.timeMs))
        .build());
  }

  /** Ends the workflow when no job can move any more; publishes its status either way. */
  private void finishOrReport(WorkflowMeta m, Context ctx) throws Exception {
    if (m.waiting == 0 && m.released == 0) {
      m.state = m.failed == 0 ? WorkflowMeta.SUCCEEDED : WorkflowMeta.FAILED;
      nodes.clear();
      definitions.clear();
    }
    meta.update(m);
    status(m, m.reason == null ? "" : m.reason, ctx);
  }

  // ---- records ----

  private List<String> unfinished(JobNode n) throws Exception {
    List<String> open = new ArrayList<>();
    for (String p : n.parents) {
      if (!JobNode.COMPLETED.equals(nodes.get(p).state)) {
        open.add(p);
      }
    }
    return open;
  }

  static String waitingReason(List<String> parents) {
    StringBuilder b = new StringBuilder("waiting for parent");
    b.append(parents.size() == 1 ? " " : "s ");
    for (int i = 0; i < parents.size() && i < MAX_NAMED; i++) {
      b.append(i == 0 ? "" : ", ").append(parents.get(i));
    }
    if (parents.size() > MAX_NAMED) {
      b.append(" and ").append(parents.size() - MAX_NAMED).append(" more");
    }
    return b.toString();
  }

  private static JobStatus jobStatus(WorkflowMeta m, String jobId, JobNode n, JobState state,
      String reason, String pendingCode) {
    return JobStatus.newBuilder()
        .setPool(n.pool)
        .setJobId(jobId)
        .setWorkflow(m.workflowId)
        .setState(state)
        .setReason(reason)
        .setPendingCode(pendingCode)
        .setPriority(n.priority)
        .setSubmitTimeMs(n.submitTimeMs)
        .setEndTimeMs(state == JobState.FAILED ? m.timeMs : 0)
        .setTimeMs(m.timeMs)
        .build();
  }

  private static void status(WorkflowMeta m, String reason, Context ctx) {
    WorkflowState state = switch (m.state) {
      case WorkflowMeta.SUCCEEDED -> WorkflowState.SUCCEEDED;
      case WorkflowMeta.FAILED -> WorkflowState.FAILED;
      case WorkflowMeta.REFUSED -> WorkflowState.REFUSED;
      default -> WorkflowState.RUNNING;
    };
    ctx.output(WORKFLOW_STATUS, WorkflowStatus.newBuilder()
        .setWorkflowId(m.workflowId)
        .setState(state)
        .setReason(reason)
        .setJobs(m.jobs)
        .setWaiting(m.waiting)
        .setReleased(m.released)
        .setCompleted(m.completed)
        .setFailed(m.failed)
        .setTimeMs(m.timeMs)
        .setRequestId(m.requestId)
        .build());
  }
}
