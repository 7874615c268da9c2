/**
 * The hybrid co-scheduling experiments (spec {@code hybrid-coscheduling.md} §5): H3, the epoch-model
 * scheduler simulation ({@link io.locus.sim.hybrid.EpochExperiment} over the schedulers of
 * {@code epoch}), and a cluster-mode run of the online schedulers of {@code cluster} with the fluid
 * progress model and the power model ({@link io.locus.sim.hybrid.ClusterSimulation},
 * {@link io.locus.sim.hybrid.ClusterExperiment}). {@code locus experiment hybrid} runs both
 * ({@link io.locus.sim.hybrid.HybridExperiments}).
 */
package io.locus.sim.hybrid;
