package io.locus.operators;

import io.locus.core.Scheduler;
import io.locus.core.model.Ids;
import io.locus.core.policy.Policies;
import io.locus.core.policy.Policy;
import io.locus.core.state.NodeView;
import io.locus.core.state.PoolState;
import io.locus.schemas.Control;
import io.locus.schemas.state.PoolMeta;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which driver a pool gets: at first use (from the policy in its stored scalars, or the
 * configured one for a new pool) and when a SET_POLICY control changes it. The only place that
 * knows the two families apart.
 *
 * <p>Every pool keeps its node registrations in {@link PoolState} (keyed state {@code nodes}),
 * whatever its family, so a change of family keeps its nodes. A change within the file family is
 * immediate (queued tasks stay queued); any other change needs the pool idle, because a split
 * pool's subjobs and range caches live in its core.
 */
final class PoolDrivers {
  private PoolDrivers() {}

  /** The driver of a pool whose state was just rebuilt by {@link PoolStore#load}. */
  static PoolDriver open(String pool, PoolMeta meta, PoolState state, SchedulerConfig config,
      PoolStore store) throws Exception {
    if (SplitPoolParams.isSplitPolicy(meta.getPolicy())) {
      if (!store.split.stored()) {
        return newSplit(pool, meta.getPolicy(), meta.getParams(), state, store);
      }
      return SplitPoolDriver.restore(pool, meta.getPolicy(), meta.getParams(), store.split)
          .attach(store.split, roster(pool, state));
    }
    return new FilePoolDriver(pool, state, Policies.create(meta.getPolicy(), meta.getParams()),
        config, meta, store, true);
  }

  /**
   * SET_POLICY: returns the pool's driver after the change (the same one for a file policy
   * replaced by another), or throws {@link IllegalArgumentException} saying why it cannot change.
   */
  static PoolDriver change(String pool, PoolDriver current, PoolMeta meta, PoolState state,
      Control c, SchedulerConfig config, PoolStore store) throws Exception {
    String name = c.getPolicy();
    Map<String, String> params = new HashMap<>(c.getParams());
    if (SplitPoolParams.isSplitPolicy(name)) {
      String canonical = SplitPoolParams.canonical(name);
      SplitPoolParams.validate(canonical, params);
      if (current instanceof SplitPoolDriver && canonical.equals(meta.getPolicy())
          && params.equals(meta.getParams())) {
        return current; // the policy it has: nothing to change
      }
      requireIdle(current, "set a split policy when it is idle");
      PoolDriver d = newSplit(pool, canonical, params, state, store);
      meta.setPolicy(canonical);
      meta.setParams(params);
      return d;
    }
    Policy p = Policies.create(name, params);
    PoolDriver d = current;
    if (current instanceof FilePoolDriver f) {
      f.setPolicy(p);
    } else {
      requireIdle(current, "set a file policy when it is idle");
      store.split.clear();
      d = new FilePoolDriver(pool, state, p, config, meta, store, false);
    }
    meta.setPolicy(p.name());
    meta.setParams(params);
    return d;
  }

  private static void requireIdle(PoolDriver d, String advice) {
    String busy = d.busy();
    if (busy != null) {
      throw new IllegalArgumentException(busy + "; " + advice);
    }
  }

  /** A new split core with the pool's registered nodes (idle, empty range caches). */
  private static SplitPoolDriver newSplit(String pool, String policy, Map<String, String> params,
      PoolState state, PoolStore store) throws Exception {
    List<String> nodes = new ArrayList<>();
    for (NodeView n : state.nodes()) {
      nodes.add(n.id());
    }
    nodes.sort(Ids.ORDER);
    SplitPoolDriver d = SplitPoolDriver.create(pool, policy, params, nodes)
        .attach(store.split, roster(pool, state));
    d.save();
    return d;
  }

  /** A split pool's registrations go through the core's facade like a file pool's. */
  private static Scheduler roster(String pool, PoolState state) {
    return Scheduler.registry(pool, state);
  }
}
