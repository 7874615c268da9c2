package io.locus.sim.flow;

import java.util.Arrays;

/**
 * Resources with a capacity (bytes/s) and the flows crossing them, with max-min fair rates computed
 * by progressive filling (data-diffusion spec §1.4, D29).
 *
 * <p>Why it is incremental: MI has 250,000 tasks and SW 2,000,000, and every read starts and ends a
 * flow. A flow change can only alter the rates of flows connected to it through shared resources, so
 * {@link #settle} recomputes just the connected components that contain a changed resource; a local
 * read on one node's disk never touches the rest of the cluster. Changes made within one batch of
 * equal-time events are settled together, once.
 *
 * <p>Progressive filling runs over a lazy min-heap of resource shares (remaining capacity / unfrozen
 * flows). Freezing flows at the smallest share never lowers another resource's share, so stale heap
 * entries are simply skipped; the cost is O(E log R) for E flow-resource incidences in the component.
 *
 * <p>Flow finish times sit in an indexed min-heap ordered by (finish, flow id), so the next end is
 * O(1) to read and a rate change costs O(log F). Flow ids grow with start order, which makes ties
 * deterministic. Not thread-safe.
 */
public final class FlowNetwork {
  private final int categories;

  // resources
  private int resourceCount;
  private double[] capacity = new double[16];
  private Flow[][] members = new Flow[16][];
  private int[] memberCount = new int[16];
  private int[] visitEpoch = new int[16];
  private int[] dirtyEpoch = new int[16];
  private double[] capLeft = new double[16];
  private int[] unfrozen = new int[16];
  private int[] shareVersion = new int[16];

  // dirty resources since the last settle
  private int[] dirty = new int[16];
  private int dirtyCount;
  private int dirtyMark = 1;

  // scratch for one settle
  private int epoch;
  private int[] compRes = new int[16];
  private int compResCount;
  private Flow[] compFlows = new Flow[16];
  private int compFlowCount;
  private double[] shareKey = new double[16];
  private int[] shareRes = new int[16];
  private int[] shareVer = new int[16];
  private int shareSize;

  // finish-time heap
  private Flow[] heap = new Flow[16];
  private int heapSize;

  private long nextFlowId;
  private final double[] rateSum;
  private final int[] activeByCategory;
  private int active;

  /** @param categories how many flow categories rates are summed by (e.g. local, peer, storage) */
  public FlowNetwork(int categories) {
    this.categories = categories;
    this.rateSum = new double[categories];
    this.activeByCategory = new int[categories];
  }

  /** Adds a resource; returns its id. */
  public int addResource(double capacityBytesPerSecond) {
    if (!(capacityBytesPerSecond >= 0) || Double.isInfinite(capacityBytesPerSecond)) {
      throw new IllegalArgumentException("resource capacity must be finite and >= 0: "
          + capacityBytesPerSecond);
    }
    int r = resourceCount++;
    if (r == capacity.length) {
      int n = r * 2;
      capacity = Arrays.copyOf(capacity, n);
      members = Arrays.copyOf(members, n);
      memberCount = Arrays.copyOf(memberCount, n);
      visitEpoch = Arrays.copyOf(visitEpoch, n);
      dirtyEpoch = Arrays.copyOf(dirtyEpoch, n);
      capLeft = Arrays.copyOf(capLeft, n);
      unfrozen = Arrays.copyOf(unfrozen, n);
      shareVersion = Arrays.copyOf(shareVersion, n);
      compRes = Arrays.copyOf(compRes, n);
    }
    capacity[r] = capacityBytesPerSecond;
    members[r] = new Flow[4];
    return r;
  }

  public int resourceCount() {
    return resourceCount;
  }

  public double capacity(int resource) {
    return capacity[resource];
  }

  /** Flows currently using the resource. */
  public int flowsOn(int resource) {
    return memberCount[resource];
  }

  public int activeFlows() {
    return active;
  }

  /** Sum of the current rates of active flows of a category (bytes/s), for throughput sampling. */
  public double rateSum(int category) {
    return activeByCategory[category] == 0 ? 0.0 : Math.max(0.0, rateSum[category]);
  }

  public int categories() {
    return categories;
  }

  /**
   * Starts a flow of {@code bytes} over distinct {@code resources}. Its rate is 0 until the next
   * {@link #settle}, which the driver calls once per batch of equal-time events.
   */
  public Flow start(double now, int[] resources, double bytes, int category, FlowOwner owner) {
    if (resources.length == 0) {
      throw new IllegalArgumentException("a flow needs at least one resource");
    }
    if (!(bytes >= 0)) {
      throw new IllegalArgumentException("flow size must be >= 0: " + bytes);
    }
    for (int i = 0; i < resources.length; i++) {
      for (int j = i + 1; j < resources.length; j++) {
        if (resources[i] == resources[j]) {
          throw new IllegalArgumentException("a flow crosses resource " + resources[i] + " twice");
        }
      }
    }
    Flow f = new Flow(nextFlowId++, resources, bytes, category, owner, now);
    for (int i = 0; i < resources.length; i++) {
      int r = resources[i];
      if (r < 0 || r >= resourceCount) {
        throw new IllegalArgumentException("unknown resource " + r);
      }
      if (memberCount[r] == members[r].length) {
        members[r] = Arrays.copyOf(members[r], memberCount[r] * 2);
      }
      f.positions[i] = memberCount[r];
      members[r][memberCount[r]++] = f;
      markDirty(r);
    }
    active++;
    activeByCategory[category]++;
    return f;
  }

  /**
   * Stops a flow before its end (its source vanished, its task was cancelled). Returns the bytes it
   * had moved by {@code now}.
   */
  public double cancel(Flow f, double now) {
    if (!f.active) {
      return f.bytes;
    }
    double moved = f.transferred(now);
    detach(f);
    return moved;
  }

  /** Earliest finish time of an active flow, +∞ if none. */
  public double nextFinish() {
    return heapSize == 0 ? Double.POSITIVE_INFINITY : heap[0].finish;
  }

  /**
   * Removes and returns a flow that ends at or before {@code time} (earliest first, ties by start
   * order), or null. Its resources become dirty: settle after handling the batch.
   */
  public Flow pollFinished(double time) {
    if (heapSize == 0 || heap[0].finish > time) {
      return null;
    }
    Flow f = heap[0];
    detach(f);
    f.remaining = 0;
    return f;
  }

  /** Recomputes the rates of every component that changed since the last settle. */
  public void settle(double now) {
    if (dirtyCount == 0) {
      return;
    }
    collectComponents();
    for (int i = 0; i < compFlowCount; i++) {
      Flow f = compFlows[i];
      if (f.rate > 0) {
        f.remaining = Math.max(0.0, f.remaining - f.rate * (now - f.lastUpdate));
      }
      f.lastUpdate = now;
    }
    progressiveFilling();
    for (int i = 0; i < compFlowCount; i++) {
      Flow f = compFlows[i];
      double r = f.newRate;
      if (r == f.rate && f.heapIndex >= 0) {
        continue; // same rate: its finish time is still right
      }
      rateSum[f.category] += r - f.rate;
      f.rate = r;
      f.finish = r > 0 ? now + f.remaining / r : Double.POSITIVE_INFINITY;
      if (f.remaining <= 0) {
        f.finish = now;
      }
      if (f.heapIndex < 0) {
        heapInsert(f);
      } else {
        heapUpdate(f);
      }
    }
    for (int i = 0; i < compFlowCount; i++) {
      compFlows[i] = null;
    }
  }

  // ------------------------------------------------------------------ internals

  private void markDirty(int r) {
    if (dirtyEpoch[r] != dirtyMark) {
      dirtyEpoch[r] = dirtyMark;
      if (dirtyCount == dirty.length) {
        dirty = Arrays.copyOf(dirty, dirtyCount * 2);
      }
      dirty[dirtyCount++] = r;
    }
  }

  private void detach(Flow f) {
    f.active = false;
    for (int i = 0; i < f.resources.length; i++) {
      int r = f.resources[i];
      int p = f.positions[i];
      int last = --memberCount[r];
      Flow moved = members[r][last];
      members[r][p] = moved;
      members[r][last] = null;
      if (moved != f) {
        for (int j = 0; j < moved.resources.length; j++) {
          if (moved.resources[j] == r) {
            moved.positions[j] = p;
            break;
          }
        }
      }
      markDirty(r);
    }
    if (f.heapIndex >= 0) {
      heapRemove(f);
    }
    rateSum[f.category] -= f.rate;
    active--;
    if (--activeByCategory[f.category] == 0) {
      rateSum[f.category] = 0.0; // no drift survives an idle category
    }
  }

  /** Breadth-first walk from the dirty resources over shared flows: the affected components. */
  private void collectComponents() {
    int ep = ++epoch;
    compResCount = 0;
    compFlowCount = 0;
    for (int i = 0; i < dirtyCount; i++) {
      visit(dirty[i], ep);
    }
    dirtyCount = 0;
    dirtyMark++;
    for (int q = 0; q < compResCount; q++) {
      int r = compRes[q];
      Flow[] fs = members[r];
      for (int k = 0, n = memberCount[r]; k < n; k++) {
        Flow f = fs[k];
        if (f.visitEpoch != ep) {
          f.visitEpoch = ep;
          if (compFlowCount == compFlows.length) {
            compFlows = Arrays.copyOf(compFlows, compFlowCount * 2);
          }
          compFlows[compFlowCount++] = f;
          for (int r2 : f.resources) {
            visit(r2, ep);
          }
        }
      }
    }
  }

  private void visit(int r, int ep) {
    if (visitEpoch[r] != ep) {
      visitEpoch[r] = ep;
      compRes[compResCount++] = r;
    }
  }

  /** Spec §1.4 steps 1–5 over the collected component(s); results land in {@code Flow.newRate}. */
  private void progressiveFilling() {
    int ep = epoch;
    shareSize = 0;
    for (int i = 0; i < compResCount; i++) {
      int r = compRes[i];
      capLeft[r] = capacity[r];
      unfrozen[r] = memberCount[r];
      shareVersion[r]++;
      if (unfrozen[r] > 0) {
        sharePush(capLeft[r] / unfrozen[r], r, shareVersion[r]);
      }
    }
    while (shareSize > 0) {
      int r = shareRes[0];
      int ver = shareVer[0];
      sharePop();
      if (ver != shareVersion[r] || unfrozen[r] == 0) {
        continue; // superseded entry
      }
      double x = Math.max(0.0, capLeft[r] / unfrozen[r]);
      Flow[] fs = members[r];
      for (int k = 0, n = memberCount[r]; k < n; k++) {
        Flow f = fs[k];
        if (f.frozenEpoch == ep) {
          continue;
        }
        f.frozenEpoch = ep;
        f.newRate = x;
        for (int r2 : f.resources) {
          if (r2 == r) {
            continue;
          }
          capLeft[r2] -= x;
          shareVersion[r2]++;
          if (--unfrozen[r2] > 0) {
            sharePush(Math.max(0.0, capLeft[r2]) / unfrozen[r2], r2, shareVersion[r2]);
          }
        }
      }
      unfrozen[r] = 0;
      shareVersion[r]++;
    }
  }

  private void sharePush(double key, int r, int ver) {
    if (shareSize == shareKey.length) {
      int n = shareSize * 2;
      shareKey = Arrays.copyOf(shareKey, n);
      shareRes = Arrays.copyOf(shareRes, n);
      shareVer = Arrays.copyOf(shareVer, n);
    }
    int i = shareSize++;
    while (i > 0) {
      int p = (i - 1) >>> 1;
      if (shareKey[p] <= key) {
        break;
      }
      shareKey[i] = shareKey[p];
      shareRes[i] = shareRes[p];
      shareVer[i] = shareVer[p];
      i = p;
    }
    shareKey[i] = key;
    shareRes[i] = r;
    shareVer[i] = ver;
  }

  private void sharePop() {
    int n = --shareSize;
    if (n == 0) {
      return;
    }
    double key = shareKey[n];
    int r = shareRes[n];
    int ver = shareVer[n];
    int i = 0;
    while (true) {
      int c = 2 * i + 1;
      if (c >= n) {
        break;
      }
      if (c + 1 < n && shareKey[c + 1] < shareKey[c]) {
        c++;
      }
      if (key <= shareKey[c]) {
        break;
      }
      shareKey[i] = shareKey[c];
      shareRes[i] = shareRes[c];
      shareVer[i] = shareVer[c];
      i = c;
    }
    shareKey[i] = key;
    shareRes[i] = r;
    shareVer[i] = ver;
  }

  // finish heap: (finish, id) ascending

  private static boolean before(Flow a, Flow b) {
    return a.finish < b.finish || (a.finish == b.finish && a.id < b.id);
  }

  private void heapInsert(Flow f) {
    if (heapSize == heap.length) {
      heap = Arrays.copyOf(heap, heapSize * 2);
    }
    f.heapIndex = heapSize;
    heap[heapSize++] = f;
    siftUp(f.heapIndex);
  }

  private void heapUpdate(Flow f) {
    int i = f.heapIndex;
    siftUp(i);
    siftDown(f.heapIndex);
  }

  private void heapRemove(Flow f) {
    int i = f.heapIndex;
    int last = --heapSize;
    Flow moved = heap[last];
    heap[last] = null;
    f.heapIndex = -1;
    if (i != last) {
      heap[i] = moved;
      moved.heapIndex = i;
      siftUp(i);
      siftDown(moved.heapIndex);
    }
  }

  private void siftUp(int i) {
    Flow f = heap[i];
    while (i > 0) {
      int p = (i - 1) >>> 1;
      if (!before(f, heap[p])) {
        break;
      }
      heap[i] = heap[p];
      heap[i].heapIndex = i;
      i = p;
    }
    heap[i] = f;
    f.heapIndex = i;
  }

  private void siftDown(int i) {
    Flow f = heap[i];
    while (true) {
      int c = 2 * i + 1;
      if (c >= heapSize) {
        break;
      }
      if (c + 1 < heapSize && before(heap[c + 1], heap[c])) {
        c++;
      }
      if (!before(heap[c], f)) {
        break;
      }
      heap[i] = heap[c];
      heap[i].heapIndex = i;
      i = c;
    }
    heap[i] = f;
    f.heapIndex = i;
  }
}
