/**
 * k-way hypergraph partitioning for the connectivity−1 objective χ(Π) = Σ_n c_n·(λ_n − 1), with
 * vertex weights, net costs, a soft balance constraint W_p ≤ (1 + ε)·Σw/k and fixed vertices
 * (hypergraph spec §2.2, D7, D8). Plain Java, no dependencies.
 *
 * <ul>
 *   <li>{@link io.locus.hypergraph.Hypergraph}: immutable, CSR in both directions, built with
 *       {@link io.locus.hypergraph.Hypergraph#builder()}.
 *   <li>{@link io.locus.hypergraph.Partitioner}: {@code partition(h, k, ε, fixed, seed)} returns a
 *       {@link io.locus.hypergraph.Partition} (part per vertex, part weights, χ, imbalance).
 *   <li>{@link io.locus.hypergraph.GreedyKm1}: the spec's default, exactly its pseudocode.
 *   <li>{@link io.locus.hypergraph.MultilevelKm1}: coarsening by heavy-connectivity matching,
 *       initial partitioning by greedy and greedy-growing tries, then label propagation and k-way
 *       FM (with swaps through full parts) on every level.
 *   <li>Baselines {@link io.locus.hypergraph.Greedy} (GreedyKm1's placement alone) and
 *       {@link io.locus.hypergraph.RandomBalanced}; {@link io.locus.hypergraph.Partitioners}
 *       creates any of them by name.
 *   <li>{@link io.locus.hypergraph.HMetis}: hMETIS hypergraph, fix and partition files, to compare
 *       with external partitioners.
 * </ul>
 *
 * <p>Every partitioner is deterministic for its arguments and seed. Memory of MultilevelKm1 is
 * O(pins + n·k) (an n × k gain cache), which is small at scheduler sizes (n ≤ a few thousand, k ≤
 * a few hundred).
 */
package io.locus.hypergraph;
