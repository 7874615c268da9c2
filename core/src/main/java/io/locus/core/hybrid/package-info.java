/**
 * Hybrid CPU/IO co-scheduling (spec {@code hybrid-coscheduling.md}, Koçak) for data-locality pools
 * (§2.6): {@link io.locus.core.hybrid.ComplementaryPlace}, a {@link io.locus.core.policy.Policy} of
 * the pool core, so the streaming job runs it too. Tasks carry resource profiles
 * ({@link io.locus.core.model.ResourceVector}); the policy keeps one list per resource sorted by
 * that resource's demand and takes the lists' heads in round robin.
 *
 * <p>The spec's other models (the epoch model and its schedulers, the cluster-mode online
 * schedulers, the fluid and power models) serve only the simulator and live there
 * ({@code io.locus.sim.hybrid.epoch}, {@code io.locus.sim.hybrid.cluster}).
 *
 * Plain Java, no clock, no unseeded randomness: same input order, same decisions.
 */
package io.locus.core.hybrid;
