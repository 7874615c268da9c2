package io.locus.operators;

import io.locus.schemas.Control;
import io.locus.schemas.ControlAck;
import io.locus.schemas.ControlType;
import io.locus.schemas.state.PoolMeta;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies one {@link Control} record to a pool, at the point the record is processed in the pool's
 * input order (what came before it was decided under the old settings, what comes after under the
 * new), and answers it with exactly one {@link ControlAck}. A control that cannot apply is also a
 * dead letter ({@code rejected}), as before acknowledgements existed.
 *
 * <ul>
 *   <li>SET_POLICY: the driver changes ({@link PoolDrivers#change}); every queued, not yet placed
 *       task is re-evaluated ({@link PoolDriver#reevaluate}): the new policy's dispatch runs over
 *       the whole queue at once. Running tasks are untouched.</li>
 *   <li>PAUSE_POOL / RESUME_POOL: {@link PoolMeta#getPaused()} (persisted). A paused pool applies
 *       arrivals, completions and reports but makes no placement, withdrawal, eviction,
 *       replication or scale request; RESUME_POOL dispatches the queue at once.</li>
 *   <li>DRAIN_NODE / RESUME_NODE: the driver's {@link PoolDriver#drain}.</li>
 *   <li>SET_QUEUES: the pool's queue tree is replaced whole ({@link PoolQueues#apply}); the ack
 *       lists what changed (nothing: unchanged) or every reason it was refused.</li>
 * </ul>
 */
final class PoolControl {
  private static final Logger LOG = LoggerFactory.getLogger(PoolControl.class);

  private PoolControl() {}

  /** Applies {@code c} to {@code pool}; the output carries the decisions that follow and the ack. */
  static PoolOutput apply(ScheduledPool pool, Control c, SchedulerConfig config, PoolStore store)
      throws Exception {
    PoolMeta meta = pool.meta;
    ControlType type = c.getType() == null ? ControlType.UNKNOWN : c.getType();
    String problem = null;
    String done = null;
    int reevaluated = 0;
    List<String> changes = List.of();
    List<String> reasons = List.of();
    switch (type) {
      case SET_POLICY -> {
        if (c.getPolicy() == null || c.getPolicy().isBlank()) {
          problem = "SET_POLICY names no policy";
          break;
        }
        String before = pool.driver.policy();
        Map<String, String> beforeParams = new TreeMap<>(meta.getParams());
        try {
          pool.driver = PoolDrivers.change(pool.name, pool.driver, meta, pool.state, c, config,
              store);
          reevaluated = pool.driver.reevaluate();
          done = "policy " + before + (beforeParams.isEmpty() ? "" : " " + beforeParams) + " -> "
              + pool.driver.policy() + (meta.getParams().isEmpty() ? ""
                  : " " + new TreeMap<>(meta.getParams())) + "; " + reevaluated
              + " queued task(s) re-evaluated";
        } catch (IllegalArgumentException e) {
          problem = e.getMessage();
        }
      }
      case DRAIN_NODE, RESUME_NODE -> {
        if (c.getNode() == null || c.getNode().isBlank()) {
          problem = type + " names no node";
          break;
        }
        problem = pool.driver.drain(c.getNode(), type == ControlType.DRAIN_NODE);
        done = type == ControlType.DRAIN_NODE
            ? "node " + c.getNode() + " draining: no new work, its running tasks finish"
            : "node " + c.getNode() + " takes work again";
      }
      case PAUSE_POOL -> {
        problem = pool.driver.pauseProblem();
        if (problem == null) {
          done = meta.getPaused() ? "pool " + pool.name + " was already paused"
              : "pool " + pool.name + " paused: tasks queue, nothing is placed until "
                  + "RESUME_POOL";
          meta.setPaused(true);
        }
      }
      case RESUME_POOL -> {
        done = meta.getPaused() ? "pool " + pool.name + " resumed"
            : "pool " + pool.name + " was not paused";
        meta.setPaused(false);
      }
      case SET_QUEUES -> {
        PoolQueues.Outcome q = pool.queues.apply(c.getQueues());
        if (!q.applied()) {
          reasons = q.reasons();
          problem = "queue configuration refused, nothing applied: " + String.join("; ", reasons);
        } else {
          changes = q.changes();
          done = changes.isEmpty() ? "queue tree unchanged"
              : "queue tree applied: " + changes.size() + " queue(s) changed";
          String own = ownOrder(pool, c);
          done += own == null ? "" : "; " + own;
        }
      }
      default -> problem = "unknown control type " + c.getType() + " (sent by a newer client?); "
          + "known: " + Arrays.toString(new ControlType[] {ControlType.SET_POLICY,
              ControlType.DRAIN_NODE, ControlType.RESUME_NODE, ControlType.PAUSE_POOL,
              ControlType.RESUME_POOL, ControlType.SET_QUEUES});
    }
    boolean applied = problem == null;
    PoolOutput o = applied ? new PoolOutput()
        : PoolOutput.rejected("control rejected: " + problem);
    if (applied && (type == ControlType.DRAIN_NODE || type == ControlType.RESUME_NODE)) {
      // the operators' views show a drain from the scheduler's verdict, not from the agent
      var standing = NodeVerdicts.standing(pool, c.getNode(), type == ControlType.DRAIN_NODE
          ? "drained by control " + c.getRequestId() : "resumed by control " + c.getRequestId());
      if (standing != null) {
        o.verdict(standing);
      }
    }
    PoolOutput after = pool.driver.afterControl(meta, applied);
    o.add(after);
    String message;
    if (applied) {
      long placed = after.decisions().stream()
          .filter(d -> d.getAction() instanceof io.locus.schemas.PlaceTask).count();
      message = done + (placed > 0 ? "; " + placed + " task(s) placed now" : "")
          + (meta.getPaused() && type != ControlType.PAUSE_POOL
              ? " (the pool is paused: placements wait for RESUME_POOL)" : "");
      LOG.info("pool {}: control {} {} applied: {}", pool.name, type, c.getRequestId(), message);
    } else {
      message = problem;
      LOG.warn("pool {}: control {} {} refused: {}", pool.name, type, c.getRequestId(), problem);
    }
    return o.ack(ack(pool.name, c, applied, message, pool.driver.policy(), meta.getPaused(),
        reevaluated, meta.getClockMs()).setChanges(changes).setReasons(reasons).build());
  }

  /**
   * What the ack says when the pool's policy keeps its own order under the tree {@code c} applied
   * (null: fair share decides, or the tree is the default queue alone). Fair share picks whose task
   * runs next only under a file policy that places per task; under the others the tree is kept,
   * jobs must name its queues and the per-queue loads are counted, but the policy's order decides
   * (docs/policies.md, "Sharing a pool"): said here so nobody takes the tree for a guarantee.
   */
  private static String ownOrder(ScheduledPool pool, Control c) {
    if (c.getQueues() == null || QueueConfigs.tree(c.getQueues()).isDefaultOnly()) {
      return null;
    }
    if (pool.driver instanceof FilePoolDriver f) {
      return f.queuesProblem();
    }
    return "split policy " + pool.driver.policy() + " keeps its own order (subjobs, range"
        + " caches): the queues are kept and jobs must name them, but fair share does not decide"
        + " whose task runs next (it does under FA, FCA, MCU, MCH, GCC and EFT)";
  }

  /**
   * The refusal of a control the pool never saw: it failed the input gate ({@code meta} may be
   * null when there is no such pool here).
   */
  static ControlAck refusedAtGate(String pool, Control c, ScheduledPool p, String reason) {
    return ack(pool, c, false, reason, p == null ? "" : p.driver.policy(),
        p != null && p.meta.getPaused(), 0, p == null ? 0 : p.meta.getClockMs())
        .setReasons(List.of(reason)).build();
  }

  private static ControlAck.Builder ack(String pool, Control c, boolean accepted, String message,
      String policy, boolean paused, int reevaluated, long timeMs) {
    return ControlAck.newBuilder()
        .setPool(pool)
        .setRequestId(c.getRequestId())
        .setType(c.getType() == null ? ControlType.UNKNOWN : c.getType())
        .setAccepted(accepted)
        .setMessage(message)
        .setPolicy(policy)
        .setPaused(paused)
        .setReevaluated(reevaluated)
        .setTimeMs(timeMs);
  }
}
