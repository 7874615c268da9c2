package io.locus.operators;

import io.locus.core.model.ResourceVector;
import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.InputFetch;
import io.locus.core.model.Task;
import io.locus.core.state.NodeView;
import io.locus.core.state.RunningTask;
import io.locus.schemas.FetchSource;
import io.locus.schemas.InputPlan;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.PlacementReason;
import io.locus.schemas.ResourceProfile;
import io.locus.schemas.state.NodeState;
import io.locus.schemas.state.TaskState;
import java.util.ArrayList;
import java.util.List;

/**
 * Between the core's plain records and the Avro records on topics and in keyed state.
 *
 * <p>The builders here set every field, defaults included: a field left unset makes Avro's
 * {@code build()} look up and deep-copy its schema default, which was about 8 % of the operator's
 * time per placement (issue 13's profile).
 */
public final class Conversions {
  private Conversions() {}

  public static double seconds(long ms) {
    return ms / 1000.0;
  }

  public static long millis(double seconds) {
    return Math.round(seconds * 1000.0);
  }

  /**
   * A non-splittable job becomes one task with the job's id, attempt 0, in the job's queue (null:
   * the pool's default queue). The task's state keeps the job, queue included, so a restored task
   * is in its queue again (issue 24: the fair-share placement reads it).
   */
  public static Task toTask(JobSubmitted job, long seq) {
    List<InputFile> inputs = new ArrayList<>(job.getInputs().size());
    for (io.locus.schemas.DataUnit u : job.getInputs()) {
      inputs.add(new InputFile(u.getId(), u.getBytes(), u.getComputeSeconds(), u.getLocation(),
          u.getChecksum()));
    }
    return new Task(job.getJobId(), job.getJobId(), 0, seq, inputs, job.getComputeSeconds(),
        seconds(job.getSubmitTimeMs()), job.getTemplate(), job.getArgs(), job.getPriority(),
        profile(job.getProfile()), files(job.getOutputs())).withQueue(job.getQueue());
  }

  static List<InputFile> files(List<io.locus.schemas.DataUnit> units) {
    List<InputFile> files = new ArrayList<>(units.size());
    for (io.locus.schemas.DataUnit u : units) {
      files.add(new InputFile(u.getId(), u.getBytes(), u.getComputeSeconds(), u.getLocation(),
          u.getChecksum()));
    }
    return files;
  }

  static List<io.locus.schemas.DataUnit> units(List<InputFile> files) {
    List<io.locus.schemas.DataUnit> units = new ArrayList<>(files.size());
    for (InputFile u : files) {
      units.add(new io.locus.schemas.DataUnit(u.id(), u.bytes(), u.computeSeconds(), u.location(),
          u.checksum()));
    }
    return units;
  }

  /**
   * A job's profile as the core's vector: cpu → CPU, io → DISK (read + write, D1), mem → MEM,
   * net → NET. Null stays null (the policy's cold start).
   */
  public static ResourceVector profile(ResourceProfile p) {
    return p == null ? null : new ResourceVector(p.getCpu(), p.getMem(), p.getIo(), p.getNet());
  }

  public static ResourceProfile profile(ResourceVector v) {
    return v == null ? null : new ResourceProfile(v.cpu(), v.disk(), v.mem(), v.net());
  }

  public static JobSubmitted toJob(String pool, Task t) {
    List<io.locus.schemas.DataUnit> inputs = new ArrayList<>(t.inputs().size());
    for (InputFile u : t.inputs()) {
      inputs.add(new io.locus.schemas.DataUnit(u.id(), u.bytes(), u.computeSeconds(), u.location(),
          u.checksum()));
    }
    return JobSubmitted.newBuilder()
        .setJobId(t.jobId())
        .setPool(pool)
        .setSubmitTimeMs(millis(t.submitTime()))
        .setInputs(inputs)
        .setComputeSeconds(t.computeSeconds())
        .setPriority(t.priority())
        .setTemplate(t.template())
        .setArgs(new ArrayList<>(t.args()))
        .setProfile(profile(t.profile()))
        .setSplittable(false)
        .setEvents(null)
        .setOutputs(units(t.outputs()))
        .setQueue(t.queue())
        .build();
  }

  public static TaskState toState(String pool, Task t, RunningTask r) {
    return TaskState.newBuilder()
        .setSeq(t.seq())
        .setAttempt(t.attempt())
        .setJob(toJob(pool, t))
        .setNode(r == null ? null : r.node())
        .setDecisionId(r == null ? null : r.decisionId())
        .setStartedAtMs(r == null ? 0 : millis(r.startTime()))
        .setPeers(r == null ? new ArrayList<>() : new ArrayList<>(r.peers()))
        .setStarted(r != null && r.started())
        .build();
  }

  public static Task fromState(TaskState s) {
    return toTask(s.getJob(), s.getSeq()).withAttempt(s.getAttempt());
  }

  public static RunningTask runningFromState(TaskState s) {
    return new RunningTask(fromState(s), s.getNode(), s.getDecisionId(),
        seconds(s.getStartedAtMs()), s.getPeers(), s.getStarted());
  }

  public static NodeState toState(NodeView n) {
    return NodeState.newBuilder()
        .setNode(n.id())
        .setSlots(n.slots())
        .setCacheCapacityBytes(n.cacheCapacity())
        .setDraining(n.draining())
        .setLastCacheSeq(n.lastCacheSeq())
        .setRegisteredAtMs(millis(n.registeredAt()))
        .setEndpoint(n.endpoint())
        .setFreeSeq(n.freeSeq())
        .setQueueDepth(n.queueDepth())
        .setLastSeenMs(0)
        .build();
  }

  public static NodeView fromState(NodeState s) {
    return NodeView.restore(s.getNode(), s.getSlots(), s.getCacheCapacityBytes(), s.getDraining(),
        s.getLastCacheSeq(), seconds(s.getRegisteredAtMs()), s.getEndpoint(), s.getFreeSeq(),
        s.getQueueDepth());
  }

  /** A file-family placement (decision ids and envelopes come from {@link Decisions}). */
  public static PlaceTask toPlaceTask(Command.Run run) {
    List<InputPlan> plans = new ArrayList<>(run.inputs().size());
    for (InputFetch f : run.inputs()) {
      plans.add(InputPlan.newBuilder()
          .setFileId(f.unit().id())
          .setBytes(f.unit().bytes())
          .setSource(FetchSource.valueOf(f.source().name()))
          .setPeerNode(f.peer())
          .setLocation(f.unit().location())
          .setChecksum(f.unit().checksum())
          .setCache(f.cache())
          .setStorageNode(f.reservation() == null ? -1 : f.reservation().storageNode())
          .setReservedStartMs(f.reservation() == null ? -1 : millis(f.reservation().start()))
          .setReservedEndMs(f.reservation() == null ? -1 : millis(f.reservation().end()))
          .build());
    }
    Task t = run.task();
    return PlaceTask.newBuilder()
        .setTaskId(t.taskId())
        .setJobId(t.jobId())
        .setAttempt(t.attempt())
        .setInputs(plans)
        .setComputeSeconds(t.totalComputeSeconds())
        .setTemplate(t.template())
        .setArgs(new ArrayList<>(t.args()))
        .setSubmitTimeMs(millis(t.submitTime()))
        .setPlannedCompletionMs(run.hasPlannedCompletion() ? millis(run.plannedCompletion()) : -1)
        .setEvents(null)
        .setEventSegments(new ArrayList<>())
        .setOutputs(units(t.outputs()))
        .setReason(PlacementReason.newBuilder()
            .setPolicy(run.reason().policy())
            .setScore(run.reason().score())
            .setLocalBytes(run.reason().localBytes())
            .setPeerBytes(run.reason().peerBytes())
            .setStorageBytes(run.reason().storageBytes())
            .build())
        .build();
  }

  /** The pool's counters (in the core) from the stored scalars. */
  public static void restoreCounters(io.locus.core.state.PoolState.Counters c,
      io.locus.schemas.state.PoolMeta m) {
    c.placements = m.getPlacements();
    c.completions = m.getCompletions();
    c.failures = m.getFailures();
    c.bytesLocal = m.getBytesLocal();
    c.bytesPeer = m.getBytesPeer();
    c.bytesStorage = m.getBytesStorage();
    c.stagingTransfers = m.getStagingTransfers();
    c.replicationTransfers = m.getReplicationTransfers();
  }

  /** The stored scalars from the pool's counters. */
  public static void saveCounters(io.locus.core.state.PoolState.Counters c,
      io.locus.schemas.state.PoolMeta m) {
    m.setPlacements(c.placements);
    m.setCompletions(c.completions);
    m.setFailures(c.failures);
    m.setBytesLocal(c.bytesLocal);
    m.setBytesPeer(c.bytesPeer);
    m.setBytesStorage(c.bytesStorage);
    m.setStagingTransfers(c.stagingTransfers);
    m.setReplicationTransfers(c.replicationTransfers);
  }
}
