package io.locus.operators;

import io.locus.schemas.ControlAck;
import io.locus.schemas.Decision;
import io.locus.schemas.JobStatus;
import io.locus.schemas.NodeStatus;
import io.locus.schemas.ScaleRequest;
import io.locus.schemas.codec.DeadLetterCodes;
import java.util.ArrayList;
import java.util.List;

/**
 * What one input of a pool produced, for {@link SchedulerOperator} to emit: decisions (to the
 * agents, in order), rejections (why the input, or part of it, was not applied: dead letters) and
 * scale requests (dynamic provisioning, for an external autoscaler), the scheduler's verdicts
 * about nodes ({@link NodeVerdicts}), the jobs' transitions ({@link JobStatuses}, to job-status)
 * and, for a control record, its acknowledgement.
 */
public final class PoolOutput {
  /** Why an input (or part of it) was not applied: a {@link DeadLetterCodes} code and a reason. */
  public record Rejection(String code, String reason) {}

  private final List<Decision> decisions = new ArrayList<>();
  private final List<Rejection> rejections = new ArrayList<>();
  private final List<Rejection> discards = new ArrayList<>();
  private final List<ScaleRequest> scaleRequests = new ArrayList<>();
  private final List<ControlAck> acks = new ArrayList<>();
  private final List<NodeStatus> verdicts = new ArrayList<>();
  private final List<JobStatus> statuses = new ArrayList<>();

  public static PoolOutput of(List<Decision> decisions) {
    PoolOutput o = new PoolOutput();
    o.decisions.addAll(decisions);
    return o;
  }

  public static PoolOutput rejected(String reason) {
    return new PoolOutput().reject(reason);
  }

  public static PoolOutput rejected(String code, String reason) {
    return new PoolOutput().reject(code, reason);
  }

  public PoolOutput decide(Decision d) {
    decisions.add(d);
    return this;
  }

  /** A rejection of code {@link DeadLetterCodes#REJECTED}: valid, but cannot apply now. */
  public PoolOutput reject(String reason) {
    return reject(DeadLetterCodes.REJECTED, reason);
  }

  public PoolOutput reject(String code, String reason) {
    rejections.add(new Rejection(code, reason));
    return this;
  }

  /**
   * A dead letter for something an earlier input left in the pool's state and this input's
   * processing drops (a remembered early completion); the input itself was applied, so this is
   * not one of its {@link #rejections}.
   */
  public PoolOutput discard(String code, String reason) {
    discards.add(new Rejection(code, reason));
    return this;
  }

  public PoolOutput scale(ScaleRequest r) {
    scaleRequests.add(r);
    return this;
  }

  public PoolOutput ack(ControlAck a) {
    acks.add(a);
    return this;
  }

  /** A verdict about a node (to node-status), in the order they were made. */
  public PoolOutput verdict(NodeStatus s) {
    verdicts.add(s);
    return this;
  }

  /** A job's transition (to job-status), in the order they were made. */
  public PoolOutput status(JobStatus s) {
    statuses.add(s);
    return this;
  }

  /** Appends another output's contents after this one's. */
  public PoolOutput add(PoolOutput o) {
    decisions.addAll(o.decisions);
    rejections.addAll(o.rejections);
    discards.addAll(o.discards);
    scaleRequests.addAll(o.scaleRequests);
    acks.addAll(o.acks);
    verdicts.addAll(o.verdicts);
    statuses.addAll(o.statuses);
    return this;
  }

  public List<Decision> decisions() {
    return decisions;
  }

  public List<Rejection> rejections() {
    return rejections;
  }

  /** What {@link #discard} dropped. */
  public List<Rejection> discards() {
    return discards;
  }

  /** Every dead letter: the rejections, then the discards. */
  public List<Rejection> deadLetters() {
    if (discards.isEmpty()) {
      return rejections;
    }
    List<Rejection> all = new ArrayList<>(rejections);
    all.addAll(discards);
    return all;
  }

  /** The first rejection's reason, or null (a driver rejects an input at most once). */
  public String rejection() {
    return rejections.isEmpty() ? null : rejections.get(0).reason();
  }

  public List<ScaleRequest> scaleRequests() {
    return scaleRequests;
  }

  /** The verdicts about nodes, in order. */
  public List<NodeStatus> verdicts() {
    return verdicts;
  }

  /** The jobs' transitions, in order. */
  public List<JobStatus> statuses() {
    return statuses;
  }

  /** The answers to control records (at most one: an input is at most one control). */
  public List<ControlAck> acks() {
    return acks;
  }
}
