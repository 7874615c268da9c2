/**
 * Hybrid CPU/IO co-scheduling (spec {@code hybrid-coscheduling.md}, Koçak): jobs and nodes carry
 * resource vectors ({@link io.locus.core.model.ResourceVector}); schedulers keep one list per
 * resource sorted by that resource's demand and take the lists' heads in round robin.
 *
 * <ul>
 *   <li>Thesis mode (epoch model, §2.1–2.3): {@link io.locus.core.hybrid.GreedySortMerge} and its
 *       baselines and variants, all {@link io.locus.core.hybrid.EpochScheduler}s.
 *   <li>Cluster mode (§2.4–2.5, online): {@link io.locus.core.hybrid.OnlineGreedySortMerge} and the
 *       online baselines over a {@link io.locus.core.hybrid.HybridCluster}, with the
 *       {@link io.locus.core.hybrid.FluidModel} of §1.4 for progress and the
 *       {@link io.locus.core.hybrid.PowerModel} of §1.6 for energy.
 *   <li>Data-locality pools (§2.6): {@link io.locus.core.hybrid.ComplementaryPlace}, a
 *       {@link io.locus.core.policy.Policy} of the pool core, so the streaming job runs it too.
 * </ul>
 *
 * Plain Java, no clock, no unseeded randomness: same input order, same decisions.
 */
package io.locus.core.hybrid;
