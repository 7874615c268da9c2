package io.locus.hypergraph;

import java.util.Arrays;

/**
 * An immutable hypergraph: vertices {@code 0..n−1} with non-negative weights, nets {@code 0..m−1}
 * with non-negative costs and distinct pins.
 *
 * <p>Storage is CSR in both directions (net → pins and vertex → incident nets), so partitioners
 * walk plain int arrays. Weights are doubles because the scheduler's vertex weights are seconds
 * (hypergraph spec §2.2); net costs are file sizes in MiB.
 */
public final class Hypergraph {
  final int n;
  final int m;
  final double[] weight;
  final double[] cost;
  final int[] netStart; // pins of net e: pins[netStart[e] .. netStart[e+1])
  final int[] pins;
  final int[] vertexStart; // nets of vertex v: nets[vertexStart[v] .. vertexStart[v+1])
  final int[] nets;
  final double totalWeight;
  final double maxWeight;

  /** Trusted constructor: arrays are owned by the new instance and already valid. */
  Hypergraph(double[] weight, double[] cost, int[] netStart, int[] pins) {
    this.n = weight.length;
    this.m = cost.length;
    this.weight = weight;
    this.cost = cost;
    this.netStart = netStart;
    this.pins = pins;
    this.vertexStart = new int[n + 1];
    for (int p : pins) {
      vertexStart[p + 1]++;
    }
    for (int v = 0; v < n; v++) {
      vertexStart[v + 1] += vertexStart[v];
    }
    this.nets = new int[pins.length];
    int[] fill = Arrays.copyOf(vertexStart, n);
    for (int e = 0; e < m; e++) { // nets ascending, so each vertex's nets come out sorted
      for (int i = netStart[e]; i < netStart[e + 1]; i++) {
        nets[fill[pins[i]]++] = e;
      }
    }
    double t = 0;
    double mx = 0;
    for (double w : weight) {
      t += w;
      mx = Math.max(mx, w);
    }
    this.totalWeight = t;
    this.maxWeight = mx;
  }

  public static Builder builder() {
    return new Builder();
  }

  public int numVertices() {
    return n;
  }

  public int numNets() {
    return m;
  }

  public int numPins() {
    return pins.length;
  }

  public double weight(int v) {
    return weight[v];
  }

  public double cost(int e) {
    return cost[e];
  }

  public int netSize(int e) {
    return netStart[e + 1] - netStart[e];
  }

  /** The i-th pin of net e, {@code 0 ≤ i < netSize(e)}. */
  public int pin(int e, int i) {
    if (i < 0 || i >= netSize(e)) {
      throw new IndexOutOfBoundsException("pin " + i + " of net " + e + " of size " + netSize(e));
    }
    return pins[netStart[e] + i];
  }

  /** A copy of the pins of net e, in insertion order. */
  public int[] pins(int e) {
    return Arrays.copyOfRange(pins, netStart[e], netStart[e + 1]);
  }

  public int degree(int v) {
    return vertexStart[v + 1] - vertexStart[v];
  }

  /** A copy of the nets incident to v, ascending. */
  public int[] incidentNets(int v) {
    return Arrays.copyOfRange(nets, vertexStart[v], vertexStart[v + 1]);
  }

  public double totalWeight() {
    return totalWeight;
  }

  public double maxWeight() {
    return maxWeight;
  }

  public double totalCost() {
    double t = 0;
    for (double c : cost) {
      t += c;
    }
    return t;
  }

  /**
   * The same hypergraph without nets of at most one pin. Such nets can never be cut, and spec §2.2
   * drops them once the vertex weights (which count their pins) are known.
   */
  public Hypergraph withoutSinglePinNets() {
    int kept = 0;
    int keptPins = 0;
    for (int e = 0; e < m; e++) {
      if (netSize(e) > 1) {
        kept++;
        keptPins += netSize(e);
      }
    }
    if (kept == m) {
      return this;
    }
    double[] c = new double[kept];
    int[] start = new int[kept + 1];
    int[] p = new int[keptPins];
    for (int e = 0, j = 0; e < m; e++) {
      if (netSize(e) > 1) {
        c[j] = cost[e];
        int len = netSize(e);
        System.arraycopy(pins, netStart[e], p, start[j], len);
        start[j + 1] = start[j] + len;
        j++;
      }
    }
    return new Hypergraph(weight.clone(), c, start, p);
  }

  @Override
  public String toString() {
    return "Hypergraph[n=" + n + ", m=" + m + ", pins=" + pins.length + "]";
  }

  /** Collects vertices and nets; pins may name vertices added later, checked at {@link #build}. */
  public static final class Builder {
    private double[] weight = new double[16];
    private int n;
    private double[] cost = new double[16];
    private int[] netStart = new int[17];
    private int m;
    private int[] pins = new int[64];
    private int[] seen = new int[16]; // per vertex: 1 + last net that listed it, to drop repeats

    private Builder() {}

    /** Adds a vertex and returns its id (ids are dense, in insertion order). */
    public int addVertex(double w) {
      checkWeight(w, "vertex weight");
      if (n == weight.length) {
        weight = Arrays.copyOf(weight, n * 2);
      }
      weight[n] = w;
      return n++;
    }

    /** Adds {@code count} vertices of weight w; returns the id of the first. */
    public int addVertices(int count, double w) {
      if (count < 0) {
        throw new IllegalArgumentException("count must be >= 0: " + count);
      }
      int first = n;
      for (int i = 0; i < count; i++) {
        addVertex(w);
      }
      return first;
    }

    public Builder setWeight(int v, double w) {
      if (v < 0 || v >= n) {
        throw new IllegalArgumentException("no vertex " + v);
      }
      checkWeight(w, "vertex weight");
      weight[v] = w;
      return this;
    }

    public int numVertices() {
      return n;
    }

    /**
     * Adds a net and returns its id. A pin listed twice counts once (a net is a set); a net needs
     * at least one pin.
     */
    public int addNet(double c, int... netPins) {
      checkWeight(c, "net cost");
      if (netPins.length == 0) {
        throw new IllegalArgumentException("a net needs at least one pin");
      }
      if (m == cost.length) {
        cost = Arrays.copyOf(cost, m * 2);
        netStart = Arrays.copyOf(netStart, m * 2 + 1);
      }
      int at = netStart[m];
      for (int p : netPins) {
        if (p < 0) {
          throw new IllegalArgumentException("negative pin " + p);
        }
        if (p >= seen.length) {
          seen = Arrays.copyOf(seen, Math.max(p + 1, seen.length * 2));
        }
        if (seen[p] == m + 1) {
          continue;
        }
        seen[p] = m + 1;
        if (at == pins.length) {
          pins = Arrays.copyOf(pins, pins.length * 2);
        }
        pins[at++] = p;
      }
      cost[m] = c;
      netStart[m + 1] = at;
      return m++;
    }

    public Hypergraph build() {
      int np = netStart[m];
      for (int i = 0; i < np; i++) {
        if (pins[i] >= n) {
          throw new IllegalArgumentException("pin " + pins[i] + " names no vertex (n = " + n + ")");
        }
      }
      return new Hypergraph(Arrays.copyOf(weight, n), Arrays.copyOf(cost, m),
          Arrays.copyOf(netStart, m + 1), Arrays.copyOf(pins, np));
    }

    private static void checkWeight(double w, String what) {
      if (!(w >= 0) || Double.isInfinite(w)) {
        throw new IllegalArgumentException(what + " must be finite and >= 0: " + w);
      }
    }
  }
}
