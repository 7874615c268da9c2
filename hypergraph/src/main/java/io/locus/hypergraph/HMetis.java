package io.locus.hypergraph;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;

/**
 * The hMETIS text formats, so that instances can be handed to an external partitioner (hMETIS,
 * KaHyPar, PaToH via converters) and its output read back and scored.
 *
 * <ul>
 *   <li><b>Hypergraph</b>: a header {@code m n [fmt]}, then one line per net (its cost first when
 *       fmt ∈ {1, 11}, then its pins, 1-based), then one weight line per vertex when
 *       fmt ∈ {10, 11}.
 *       Lines starting with {@code %} are comments. fmt is written only as needed: 1 when some net
 *       cost is not 1, 10 when some vertex weight is not 1.
 *   <li><b>Fix file</b> (hMETIS {@code -fixed}, KaHyPar {@code --fixed}): one line per vertex, the
 *       0-based part it is fixed to, or −1 when free.
 *   <li><b>Partition file</b> (hMETIS {@code .part.k} output): one line per vertex, its 0-based
 *       part.
 * </ul>
 *
 * <p>External tools want positive integer weights. {@link #write(Hypergraph, Writer)} writes
 * integral values as integers and other values in decimal (exact round trip through {@link #read},
 * which accepts both); {@link #write(Hypergraph, Writer, double, double)} scales and rounds to
 * integers, raising values that would round to 0 to 1, so the file is valid hMETIS input.
 */
public final class HMetis {
  private HMetis() {}

  /** Writes h exactly: integral weights as integers, others in shortest round-trip decimal. */
  public static void write(Hypergraph h, Writer out) throws IOException {
    writeInternal(h, out, Double.NaN, Double.NaN);
  }

  /**
   * Writes h for external tools: vertex weights × {@code weightScale} and net costs ×
   * {@code costScale}, rounded to integers ≥ 1.
   */
  public static void write(Hypergraph h, Writer out, double weightScale, double costScale)
      throws IOException {
    if (!(weightScale > 0) || !(costScale > 0)) {
      throw new IllegalArgumentException("scales must be > 0");
    }
    writeInternal(h, out, weightScale, costScale);
  }

  private static void writeInternal(Hypergraph h, Writer out, double ws, double cs)
      throws IOException {
    boolean netWeights = false;
    boolean vertexWeights = false;
    for (int e = 0; e < h.m && !netWeights; e++) {
      netWeights = !number(h.cost[e], cs).equals("1");
    }
    for (int v = 0; v < h.n && !vertexWeights; v++) {
      vertexWeights = !number(h.weight[v], ws).equals("1");
    }
    int fmt = (vertexWeights ? 10 : 0) + (netWeights ? 1 : 0);
    StringBuilder line = new StringBuilder();
    line.append(h.m).append(' ').append(h.n);
    if (fmt != 0) {
      line.append(' ').append(fmt);
    }
    out.write(line.append('\n').toString());
    for (int e = 0; e < h.m; e++) {
      line.setLength(0);
      if (netWeights) {
        line.append(number(h.cost[e], cs)).append(' ');
      }
      for (int i = h.netStart[e]; i < h.netStart[e + 1]; i++) {
        if (i > h.netStart[e]) {
          line.append(' ');
        }
        line.append(h.pins[i] + 1);
      }
      out.write(line.append('\n').toString());
    }
    if (vertexWeights) {
      for (int v = 0; v < h.n; v++) {
        out.write(number(h.weight[v], ws) + "\n");
      }
    }
    out.flush();
  }

  private static String number(double x, double scale) {
    if (!Double.isNaN(scale)) {
      return Long.toString(Math.max(1, Math.round(x * scale)));
    }
    if (x == Math.rint(x) && Math.abs(x) < 1e15) {
      return Long.toString((long) x);
    }
    return Double.toString(x);
  }

  /** Reads a hypergraph in hMETIS format (integer or decimal weights). */
  public static Hypergraph read(Reader in) throws IOException {
    BufferedReader r = buffered(in);
    String[] header = tokens(nextLine(r, "header"));
    if (header.length < 2 || header.length > 3) {
      throw new IllegalArgumentException("hMETIS header must be 'm n [fmt]': "
          + String.join(" ", header));
    }
    int m = parseCount(header[0], "net count");
    int n = parseCount(header[1], "vertex count");
    int fmt = header.length == 3 ? Integer.parseInt(header[2]) : 0;
    if (fmt != 0 && fmt != 1 && fmt != 10 && fmt != 11) {
      throw new IllegalArgumentException("unsupported hMETIS fmt " + fmt + " (0, 1, 10, 11)");
    }
    boolean netWeights = fmt % 10 == 1;
    boolean vertexWeights = fmt >= 10;
    Hypergraph.Builder b = Hypergraph.builder();
    b.addVertices(n, 1);
    for (int e = 0; e < m; e++) {
      String[] t = tokens(nextLine(r, "net " + (e + 1)));
      int first = netWeights ? 1 : 0;
      double cost = netWeights ? Double.parseDouble(t[0]) : 1;
      if (t.length <= first) {
        throw new IllegalArgumentException("net " + (e + 1) + " has no pins");
      }
      int[] pins = new int[t.length - first];
      for (int i = first; i < t.length; i++) {
        int p = Integer.parseInt(t[i]);
        if (p < 1 || p > n) {
          throw new IllegalArgumentException("net " + (e + 1) + " has pin " + p + ", n = " + n);
        }
        pins[i - first] = p - 1;
      }
      b.addNet(cost, pins);
    }
    if (vertexWeights) {
      for (int v = 0; v < n; v++) {
        String[] t = tokens(nextLine(r, "weight of vertex " + (v + 1)));
        b.setWeight(v, Double.parseDouble(t[0]));
      }
    }
    return b.build();
  }

  /** Writes a fix file: per vertex its fixed part or −1 ({@code null}: all free). */
  public static void writeFixed(int n, int[] fixed, Writer out) throws IOException {
    if (fixed != null && fixed.length != n) {
      throw new IllegalArgumentException("fixed has " + fixed.length + " entries, n = " + n);
    }
    StringBuilder sb = new StringBuilder();
    for (int v = 0; v < n; v++) {
      sb.append(fixed == null ? -1 : fixed[v]).append('\n');
    }
    out.write(sb.toString());
    out.flush();
  }

  /** Reads a fix file for n vertices. */
  public static int[] readFixed(int n, Reader in) throws IOException {
    return readPerVertex(n, in, "fixed part", -1);
  }

  /** Writes a partition file: per vertex its part. */
  public static void writePartition(Partition p, Writer out) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int v = 0; v < p.hypergraph().numVertices(); v++) {
      sb.append(p.part(v)).append('\n');
    }
    out.write(sb.toString());
    out.flush();
  }

  /** Reads a partition file (e.g. an external partitioner's output) for h into k parts. */
  public static Partition readPartition(Hypergraph h, int k, Reader in) throws IOException {
    return Partition.of(h, k, readPerVertex(h.numVertices(), in, "part", 0));
  }

  private static int[] readPerVertex(int n, Reader in, String what, int min) throws IOException {
    BufferedReader r = buffered(in);
    int[] out = new int[n];
    for (int v = 0; v < n; v++) {
      String[] t = tokens(nextLine(r, what + " of vertex " + (v + 1)));
      out[v] = Integer.parseInt(t[0]);
      if (out[v] < min) {
        throw new IllegalArgumentException(what + " of vertex " + (v + 1) + " is " + out[v]);
      }
    }
    String extra = nextLineOrNull(r);
    if (extra != null) {
      throw new IllegalArgumentException("more than " + n + " lines: '" + extra + "'");
    }
    return out;
  }

  private static BufferedReader buffered(Reader in) {
    return in instanceof BufferedReader br ? br : new BufferedReader(in);
  }

  private static String nextLine(BufferedReader r, String what) throws IOException {
    String line = nextLineOrNull(r);
    if (line == null) {
      throw new IllegalArgumentException("unexpected end of input, expected " + what);
    }
    return line;
  }

  /** Next line that is neither blank nor a % comment. */
  private static String nextLineOrNull(BufferedReader r) throws IOException {
    String line;
    while ((line = r.readLine()) != null) {
      String t = line.strip();
      if (!t.isEmpty() && !t.startsWith("%")) {
        return t;
      }
    }
    return null;
  }

  private static String[] tokens(String line) {
    return line.split("\\s+");
  }

  private static int parseCount(String s, String what) {
    int x = Integer.parseInt(s);
    if (x < 0) {
      throw new IllegalArgumentException(what + " must be >= 0: " + x);
    }
    return x;
  }

  /** Convenience for tests and tools: the hMETIS text of h as a string. */
  public static String toString(Hypergraph h) {
    java.io.StringWriter w = new java.io.StringWriter();
    try {
      write(h, w);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return w.toString();
  }
}
