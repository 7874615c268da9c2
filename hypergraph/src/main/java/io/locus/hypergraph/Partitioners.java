package io.locus.hypergraph;

import java.util.List;

/** The partitioners of this package by name, for configuration flags and benchmarks. */
public final class Partitioners {
  public static final List<String> NAMES =
      List.of("GreedyKm1", "MultilevelKm1", "Greedy", "RandomBalanced");

  private Partitioners() {}

  /** A new partitioner: GreedyKm1 (spec default, D7), MultilevelKm1, Greedy, RandomBalanced. */
  public static Partitioner create(String name) {
    return switch (name) {
      case "GreedyKm1" -> new GreedyKm1();
      case "MultilevelKm1" -> new MultilevelKm1();
      case "Greedy" -> new Greedy();
      case "RandomBalanced" -> new RandomBalanced();
      default -> throw new IllegalArgumentException("unknown partitioner '" + name + "', one of "
          + NAMES);
    };
  }
}
