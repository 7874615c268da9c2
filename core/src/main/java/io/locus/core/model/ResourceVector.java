package io.locus.core.model;

/**
 * A demand or capacity vector ⟨cpu, mem, disk, net⟩. Units are the caller's: percentages of one
 * capacity unit in thesis mode (0–100), fractions of one node in cluster mode (0–1, D1). Disk is
 * read + write bandwidth; net is 0 where it is not modelled (D8).
 */
public record ResourceVector(double cpu, double mem, double disk, double net) {
  /**
   * Tolerance of the fit test. The test is {@code ≤} (D4, G2); sums of decimal shares (0.1 + 0.2)
   * carry rounding of about 1e-16, which must not turn an exact fit into a miss.
   */
  public static final double EPS = 1e-9;

  public static final ResourceVector ZERO = new ResourceVector(0, 0, 0, 0);

  public ResourceVector {
    check("cpu", cpu);
    check("mem", mem);
    check("disk", disk);
    check("net", net);
  }

  private static void check(String what, double v) {
    if (!(v >= 0) || Double.isInfinite(v)) {
      throw new IllegalArgumentException(what + " must be a finite number >= 0, got " + v);
    }
  }

  /** ⟨c, m, d⟩ with no network demand. */
  public static ResourceVector of(double cpu, double mem, double disk) {
    return new ResourceVector(cpu, mem, disk, 0);
  }

  /** The same value in every dimension (a capacity, a headroom). */
  public static ResourceVector uniform(double v) {
    return new ResourceVector(v, v, v, v);
  }

  /**
   * §2.8 cold start: a job without a profile uses ⟨1.0, m_declared, 1.0⟩, so it runs alone until
   * profiled. Network is left at 0: CPU 1.0 already keeps everything else off the node.
   */
  public static ResourceVector coldStart(double declaredMem) {
    return new ResourceVector(1.0, declaredMem, 1.0, 0.0);
  }

  public double get(Resource r) {
    return switch (r) {
      case CPU -> cpu;
      case MEM -> mem;
      case DISK -> disk;
      case NET -> net;
    };
  }

  public ResourceVector plus(ResourceVector o) {
    return new ResourceVector(cpu + o.cpu, mem + o.mem, disk + o.disk, net + o.net);
  }

  /** Component-wise difference, clamped at 0 (a freed capacity cannot go below empty). */
  public ResourceVector minus(ResourceVector o) {
    return new ResourceVector(Math.max(0, cpu - o.cpu), Math.max(0, mem - o.mem),
        Math.max(0, disk - o.disk), Math.max(0, net - o.net));
  }

  /** Component-wise product (headroom ⊙ capacity). */
  public ResourceVector times(ResourceVector o) {
    return new ResourceVector(cpu * o.cpu, mem * o.mem, disk * o.disk, net * o.net);
  }

  public ResourceVector scale(double f) {
    return new ResourceVector(cpu * f, mem * f, disk * f, net * f);
  }

  /** Component-wise quotient; a zero capacity maps to 0 (nothing of it is demanded or offered). */
  public ResourceVector dividedBy(ResourceVector cap) {
    return new ResourceVector(div(cpu, cap.cpu), div(mem, cap.mem), div(disk, cap.disk),
        div(net, cap.net));
  }

  private static double div(double a, double b) {
    return b == 0 ? 0 : a / b;
  }

  /** §1.3: fits(j, cap) ⇔ j[r] ≤ cap[r] for every resource r (≤, not <; D4). */
  public boolean fitsIn(ResourceVector cap) {
    return cpu <= cap.cpu + EPS && mem <= cap.mem + EPS && disk <= cap.disk + EPS
        && net <= cap.net + EPS;
  }

  public double dot(ResourceVector o) {
    return cpu * o.cpu + mem * o.mem + disk * o.disk + net * o.net;
  }

  public double norm() {
    return Math.sqrt(dot(this));
  }

  /** max_r v[r]: the peak share. */
  public double peak() {
    return Math.max(Math.max(cpu, mem), Math.max(disk, net));
  }

  public boolean isZero() {
    return cpu == 0 && mem == 0 && disk == 0 && net == 0;
  }

  /**
   * §2.5 comp(L, p) = 1 − (L·p) / (|L| |p|), and 1 when either vector is 0: 1 for orthogonal
   * demands (a CPU job on a disk-loaded node), 0 for parallel ones.
   */
  public static double comp(ResourceVector load, ResourceVector p) {
    double nl = load.norm();
    double np = p.norm();
    if (nl == 0 || np == 0) {
      return 1.0;
    }
    return 1.0 - load.dot(p) / (nl * np);
  }

  /**
   * D2 (informational): "CPU" if c ≥ 0.7 and d ≤ 0.3, "IO" if d ≥ 0.5 and c ≤ 0.3, else "MIXED";
   * {@code unit} is 1 for fractions, 100 for percentages.
   */
  public String classify(double unit) {
    double c = cpu / unit;
    double d = disk / unit;
    if (c >= 0.7 && d <= 0.3) {
      return "CPU";
    }
    if (d >= 0.5 && c <= 0.3) {
      return "IO";
    }
    return "MIXED";
  }
}
