package io.locus.dashboard;

import io.locus.schemas.NodeStatusType;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * What the dashboard knows of one node of one pool: its standing as the scheduler judged it
 * (node-status: registered, draining, left, lost), its slots, its cache capacity and contents as
 * its owner instance reported them (CACHE_SNAPSHOT resets them, CACHE_DELTA adds and removes), the
 * attempts placed on it and not yet ended, and when it was last heard from.
 *
 * <p>"Running" is counted as the scheduler counts it (its {@code runningTasks} and
 * {@code busySlots} metrics): an attempt runs on a node from its PlaceTask decision (or its
 * STARTED, whichever is read first) until its COMPLETED, FAILED, SUSPENDED, REFUSED or WITHDRAWN;
 * a node uses min(running, slots) slots, the rest wait in its local queue (late binding). Counting
 * only STARTED, as the page once did, showed idle nodes next to a pool whose slots were all busy.
 * The topics are read in no order across each other (a rebuild may read every task event before
 * any decision), so an end read before its decision is remembered and that decision not counted.
 * Not thread-safe: {@link DashboardState} guards it.
 */
final class NodeTally {
  /** Beyond this many cached files per node, sizes are no longer kept (fill becomes a bound). */
  static final int MAX_CACHE_ENTRIES = 200_000;
  /** Beyond this many open attempts on one node (lost end events?), new ones are not tracked. */
  static final int MAX_RUNNING = 10_000;
  /** Ends remembered per node whose decision was not read (yet). */
  static final int MAX_ENDED_UNDECIDED = 1_000;

  final String pool;
  final String node;
  int slots;
  int queueDepth;
  long cacheCapacityBytes;
  long cacheBytes;
  /** File id → size, as the node reported it: removals carry only the id. */
  private final Map<String, Long> cached = new HashMap<>();
  /** Cache entries dropped because {@link #MAX_CACHE_ENTRIES} was reached. */
  long cacheEntriesNotKept;
  /** Running attempts (taskId#attempt), placed or started and not ended. */
  private final Map<String, Attempt> running = new HashMap<>();
  /**
   * Attempts whose end was read before their decision (taskId#attempt), oldest first, bounded by
   * {@link #MAX_ENDED_UNDECIDED}: their decision, when read, does not make them run.
   */
  private final Set<String> endedUndecided = new LinkedHashSet<>();

  /** One running attempt: when it was first heard of, whether decided and started. */
  private static final class Attempt {
    long sinceMs;
    boolean decided;
    boolean started;

    Attempt(long sinceMs) {
      this.sinceMs = sinceMs;
    }
  }
  long placements;
  long completed;
  long failed;
  long heardMs = Long.MIN_VALUE;
  /**
   * The scheduler's latest verdict on the node (node-status), or null before one is read: only
   * a node the scheduler accepted is a member of its pool, whatever node-reports holds.
   */
  NodeStatusType verdict;
  /** The agent instance the scheduler has for the node (its verdict's), or null. */
  String owner;
  /** When the scheduler declared it lost (its verdict's record clock). */
  long lostAtMs;

  NodeTally(String pool, String node) {
    this.pool = pool;
    this.node = node;
  }

  void heard(long timeMs) {
    heardMs = Math.max(heardMs, timeMs);
  }

  void cacheSnapshot() {
    cached.clear();
    cacheBytes = 0;
  }

  void cacheAdded(String fileId, long bytes) {
    long size = Math.max(0, bytes);
    Long before = cached.get(fileId);
    if (before != null) {
      cacheBytes += size - before;
      cached.put(fileId, size);
    } else if (cached.size() < MAX_CACHE_ENTRIES) {
      cached.put(fileId, size);
      cacheBytes += size;
    } else {
      cacheEntriesNotKept++;
    }
  }

  void cacheRemoved(String fileId) {
    Long before = cached.remove(fileId);
    if (before != null) {
      cacheBytes -= before;
    }
  }

  int cachedFiles() {
    return cached.size();
  }

  /** A PlaceTask decision for the attempt at {@code timeMs}. */
  void placed(String attempt, long timeMs) {
    if (endedUndecided.remove(attempt)) {
      return; // it has ended already (its end was read first)
    }
    Attempt a = track(attempt, timeMs);
    if (a != null) {
      a.decided = true;
    }
  }

  /** A STARTED; a repeated one (an agent answering a duplicate decision) changes nothing. */
  void started(String attempt, long timeMs) {
    Attempt a = track(attempt, timeMs);
    if (a != null) {
      a.started = true;
    }
  }

  private Attempt track(String attempt, long timeMs) {
    Attempt a = running.get(attempt);
    if (a == null) {
      if (running.size() >= MAX_RUNNING) {
        return null;
      }
      a = new Attempt(timeMs);
      running.put(attempt, a);
    }
    a.sinceMs = Math.min(a.sinceMs, timeMs);
    return a;
  }

  /** COMPLETED, FAILED, SUSPENDED, REFUSED or WITHDRAWN. */
  void ended(String attempt) {
    Attempt a = running.remove(attempt);
    if (a == null || !a.decided) {
      endedUndecided.add(attempt);
      if (endedUndecided.size() > MAX_ENDED_UNDECIDED) {
        endedUndecided.remove(endedUndecided.iterator().next());
      }
    }
  }

  /** Attempts placed (or started) here and not ended: the scheduler's "running". */
  int running() {
    return running.size();
  }

  /** Slots in use as the scheduler counts them: min(running, slots). */
  int inUse() {
    return Math.min(running.size(), Math.max(0, slots));
  }

  /** Of the running attempts, those the node reported STARTED. */
  int started() {
    int n = 0;
    for (Attempt a : running.values()) {
      if (a.started) {
        n++;
      }
    }
    return n;
  }

  /** Lost or left: what it was running is re-placed elsewhere. */
  void gone() {
    running.clear();
  }

  /**
   * The scheduler registered the node at {@code timeMs}: it is (again) a member of its pool, and
   * what ran on it before is gone. Only what was heard of before: when a dashboard rebuilds from
   * the topics it may read a node's verdict after the placements that followed it.
   */
  void registered(long timeMs) {
    running.values().removeIf(a -> a.sinceMs < timeMs);
  }

  /** A member of its pool: the scheduler registered it and it has not left or been lost since. */
  boolean member() {
    return verdict == NodeStatusType.REGISTERED || verdict == NodeStatusType.DRAINING;
  }

  boolean left() {
    return verdict == NodeStatusType.LEFT;
  }

  boolean lost() {
    return verdict == NodeStatusType.LOST;
  }

  String state() {
    if (verdict == null) {
      return "unconfirmed";
    }
    return switch (verdict) {
      case LEFT -> "left";
      case LOST -> "lost";
      case DRAINING -> "draining";
      default -> "alive";
    };
  }
}
