/**
 * Cluster mode of hybrid co-scheduling (spec {@code hybrid-coscheduling.md} §2.4–2.5, D5): jobs
 * arrive over time on a {@link io.locus.sim.hybrid.cluster.HybridCluster} of nodes with capacity
 * vectors; an {@link io.locus.sim.hybrid.cluster.OnlineScheduler} (the online
 * {@link io.locus.sim.hybrid.cluster.OnlineGreedySortMerge} with the §2.5
 * {@link io.locus.sim.hybrid.cluster.NodeChoice}, and the baselines) starts them; the
 * {@link io.locus.sim.hybrid.cluster.FluidModel} of §1.4 advances them and the
 * {@link io.locus.sim.hybrid.cluster.PowerModel} of §1.6 prices the energy. Simulator models only
 * (moved here from the policy core, which keeps the pool policy {@code ComplementaryPlace}).
 *
 * Plain Java, no clock, no unseeded randomness: same input order, same decisions.
 */
package io.locus.sim.hybrid.cluster;
