package io.locus.dashboard;

import io.locus.core.model.PendingCode;
import io.locus.schemas.CachedFile;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeStatus;
import io.locus.schemas.NodeStatusType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.PlacementReason;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.TaskEvent;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The dashboard's whole state, folded from the topics' records in the order they are read: per
 * pool, per node, placements, dead letters. Memory is bounded whatever the topics hold: aggregates,
 * the newest {@code keepPlacements} placements and {@link #KEEP_LETTERS} dead letters, at most
 * {@link #MAX_NODES} nodes, {@link #MAX_POOLS} pools and {@link #MAX_CODES} dead-letter codes,
 * strings cut to {@link #MAX_TEXT} characters. Rebuilding it from the earliest offsets gives the
 * same numbers (the rate window aside, which follows the wall clock).
 *
 * <p>Which nodes are members, draining, lost or gone is the scheduler's verdict (node-status),
 * never inferred from node-reports: anyone who may write there can send a REGISTER or a LEAVE
 * naming any node (an impostor agent with a copied configuration), and the scheduler refuses
 * those; the dashboard must not show them. Node reports still give load and cache figures, and
 * only those of the instance the scheduler has for the node once its verdict is read. A node the
 * scheduler has given no verdict on is not listed.
 *
 * <p>Thread-safe: the topic follower feeds it while the web server takes snapshots.
 */
public final class DashboardState {
  public static final int MAX_NODES = 10_000;
  public static final int MAX_POOLS = 1_000;
  public static final int MAX_CODES = 64;
  public static final int KEEP_LETTERS = 20;
  public static final int MAX_TEXT = 300;
  /** Nodes listed in a snapshot; the rest are counted in {@code nodesNotShown}. */
  public static final int NODES_SHOWN = 500;
  /** placements/s is the mean over this many whole seconds. */
  public static final int RATE_WINDOW_SECONDS = 10;
  /** Seconds of the placements/s series in a snapshot. */
  public static final int SERIES_SECONDS = 60;
  /** Dead letters beyond {@link #MAX_CODES} distinct codes are counted under this code. */
  static final String OTHER_CODE = "(other)";

  private final int keepPlacements;
  private final Map<String, PoolTally> pools = new TreeMap<>();
  /** pool → node → tally. */
  private final Map<String, Map<String, NodeTally>> nodes = new TreeMap<>();
  private int nodeCount;
  private long nodesDropped;
  private final RateWindow rate = new RateWindow();
  /**
   * The newest placements by decision time (then decision id): the same list whatever order the
   * 16 decision partitions are read in, live or on a rebuild.
   */
  private final java.util.TreeMap<PlacementKey, Snapshot.Placement> latest =
      new java.util.TreeMap<>();

  private record PlacementKey(long timeMs, String decisionId)
      implements Comparable<PlacementKey> {
    @Override
    public int compareTo(PlacementKey o) {
      int c = Long.compare(timeMs, o.timeMs);
      return c != 0 ? c : decisionId.compareTo(o.decisionId);
    }
  }
  private final Map<String, long[]> letterCounts = new LinkedHashMap<>();
  private final Map<String, DeadLetter> letterLast = new LinkedHashMap<>();
  private final Deque<Snapshot.Letter> letters = new ArrayDeque<>();
  private long deadLetters;
  /** REFUSED verdicts read: registrations the scheduler refused (impostors, unknown pools). */
  private long refusedRegistrations;
  private long placements;
  private final Map<String, Long> read = new TreeMap<>();
  private final Map<String, Long> undecodable = new TreeMap<>();
  private boolean caughtUp;
  private long version;

  /** @param keepPlacements how many of the latest placements to keep */
  public DashboardState(int keepPlacements) {
    if (keepPlacements < 1 || keepPlacements > 10_000) {
      throw new IllegalArgumentException("placements kept must be 1-10000, got " + keepPlacements);
    }
    this.keepPlacements = keepPlacements;
  }

  /** A decision: PlaceTask actions are placements; other actions are not shown. */
  public synchronized void decision(Decision d) {
    version++;
    if (!(d.getAction() instanceof PlaceTask p)) {
      return;
    }
    placements++;
    rate.add(d.getTimeMs());
    PoolTally pool = pool(d.getPool());
    if (pool != null) {
      pool.placements++;
    }
    NodeTally n = node(d.getPool(), d.getNode());
    if (n != null) {
      n.placements++;
      if (!n.lost() && !n.left()) {
        n.placed(p.getTaskId() + "#" + p.getAttempt(), d.getTimeMs());
      }
    }
    PlacementReason r = p.getReason();
    long peer = r == null ? 0 : r.getPeerBytes();
    long storage = r == null ? 0 : r.getStorageBytes();
    // A decision replayed after a failure has the same id: it replaces itself.
    latest.put(new PlacementKey(d.getTimeMs(), d.getDecisionId()), new Snapshot.Placement(
        d.getTimeMs(), text(d.getPool()), text(d.getNode()),
        text(p.getTaskId()), text(p.getJobId()), p.getAttempt(),
        r == null ? "" : text(r.getPolicy()), r == null ? 0 : r.getScore(),
        r == null ? 0 : r.getLocalBytes(), peer, storage, peer + storage,
        localFraction(r == null ? 0 : r.getLocalBytes(), peer + storage)));
    while (latest.size() > keepPlacements) {
      latest.pollFirstEntry();
    }
  }

  public synchronized void taskEvent(TaskEvent e) {
    version++;
    PoolTally pool = pool(e.getPool());
    if (pool == null) {
      return;
    }
    pool.moveClock(e.getTimeMs());
    NodeTally n = node(e.getPool(), e.getNode());
    if (n != null) {
      n.heard(e.getTimeMs());
    }
    String attempt = e.getTaskId() + "#" + e.getAttempt();
    switch (e.getType()) {
      case STARTED -> {
        if (n != null && !n.lost() && !n.left()) {
          n.started(attempt, e.getTimeMs());
        }
      }
      case COMPLETED -> {
        pool.completed++;
        pool.bytesLocal += Math.max(0, e.getBytesLocal());
        pool.bytesPeer += Math.max(0, e.getBytesPeer());
        pool.bytesStorage += Math.max(0, e.getBytesStorage());
        if (n != null) {
          n.completed++;
          n.ended(attempt);
        }
      }
      case FAILED -> {
        pool.failed++;
        if (n != null) {
          n.failed++;
          n.ended(attempt);
        }
      }
      case SUSPENDED, PREEMPTED -> {
        // stopped at the scheduler's request (a suspend; a preemption, issue 24): slot free
        if (n != null) {
          n.ended(attempt);
        }
      }
      case REFUSED, WITHDRAWN -> {
        // never started, but placed: the scheduler stops counting them as running
        if (n != null) {
          n.ended(attempt);
        }
      }
      default -> {
        // SHRUNK attempts go on running
      }
    }
  }

  /**
   * A node report: load and cache figures only. Membership comes from the scheduler's verdicts
   * ({@link #nodeStatus}); once one names the node's owner, another instance's reports (an
   * impostor's) are not folded in.
   */
  public synchronized void nodeReport(NodeReport r) {
    version++;
    PoolTally pool = pool(r.getPool());
    if (pool == null) {
      return;
    }
    pool.moveClock(r.getTimeMs());
    NodeTally n = node(r.getPool(), r.getNode());
    if (n == null || n.owner != null && r.getInstanceId() != null
        && !n.owner.equals(r.getInstanceId().toString())) {
      return;
    }
    n.heard(r.getTimeMs());
    switch (r.getType()) {
      case REGISTER, HEARTBEAT -> capacity(n, r);
      case CACHE_SNAPSHOT -> {
        n.cacheSnapshot();
        for (CachedFile f : r.getAdded()) {
          n.cacheAdded(f.getFileId(), f.getBytes());
        }
      }
      case CACHE_DELTA -> {
        for (String id : r.getRemoved()) {
          n.cacheRemoved(id);
        }
        for (CachedFile f : r.getAdded()) {
          n.cacheAdded(f.getFileId(), f.getBytes());
        }
      }
      case LEAVE -> {
        // the scheduler's LEFT verdict says whether it left: this LEAVE may be an impostor's
      }
    }
  }

  /**
   * The scheduler's verdict on a node. A REFUSED verdict is about the refused instance, not the
   * node: it is counted and changes nothing else (the scheduler follows it with the node's own
   * verdict when the node has an owner).
   */
  public synchronized void nodeStatus(NodeStatus s) {
    version++;
    PoolTally pool = pool(s.getPool());
    if (pool == null) {
      return;
    }
    if (s.getState() == NodeStatusType.REFUSED) {
      refusedRegistrations++;
      return;
    }
    if (s.getState() == NodeStatusType.UNKNOWN) {
      return; // from a newer scheduler: no state this dashboard knows
    }
    NodeTally n = node(s.getPool(), s.getNode());
    if (n == null) {
      return;
    }
    boolean wasMember = n.member();
    n.verdict = s.getState();
    n.owner = s.getInstanceId() == null ? null : text(s.getInstanceId());
    switch (s.getState()) {
      case REGISTERED, DRAINING -> {
        // a REGISTER accepted (the agent restarted): what ran on the node before is gone; a drain
        // ending or the node's verdict repeated after a refusal changes nothing that runs
        if (!wasMember || s.getRegistration()) {
          n.registered(s.getTimeMs());
        }
        if (s.getSlots() > 0) {
          n.slots = s.getSlots();
        }
      }
      case LOST -> {
        n.lostAtMs = s.getTimeMs();
        n.gone();
      }
      case LEFT -> n.gone();
      default -> { }
    }
  }

  private static void capacity(NodeTally n, NodeReport r) {
    if (r.getSlots() > 0) {
      n.slots = r.getSlots();
    }
    if (r.getCacheCapacityBytes() > 0) {
      n.cacheCapacityBytes = r.getCacheCapacityBytes();
    }
    n.queueDepth = Math.max(0, r.getQueueDepth());
  }

  public synchronized void metrics(SchedulerMetrics m) {
    version++;
    PoolTally pool = pool(m.getPool());
    if (pool != null) {
      pool.metrics(m);
    }
  }

  public synchronized void deadLetter(DeadLetter d) {
    version++;
    deadLetters++;
    String code = text(d.getCode());
    if (!letterCounts.containsKey(code) && letterCounts.size() >= MAX_CODES) {
      code = OTHER_CODE;
    }
    letterCounts.computeIfAbsent(code, c -> new long[1])[0]++;
    letterLast.put(code, d);
    letters.addLast(new Snapshot.Letter(d.getTimeMs(), code, text(d.getSourceTopic()),
        d.getPartition(), d.getOffset(), text(d.getReason())));
    while (letters.size() > KEEP_LETTERS) {
      letters.removeFirst();
    }
  }

  /** A record of {@code topic} was read (decoded or not). */
  public synchronized void read(String topic, boolean decoded) {
    read.merge(topic, 1L, Long::sum);
    if (!decoded) {
      undecodable.merge(topic, 1L, Long::sum);
    }
  }

  /** The follower has read every topic up to the end it found at start. */
  public synchronized void caughtUp() {
    caughtUp = true;
    version++;
  }

  private PoolTally pool(String name) {
    PoolTally p = pools.get(name);
    if (p == null && pools.size() < MAX_POOLS) {
      p = new PoolTally(text(name));
      pools.put(name, p);
    }
    return p;
  }

  private NodeTally node(String pool, String node) {
    Map<String, NodeTally> of = nodes.get(pool);
    NodeTally n = of == null ? null : of.get(node);
    if (n == null) {
      if (nodeCount >= MAX_NODES || pools.get(pool) == null && pool(pool) == null) {
        nodesDropped++;
        return null;
      }
      n = new NodeTally(text(pool), text(node));
      nodes.computeIfAbsent(pool, k -> new TreeMap<>()).put(node, n);
      nodeCount++;
    }
    return n;
  }

  static String text(CharSequence s) {
    if (s == null) {
      return "";
    }
    String t = s.toString();
    return t.length() <= MAX_TEXT ? t : t.substring(0, MAX_TEXT) + "…";
  }

  /**
   * The pool's queued tasks per pending reason ({@link Snapshot.Pending}): the known codes in
   * their order with their labels, then any code this dashboard does not know (a newer
   * scheduler's), at most {@link #MAX_CODES} rows.
   */
  static List<Snapshot.Pending> pending(SchedulerMetrics m) {
    List<Snapshot.Pending> out = new ArrayList<>();
    if (m == null || m.getPendingByCode() == null) {
      return out;
    }
    Map<String, Long> by = m.getPendingByCode();
    for (PendingCode c : PendingCode.values()) {
      Long n = by.get(c.code());
      if (n != null && n > 0) {
        out.add(new Snapshot.Pending(c.code(), c.label(), n));
      }
    }
    for (Map.Entry<String, Long> e : by.entrySet()) {
      if (out.size() >= MAX_CODES) {
        break;
      }
      if (PendingCode.of(e.getKey()) == null && e.getValue() != null && e.getValue() > 0) {
        out.add(new Snapshot.Pending(text(e.getKey()), "", e.getValue()));
      }
    }
    return out;
  }

  /** Everything the page shows; {@code nowMs} ends the placements/s window. */
  public synchronized Snapshot snapshot(long nowMs) {
    long local = 0;
    long peer = 0;
    long storage = 0;
    long completed = 0;
    long failed = 0;
    List<Snapshot.Pool> poolList = new ArrayList<>();
    for (Map.Entry<String, PoolTally> pe : pools.entrySet()) {
      PoolTally p = pe.getValue();
      local += p.bytesLocal;
      peer += p.bytesPeer;
      storage += p.bytesStorage;
      completed += p.completed;
      failed += p.failed;
      SchedulerMetrics m = p.metrics;
      long[][] q = p.queueHistory();
      // The Nodes panel's figures, summed: the same facts, so the two panels agree.
      long running = 0;
      int inUse = 0;
      int slots = 0;
      int members = 0;
      for (NodeTally n : nodes.getOrDefault(pe.getKey(), Map.of()).values()) {
        if (n.member()) {
          members++;
          running += n.running();
          inUse += n.inUse();
          slots += Math.max(0, n.slots);
        }
      }
      poolList.add(new Snapshot.Pool(p.pool, m == null ? "" : text(m.getPolicy()),
          m == null ? 0 : m.getQueueLength(), m == null ? 0 : m.getRunningTasks(),
          m == null ? 0 : m.getBusySlots(), m == null ? 0 : m.getTotalSlots(),
          m == null ? 0 : m.getRegisteredNodes(), m == null ? 0 : m.getPlacements(),
          m == null ? 0 : m.getCompletions(), m == null ? 0 : m.getFailures(),
          m == null ? 0 : m.getTimeMs(), p.clockMs == Long.MIN_VALUE ? 0 : p.clockMs,
          running, inUse, slots, members, p.placements, p.completed, p.bytesLocal, p.bytesPeer, p.bytesStorage, p.localRatio(),
          q[0], q[1], pending(m), m == null || m.getPendingReason() == null ? null
              : text(m.getPendingReason()), p.queues.latest(), p.queues.series()));
    }
    List<Snapshot.Node> nodeList = new ArrayList<>();
    List<Snapshot.LostNode> lost = new ArrayList<>();
    int alive = 0;
    List<NodeTally> all = new ArrayList<>(nodeCount);
    for (Map<String, NodeTally> of : nodes.values()) {
      for (NodeTally n : of.values()) {
        if (n.lost()) {
          lost.add(new Snapshot.LostNode(n.pool, n.node, n.heardMs, n.lostAtMs));
        } else if (n.member()) {
          alive++;
        }
        if (n.verdict != null) {
          all.add(n); // a node the scheduler never judged is not listed
        }
      }
    }
    // Members first (alive, draining), then lost, then left; by pool and node within each.
    all.sort(java.util.Comparator.comparingInt(DashboardState::rank));
    for (NodeTally n : all.subList(0, Math.min(NODES_SHOWN, all.size()))) {
      nodeList.add(new Snapshot.Node(n.pool, n.node, n.state(), n.slots, n.running(),
          n.inUse(), n.started(), n.queueDepth, n.cacheBytes, n.cacheCapacityBytes, n.cachedFiles(), n.placements,
          n.completed, n.failed, n.heardMs == Long.MIN_VALUE ? 0 : n.heardMs));
    }
    int notShown = all.size() - nodeList.size();
    long bytesRead = local + peer + storage;
    Snapshot.Totals totals = new Snapshot.Totals(placements,
        rate.perSecond(nowMs, RATE_WINDOW_SECONDS), completed, failed, local, peer, storage,
        ratio(local, bytesRead), ratio(peer, bytesRead), ratio(storage, bytesRead), peer + storage, deadLetters,
        lost.size(), alive, refusedRegistrations);
    List<Snapshot.Reason> reasons = new ArrayList<>();
    letterCounts.forEach((code, c) -> {
      DeadLetter last = letterLast.get(code);
      reasons.add(new Snapshot.Reason(code, c[0], text(last.getReason()),
          text(last.getSourceTopic())));
    });
    reasons.sort((a, b) -> Long.compare(b.count(), a.count()));
    List<Snapshot.Placement> newestFirst = new ArrayList<>(latest.descendingMap().values());
    List<Snapshot.Letter> lettersNewestFirst = new ArrayList<>(letters);
    java.util.Collections.reverse(lettersNewestFirst);
    return new Snapshot(nowMs, version, totals,
        new Snapshot.Rate(SERIES_SECONDS, Math.floorDiv(nowMs, 1000),
            rate.series(nowMs, SERIES_SECONDS)),
        poolList, nodeList, notShown + (int) Math.min(Integer.MAX_VALUE, nodesDropped), lost,
        new Snapshot.DeadLetters(deadLetters, reasons, lettersNewestFirst), newestFirst,
        new Snapshot.Topics(new TreeMap<>(read), new TreeMap<>(undecodable), caughtUp));
  }

  private static int rank(NodeTally n) {
    return n.left() ? 2 : n.lost() ? 1 : 0;
  }

  /**
   * Of a placement's input bytes, the share already on the node: local / (local + to move), 1
   * when it reads nothing (as the scheduler's own {@code score} has it, core's Dispatch). From
   * the bytes, not the policy's {@code score}, so that the column means one thing whatever a
   * policy writes there.
   */
  static double localFraction(long local, long toMove) {
    long l = Math.max(0, local);
    long all = l + Math.max(0, toMove);
    return all == 0 ? 1.0 : (double) l / all;
  }

  private static double ratio(long part, long all) {
    return all == 0 ? 0 : (double) part / all;
  }

  /** Changes with every record folded in. */
  public synchronized long version() {
    return version;
  }
}
