package io.locus.core.model;

import java.util.List;

/** A resource dimension of a {@link ResourceVector}. */
public enum Resource {
  CPU,
  MEM,
  DISK,
  NET;

  /** Round-robin order in thesis mode (§2): CPU, MEM, DISK; network ignored (D8). */
  public static final List<Resource> THESIS_ORDER = List.of(CPU, MEM, DISK);
  /** Round-robin order in cluster mode (§2, D7, D8): memory is the last list. */
  public static final List<Resource> CLUSTER_ORDER = List.of(CPU, DISK, NET, MEM);
}
