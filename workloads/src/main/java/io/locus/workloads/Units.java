package io.locus.workloads;

/**
 * Size units. The two source families disagree: data diffusion (Raicu) is decimal, Khanna is
 * binary. Keeping both named here stops a 4.9 % error from creeping in through a bare literal.
 */
public final class Units {
  /** Decimal megabyte, data-diffusion spec "Units": MB = 10^6 bytes. */
  public static final long MB = 1_000_000L;
  /** Binary mebibyte, hypergraph spec "Units" and D27. */
  public static final long MIB = 1_048_576L;

  private Units() {}
}
