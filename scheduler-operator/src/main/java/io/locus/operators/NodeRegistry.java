package io.locus.operators;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.ToLongFunction;
import org.apache.flink.api.common.state.MapState;

/**
 * One pool's node registry: for each node the agent instance that owns it (the one that
 * registered; null when unclaimed) and when it was last heard from, on the pool's liveness clock
 * ({@link InputGate}: moved by node reports only). Kept in
 * keyed state ({@code node-registry}, node → {@link #encode encoded entry}), written through, with
 * a heap copy ordered by last-heard time so the liveness check reads only the oldest entries.
 *
 * <p>The registry says who may speak for a node; the pool's driver says what the node does. A
 * node is known to the gate only when both have it ({@link InputGate}).
 *
 * <p>A last-heard time is written through at most once per {@link #PERSIST_HEARD_EVERY_MS} of
 * record clock per node (an owner change at once): every task event and node report hears its
 * node, and writing each one was one state write per input. A restored registry is then at most
 * that much behind, so a node can time out that much earlier after a restore, never later.
 *
 * <p>It also keeps, on the heap only, when each node was last asked to resynchronise and last
 * warned about: a restart forgets them, which at worst repeats one ResyncNode or one log line.
 */
final class NodeRegistry {
  /** Who owns a node and when it was last heard from (record clock, ms). */
  record Entry(String owner, long heardMs) {}

  private record Heard(long heardMs, String node) implements Comparable<Heard> {
    @Override
    public int compareTo(Heard o) {
      int c = Long.compare(heardMs, o.heardMs);
      return c != 0 ? c : node.compareTo(o.node);
    }
  }

  /** How many nodes the heap rate limits remember (more distinct nodes evict the oldest). */
  static final int RATE_LIMIT_NODES = 10_000;
  /** A node's last-heard time is persisted when it moved at least this much (record clock). */
  static final long PERSIST_HEARD_EVERY_MS = 1_000;

  private final MapState<String, String> state;
  private final Map<String, Entry> nodes = new HashMap<>();
  /** The last-heard time in keyed state, per node. */
  private final Map<String, Long> persisted = new HashMap<>();
  private final TreeSet<Heard> byHeard = new TreeSet<>();
  private final Map<String, Long> resyncs = bounded();
  private final Map<String, Long> warnings = bounded();

  private NodeRegistry(MapState<String, String> state) {
    this.state = state;
  }

  /**
   * The pool's registry from keyed state (the current key must be the pool). Nodes the pool has
   * but the registry lacks (a checkpoint from before the registry) are unclaimed and heard at
   * {@code clockMs}, which {@code clock} gives once the stored entries are read (so it may derive
   * from them).
   */
  static NodeRegistry load(MapState<String, String> state, Iterable<String> poolNodes,
      ToLongFunction<NodeRegistry> clock) throws Exception {
    NodeRegistry r = new NodeRegistry(state);
    for (Map.Entry<String, String> e : state.entries()) {
      Entry entry = decode(e.getValue());
      r.remember(e.getKey(), entry);
      r.persisted.put(e.getKey(), entry.heardMs());
    }
    long clockMs = clock.applyAsLong(r);
    for (String node : poolNodes) {
      if (!r.nodes.containsKey(node)) {
        r.put(node, null, clockMs);
      }
    }
    return r;
  }

  /** {@link #load(MapState, Iterable, ToLongFunction)} at a given clock. */
  static NodeRegistry load(MapState<String, String> state, Iterable<String> poolNodes,
      long clockMs) throws Exception {
    return load(state, poolNodes, r -> clockMs);
  }

  /** The latest last-heard time of any node, or -1 when the registry is empty. */
  long latestHeardMs() {
    return byHeard.isEmpty() ? -1 : byHeard.last().heardMs();
  }

  Entry get(String node) {
    return nodes.get(node);
  }

  /** The owner instance of {@code node}, or null (unknown or unclaimed). */
  String owner(String node) {
    Entry e = nodes.get(node);
    return e == null ? null : e.owner();
  }

  int size() {
    return nodes.size();
  }

  /**
   * Sets the node's owner and last-heard time; written through when the owner changed or the
   * time moved by {@link #PERSIST_HEARD_EVERY_MS} or more (either way) since the last write.
   */
  void put(String node, String owner, long heardMs) throws Exception {
    Entry old = nodes.get(node);
    Entry e = new Entry(owner, heardMs);
    if (e.equals(old)) {
      return;
    }
    if (old != null) {
      byHeard.remove(new Heard(old.heardMs(), node));
    }
    remember(node, e);
    Long written = persisted.get(node);
    if (old == null || written == null || !java.util.Objects.equals(old.owner(), owner)
        || Math.abs(heardMs - written) >= PERSIST_HEARD_EVERY_MS) {
      state.put(node, encode(e));
      persisted.put(node, heardMs);
    }
  }

  void remove(String node) throws Exception {
    Entry old = nodes.remove(node);
    if (old != null) {
      byHeard.remove(new Heard(old.heardMs(), node));
      persisted.remove(node);
      state.remove(node);
    }
  }

  /** Nodes not heard from for more than {@code timeoutMs} at {@code clockMs}, oldest first. */
  List<String> silent(long clockMs, long timeoutMs) {
    List<String> out = new ArrayList<>();
    for (Heard h : byHeard) {
      if (clockMs - h.heardMs() <= timeoutMs) {
        break;
      }
      out.add(h.node());
    }
    return out;
  }

  /** True (and remembered) when {@code node} was not asked to resync within {@code everyMs}. */
  boolean resyncDue(String node, long clockMs, long everyMs) {
    return due(resyncs, node, clockMs, everyMs);
  }

  /** True (and remembered) when a warning about {@code node} was not logged within everyMs. */
  boolean warningDue(String node, long clockMs, long everyMs) {
    return due(warnings, node, clockMs, everyMs);
  }

  private static boolean due(Map<String, Long> last, String node, long clockMs, long everyMs) {
    Long t = last.get(node);
    if (t != null && clockMs - t < everyMs) {
      return false;
    }
    last.remove(node); // re-inserted last: the map evicts in order of last use
    last.put(node, clockMs);
    return true;
  }

  private void remember(String node, Entry e) {
    nodes.put(node, e);
    byHeard.add(new Heard(e.heardMs(), node));
  }

  private static Map<String, Long> bounded() {
    return new LinkedHashMap<>() {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
        return size() > RATE_LIMIT_NODES;
      }
    };
  }

  // ------------------------------------------------------------------ encoding

  /** {@code heardMs|+owner}, or {@code heardMs|-} when unclaimed (an owner may contain '|'). */
  static String encode(Entry e) {
    return e.heardMs() + (e.owner() == null ? "|-" : "|+" + e.owner());
  }

  static Entry decode(String s) {
    int bar = s.indexOf('|');
    if (bar < 0 || bar + 1 >= s.length()) {
      throw new IllegalStateException("corrupt node registry entry '" + s + "'");
    }
    long heard = Long.parseLong(s.substring(0, bar));
    char mark = s.charAt(bar + 1);
    if (mark == '-') {
      return new Entry(null, heard);
    }
    if (mark != '+') {
      throw new IllegalStateException("corrupt node registry entry '" + s + "'");
    }
    return new Entry(s.substring(bar + 2), heard);
  }
}
