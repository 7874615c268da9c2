package io.locus.operators;

import io.locus.schemas.Control;
import io.locus.schemas.JobCommand;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.auth.NodeKeys;
import io.locus.schemas.auth.PlacementProof;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.state.PoolMeta;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every input passes before a pool's driver sees it, whatever the pool's family. In order:
 * <ol>
 *   <li><b>Pool</b>: when the configuration declares pools, another pool is refused ({@code
 *       unknown-pool}) before any state is created for it ({@link #poolProblem}).</li>
 *   <li><b>Time</b>: outside [0, 2^42] ms is refused ({@code invalid}); more than the maximum
 *       clock jump ahead of its Kafka record's timestamp is refused ({@code clock}: the sender's
 *       clock runs ahead). Either way it moves no clock.</li>
 *   <li><b>Signature</b>: with a cluster node secret, a task event or node report must verify
 *       with its node's key ({@link NodeKeys}), else {@code forged}. Checked before the record
 *       may move the clock.</li>
 *   <li><b>Proof of placement</b>: with a cluster node secret, a task event about an attempt
 *       must carry the scheduler's proof that this attempt was placed on the event's node
 *       ({@link PlacementProof}, {@link #placementProblem}), else {@code no-proof}: a node can
 *       report on work given to it only, never complete, fail or start another node's attempt
 *       nor a task not placed yet. Checked with the signature, before the clock moves.</li>
 *   <li>The pool clock moves to the record's time. A node report also moves the pool's
 *       <b>liveness clock</b> ({@link #livenessTime}); every node not heard from for longer than
 *       the node timeout on that clock is lost ({@link PoolDriver#onNodeLost}).</li>
 *   <li><b>Node identity</b> ({@link NodeRegistry}): a REGISTER from another instance than the
 *       live owner, or any other record from a non-owner, is {@code forged}; a record other than
 *       REGISTER from a node the pool does not know is {@code unknown-node} and the node is asked
 *       to resynchronise (ResyncNode, at most once per half node timeout).</li>
 *   <li><b>Job ids</b> ({@link JobLedger}): an id that arrived within the retention window is
 *       {@code duplicate-job}, even after its job finished.</li>
 * </ol>
 * Liveness is checked as the clock moves with a sorted structure: per record it reads only the
 * nodes actually lost. All of it runs on record times, never the wall clock: a replay decides the
 * same.
 *
 * <p><b>Why liveness has its own clock.</b> The pool clock is the largest event time of any
 * input, so it ran ahead of the heartbeats whenever other inputs did: under a burst, job arrivals
 * (read from their own topic, ahead of a node-reports backlog) made live nodes look silent; and
 * one node's time, however wrong, moved it for everyone. The liveness clock moves only with the
 * pool's node reports, which share one partition (keyed by pool) and so are read in the order
 * they were written: silence is judged against the progress of that stream, whatever the load on
 * other topics. Each report moves it to the earlier of its event time and its Kafka record's
 * timestamp, which the broker stamps (node-reports is a LogAppendTime topic): a node's clock can
 * hold the liveness clock back for its own reports, never push it ahead of the broker's time. A
 * node is heard at the liveness clock when its record is read, not at its own time.
 */
final class InputGate {
  private static final Logger LOG = LoggerFactory.getLogger(InputGate.class);

  /** Times are in [0, 2^42] ms (until the year 2109), as the validation of the inputs says. */
  static final long MAX_TIME_MS = io.locus.schemas.limits.Limits.MAX_TIME_MS;
  /** At most one warning per node per this much record clock. */
  static final long WARN_EVERY_MS = 10_000;
  /** Names quoted in reasons are cut to this length (a name may be huge). */
  private static final int SHOWN = 120;

  /** The driver call for an input that passed the gate. */
  @FunctionalInterface
  interface Route {
    PoolOutput apply() throws Exception;
  }

  private final SchedulerConfig config;
  private final GateMetrics metrics;
  private final NodeKeys keys;
  private final PlacementProof proofs;

  InputGate(SchedulerConfig config, GateMetrics metrics) {
    this.config = config;
    this.metrics = metrics;
    byte[] secret = config.nodeSecret();
    this.keys = secret == null ? null : new NodeKeys(secret);
    this.proofs = secret == null ? null : new PlacementProof(secret);
  }

  /** Why records for {@code pool} are refused, or null when the pool is run here. */
  String poolProblem(String pool) {
    return config.declares(pool) ? null
        : "pool '" + shown(pool) + "' is not one of the declared pools " + config.pools();
  }

  /** Admits {@code event} into the pool and returns what the pool did (or why it did nothing). */
  PoolOutput admit(ScheduledPool p, Object event, long recordTimestampMs, Route route)
      throws Exception {
    PoolMeta m = p.meta;
    long t = eventTime(event);
    if (t < 0 || t > MAX_TIME_MS) {
      return PoolOutput.rejected(DeadLetterCodes.INVALID,
          describe(event) + ": time " + t + " ms is out of range [0, 2^42]");
    }
    String ahead = clockProblem(recordTimestampMs, t);
    if (ahead != null) {
      if (event instanceof NodeReport || event instanceof TaskEvent) {
        String node = event instanceof NodeReport r ? r.getNode() : ((TaskEvent) event).getNode();
        if (p.registry.warningDue(node, m.getClockMs(), WARN_EVERY_MS)) {
          LOG.warn("pool {}: {} refused: {}; is the node's clock synchronised? (logged once per "
              + "{} ms)", p.name, describe(event), ahead, WARN_EVERY_MS);
        }
      }
      return PoolOutput.rejected(DeadLetterCodes.CLOCK, describe(event) + ": " + ahead);
    }
    if (!authentic(event)) {
      return PoolOutput.rejected(DeadLetterCodes.FORGED, describe(event)
          + ": missing or bad signature (the node's key; a cluster node secret is configured)");
    }
    String unproven = placementProblem(p.name, event);
    if (unproven != null) {
      return PoolOutput.rejected(DeadLetterCodes.NO_PROOF, describe(event) + ": " + unproven);
    }
    if (t > m.getClockMs()) {
      // The policy clock only moves forward with the events' own times: a replay decides the same.
      m.setClockMs(t);
    }
    if (event instanceof NodeReport) {
      long live = livenessTime(t, recordTimestampMs);
      if (live > m.getLivenessMs()) {
        m.setLivenessMs(live);
      }
    }
    PoolOutput out = liveness(p);
    p.ledger.expire(m.getClockMs());
    if (event instanceof JobSubmitted job) {
      return out.add(job(p, job, route));
    } else if (event instanceof NodeReport r) {
      return out.add(fromNode(p, r.getNode(), r.getInstanceId(),
          r.getType() == NodeReportType.REGISTER, describe(event), route));
    } else if (event instanceof TaskEvent te) {
      return out.add(fromNode(p, te.getNode(), te.getInstanceId(), false, describe(event), route));
    }
    return out.add(route.apply());
  }

  /**
   * The clock-jump rule compares an event's time with its Kafka record's timestamp, not with the
   * pool clock: a pool clock set by one early record (a hand-written control at time 1, a trace
   * replayed from time 0) must never make every later, correct record look like a jump and lock the
   * pool. The record timestamp is in the log, so a replay judges the same way. Only "ahead" is
   * bounded: a record may reach the broker long after it was made (an agent's producer retrying
   * through a broker outage), and a time behind moves no clock.
   */
  private String clockProblem(long recordTimestampMs, long t) {
    if (recordTimestampMs >= 0 && t - recordTimestampMs > config.maxClockJumpMs()) {
      return "clock ahead: time " + t + " ms is " + (t - recordTimestampMs)
          + " ms past its Kafka record's timestamp " + recordTimestampMs + " ms (at most "
          + config.maxClockJumpMs() + " ms, --max-clock-jump)";
    }
    return null;
  }

  /**
   * Where a node report moves the liveness clock: the earlier of its time and its Kafka record's
   * timestamp (the broker's append time), or its time when the record has none (-1: inputs not
   * read from Kafka).
   */
  static long livenessTime(long eventTimeMs, long recordTimestampMs) {
    return recordTimestampMs >= 0 ? Math.min(eventTimeMs, recordTimestampMs) : eventTimeMs;
  }

  /**
   * The liveness clock of a pool restored on {@code r}: as stored, or for state from before the
   * liveness clock was kept (-1) the latest last-heard time in the registry (every node was heard
   * on the pool clock then), else, when the pool has nodes but no registry, the pool clock (they
   * are heard then).
   */
  static long livenessOnLoad(PoolMeta m, NodeRegistry r, boolean poolHasNodes) {
    if (m.getLivenessMs() < 0) {
      long heard = r.latestHeardMs();
      if (heard >= 0) {
        m.setLivenessMs(heard);
      } else if (poolHasNodes) {
        m.setLivenessMs(m.getClockMs());
      }
    }
    return Math.max(m.getLivenessMs(), 0);
  }

  private boolean authentic(Object event) {
    if (keys == null) {
      return true;
    } else if (event instanceof TaskEvent te) {
      return keys.signer(te.getNode()).verify(te);
    } else if (event instanceof NodeReport r) {
      return keys.signer(r.getNode()).verify(r);
    }
    return true;
  }

  /**
   * Why a task event does not prove that its attempt was placed on its node, or null when it does
   * or need not. With a cluster node secret every placement carries {@code PlaceTask.proof}, made
   * for its decision id ({@code pool/task/attempt}) and its node, and the agent echoes it in every
   * event about that attempt, whichever decision the event answers (the placement, or a
   * ShrinkTask or SuspendTask of it). The one exception is a REFUSED of another decision than the
   * placement (a cancel, shrink or suspend): the node may not hold the attempt, so it may have no
   * proof; such a refusal is only an answer to a decision sent to that node, and the drivers act
   * on it only when it comes from the node the attempt runs on (a refused withdraw ends the
   * in-flight mark; a refused stop is logged). Node B, signing validly as itself, therefore cannot
   * finish, fail, start or acknowledge an attempt placed on node A (it would need the proof for B,
   * which the scheduler makes only when it places that attempt on B), nor complete a task before
   * its arrival (no proof exists for a task never placed). The genuine after-restore case, one
   * decision id placed on two nodes, holds: each got its own proof.
   */
  String placementProblem(String pool, Object event) {
    if (proofs == null || !(event instanceof TaskEvent te)) {
      return null;
    }
    String placement = Decisions.placementId(pool, te.getTaskId(), te.getAttempt());
    if (te.getType() == TaskEventType.REFUSED && !placement.equals(te.getDecisionId())) {
      return null;
    }
    String where = "attempt " + te.getAttempt() + " of task '" + shown(te.getTaskId())
        + "' on node '" + shown(te.getNode()) + "' (placement " + shown(placement) + ")";
    if (te.getPlacementProof() == null) {
      return "no proof of placement (placementProof) for " + where + "; with a cluster node "
          + "secret a node reports only on attempts placed on it, echoing the placement's proof";
    }
    if (!proofs.verify(te.getPlacementProof(), placement, te.getNode(), te.getTaskId(),
        te.getAttempt())) {
      return "its proof of placement is not the scheduler's for " + where + ": the scheduler "
          + "never gave that attempt to that node (a proof names its node)";
    }
    return null;
  }

  /**
   * Every node silent for longer than the timeout on the liveness clock is lost; its driver
   * re-places its work.
   */
  private PoolOutput liveness(ScheduledPool p) throws Exception {
    PoolOutput out = new PoolOutput();
    long clock = p.meta.getLivenessMs();
    if (clock < 0) {
      return out; // no node report yet
    }
    NodeRegistry reg = p.registry;
    for (String node : reg.silent(clock, config.nodeTimeoutMs())) {
      long heard = reg.get(node).heardMs();
      String owner = reg.get(node).owner();
      reg.remove(node);
      if (p.state.node(node) != null) {
        metrics.pool(p.name).nodeLost();
        out.verdict(NodeVerdicts.lost(p, node, owner, "not heard from since " + heard
            + " ms (liveness clock " + clock + " ms, timeout " + config.nodeTimeoutMs() + " ms)"));
        LOG.warn("pool {}: node {} lost, not heard from since {} ms (liveness clock {} ms: the "
            + "pool's node reports; timeout {} ms)", p.name, node, heard, clock,
            config.nodeTimeoutMs());
        out.add(p.driver.onNodeLost(node, p.meta));
      }
    }
    return out;
  }

  /** A report or task event: only the node's owner instance speaks for it. */
  private PoolOutput fromNode(ScheduledPool p, String node, String instance, boolean register,
      String what, Route route) throws Exception {
    // heard now on the liveness clock (its own time moved that clock at most to the broker's)
    long clock = Math.max(p.meta.getLivenessMs(), 0);
    NodeRegistry reg = p.registry;
    NodeRegistry.Entry e = reg.get(node);
    if (e != null && p.state.node(node) == null) {
      reg.remove(node); // the driver let the node go (e.g. released by provisioning)
      e = null;
    }
    if (e != null && e.owner() != null && !e.owner().equals(instance)) {
      return conflict(p, node, e.owner(), instance, what);
    }
    if (e == null && !register) {
      return unknownNode(p, node, instance, what);
    }
    // The first instance to speak for an unclaimed node (restored from before the registry) owns it.
    reg.put(node, instance != null ? instance : e == null ? null : e.owner(), clock);
    PoolOutput out = route.apply();
    if (p.state.node(node) == null) {
      reg.remove(node); // it left (LEAVE), or the driver did not register it
    }
    return out;
  }

  private PoolOutput conflict(ScheduledPool p, String node, String owner, String instance,
      String what) {
    metrics.instanceConflicts.inc();
    if (p.registry.warningDue(node, p.meta.getClockMs(), WARN_EVERY_MS)) {
      LOG.warn("pool {}: {} refused: node {} is owned by live agent instance {}, not {}; two "
          + "agents claim one node id? (counted in instanceConflicts, logged once per {} ms)",
          p.name, what, node, shown(owner), shown(instance), WARN_EVERY_MS);
    }
    return PoolOutput.rejected(DeadLetterCodes.FORGED, what + " refused: node '" + shown(node)
        + "' is owned by live agent instance '" + shown(owner) + "', not '" + shown(instance)
        + "'");
  }

  private PoolOutput unknownNode(ScheduledPool p, String node, String instance, String what) {
    PoolOutput out = PoolOutput.rejected(DeadLetterCodes.UNKNOWN_NODE, what + ": node '"
        + shown(node) + "' is not registered in pool " + shown(p.name)
        + " (never registered, left or lost); it is asked to register again");
    if (p.registry.resyncDue(node, p.meta.getClockMs(), config.nodeTimeoutMs() / 2)) {
      metrics.resyncsSent.inc();
      out.decide(Decisions.resync(p.name, p.meta, node, instance,
          "node unknown to the scheduler of pool " + p.name));
    }
    return out;
  }

  private PoolOutput job(ScheduledPool p, JobSubmitted job, Route route) throws Exception {
    long clock = p.meta.getClockMs();
    Long at = p.ledger.arrivedWithin(job.getJobId(), clock);
    if (at != null) {
      return PoolOutput.rejected(DeadLetterCodes.DUPLICATE_JOB, "duplicate job id '"
          + shown(job.getJobId()) + "': it arrived at pool clock " + at + " ms, within the "
          + "retention window of " + config.jobRetentionMs() + " ms");
    }
    PoolOutput out = route.apply();
    if (out.rejections().isEmpty()) {
      p.ledger.record(job.getJobId(), clock, job.getWorkflow());
      warnIfNoNodes(p, job);
    }
    return out;
  }

  /**
   * A job accepted into a pool with no registered node waits until one registers: with no
   * declared pools that is also where a job for a misspelt pool goes. Said once (until a job
   * arrives with a node in the pool), as a warning, and in the metrics' pending reason.
   */
  private static void warnIfNoNodes(ScheduledPool p, JobSubmitted job) {
    if (!p.state.nodes().isEmpty()) {
      p.warnedNoNodes = false;
    } else if (!p.warnedNoNodes) {
      p.warnedNoNodes = true;
      LOG.warn("pool {}: job {} queued, but no node is registered in the pool: it waits until "
          + "an agent of this pool registers {} (said once; the pending reason stays in the "
          + "scheduler's metrics and locus status)", shown(p.name), shown(job.getJobId()),
          PendingReason.HINT);
    }
  }

  static long eventTime(Object event) {
    if (event instanceof JobSubmitted j) {
      return j.getSubmitTimeMs();
    } else if (event instanceof TaskEvent t) {
      return t.getTimeMs();
    } else if (event instanceof NodeReport r) {
      return r.getTimeMs();
    } else if (event instanceof Control c) {
      return c.getTimeMs();
    } else if (event instanceof JobCommand c) {
      return c.getTimeMs();
    }
    throw new IllegalArgumentException("unexpected event type " + event.getClass());
  }

  private static String describe(Object event) {
    if (event instanceof TaskEvent te) {
      return "task event " + te.getType() + " of task '" + shown(te.getTaskId()) + "' from node '"
          + shown(te.getNode()) + "'";
    } else if (event instanceof NodeReport r) {
      return r.getType() + " from node '" + shown(r.getNode()) + "'";
    } else if (event instanceof JobCommand c) {
      return c.getType() + " of job '" + shown(c.getJobId()) + "'";
    }
    return event.getClass().getSimpleName();
  }

  static String shown(String s) {
    if (s == null) {
      return "null";
    }
    return s.length() <= SHOWN ? s : s.substring(0, SHOWN) + "…(" + s.length() + " chars)";
  }
}
