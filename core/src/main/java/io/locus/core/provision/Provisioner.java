package io.locus.core.provision;

import io.locus.core.model.Command;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * DRP (data-diffusion spec §2.4): polled every {@code pollSeconds} by the driver, it compares the
 * wait queue with the registered and requested nodes and emits {@link Command.Acquire} (one per
 * resource-manager request, per the acquisition strategy) and {@link Command.Release}. The driver
 * tells it when requested nodes arrive ({@link #onNodeRegistered}) or a request is refused. It keeps
 * only what the pool state lacks: outstanding requested nodes and when each node became idle.
 * Deterministic: no clock or randomness of its own.
 */
public final class Provisioner {
  private final ProvisioningConfig cfg;
  private int pendingNodes;
  private final Map<String, Double> idleSince = new HashMap<>();

  public Provisioner(ProvisioningConfig cfg) {
    this.cfg = cfg;
  }

  public ProvisioningConfig config() {
    return cfg;
  }

  public int pendingNodes() {
    return pendingNodes;
  }

  /**
   * Restores the outstanding request count from durable state. Idle times are not persisted: after
   * a restore every idle node counts as idle from the next poll (a later release, never an early one).
   */
  public void restorePending(int nodes) {
    pendingNodes = Math.max(0, nodes);
  }

  /** A node granted by the resource manager registered: it no longer counts as pending. */
  public void onNodeRegistered(String node, double now) {
    if (pendingNodes > 0) {
      pendingNodes--;
    }
    idleSince.put(node, now);
  }

  /** The resource manager could not grant {@code nodes} requested nodes. */
  public void onRequestFailed(int nodes) {
    pendingNodes = Math.max(0, pendingNodes - nodes);
  }

  public void onNodeReleased(String node) {
    idleSince.remove(node);
  }

  /**
   * One poll. {@code freeCapacity} is the resource manager's free node count, used only by the
   * OPTIMAL strategy (pass Integer.MAX_VALUE when unknown).
   */
  public List<Command> poll(PoolState s, double now, int freeCapacity) {
    List<Command> out = new ArrayList<>();
    if (!cfg.dynamic()) {
      return out;
    }
    trackIdle(s, now);
    int registered = s.nodes().size();
    int desired = Math.min(cfg.maxNodes(), Math.max(cfg.minNodes(),
        (int) Math.ceil(s.queueLength() / (cfg.tasksPerSlot() * cfg.slotsPerNode()))));
    int deficit = desired - registered - pendingNodes;
    if (deficit > 0) {
      for (int n : requests(cfg.acquisition(), deficit, freeCapacity)) {
        pendingNodes += n;
        out.add(new Command.Acquire(n, "queue " + s.queueLength() + ", registered " + registered
            + ", desired " + desired + " (" + cfg.acquisition() + ")"));
      }
    }
    out.addAll(releases(s, now, registered));
    return out;
  }

  /** The request sizes of a deficit of n for each strategy (spec §2.4 table, example E7). */
  public static List<Integer> requests(ProvisioningConfig.Acquisition a, int n, int freeCapacity) {
    List<Integer> sizes = new ArrayList<>();
    switch (a) {
      case ONE_AT_A_TIME -> {
        for (int i = 0; i < n; i++) {
          sizes.add(1);
        }
      }
      case ALL_AT_ONCE -> sizes.add(n);
      case ADDITIVE, EXPONENTIAL -> {
        int left = n;
        int next = 1;
        while (left > 0) {
          int take = Math.min(next, left);
          sizes.add(take);
          left -= take;
          next = a == ProvisioningConfig.Acquisition.ADDITIVE ? next + 1 : next * 2;
        }
      }
      case OPTIMAL -> {
        int take = Math.min(n, Math.max(0, freeCapacity));
        if (take > 0) {
          sizes.add(take);
        }
      }
    }
    return sizes;
  }

  private void trackIdle(PoolState s, double now) {
    for (NodeView n : s.nodes()) {
      if (n.busy() > 0) {
        idleSince.remove(n.id());
      } else {
        idleSince.putIfAbsent(n.id(), now);
      }
    }
  }

  private List<Command> releases(PoolState s, double now, int registered) {
    List<Command> out = new ArrayList<>();
    int canRelease = registered - cfg.minNodes();
    if (canRelease <= 0) {
      return out;
    }
    switch (cfg.release()) {
      case DISTRIBUTED_IDLE -> {
        for (NodeView n : s.nodes()) { // registration order: deterministic
          Double since = idleSince.get(n.id());
          if (out.size() < canRelease && n.busy() == 0 && since != null
              && now - since >= cfg.idleSeconds()) {
            out.add(new Command.Release(n.id(), "idle since " + since));
          }
        }
      }
      case CENTRALIZED_EMPTY -> {
        if (s.queueLength() == 0) {
          for (NodeView n : s.nodes()) {
            if (out.size() < canRelease && n.busy() == 0) {
              out.add(new Command.Release(n.id(), "queue empty"));
            }
          }
        }
      }
      case CENTRALIZED_THRESHOLD -> {
        if (s.queueLength() < cfg.releaseQueueThreshold()) {
          for (NodeView n : s.nodes()) {
            if (n.busy() == 0) {
              out.add(new Command.Release(n.id(), "queue below " + cfg.releaseQueueThreshold()));
              break; // one per poll
            }
          }
        }
      }
    }
    for (Command c : out) {
      idleSince.remove(((Command.Release) c).node());
    }
    return out;
  }
}
