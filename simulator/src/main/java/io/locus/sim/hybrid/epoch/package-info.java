/**
 * Thesis mode of hybrid co-scheduling (spec {@code hybrid-coscheduling.md} §1.4 epoch model,
 * §2.1–2.3): every job lasts one epoch and the capacity resets at each epoch's start.
 * {@link io.locus.sim.hybrid.epoch.GreedySortMerge} keeps one list per resource sorted by that
 * resource's demand and takes the lists' heads in round robin; its baselines and variants are the
 * other {@link io.locus.sim.hybrid.epoch.EpochScheduler}s, by name in
 * {@link io.locus.sim.hybrid.epoch.EpochSchedulers}. Simulator models only (moved here from the
 * policy core, which keeps the pool policy {@code ComplementaryPlace}).
 *
 * Plain Java, no clock, no unseeded randomness: same input order, same schedule.
 */
package io.locus.sim.hybrid.epoch;
