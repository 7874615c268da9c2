/**
 * Splittable jobs over event ranges (the CERN spec, Ponce and Hersch): the per-event cost model
 * ({@link io.locus.core.split.EventCosts}), range-based LRU caches ({@link
 * io.locus.core.split.RangeLru}) with a pool-wide interval index ({@link
 * io.locus.core.split.CoverageIndex}), the splitting primitives ({@link io.locus.core.split.Pieces},
 * {@link io.locus.core.split.Striping}), and the seven policies behind one driver interface ({@link
 * io.locus.core.split.SplitPolicy}, created by {@link io.locus.core.split.SplitPolicies}), with the
 * stop-acknowledgement protocol and the state in parts for the streaming driver (the entries a
 * {@link io.locus.core.split.SplitJournal} hears, and a restore from them). Plain Java: no Flink,
 * no Avro, no clock, no randomness.
 */
package io.locus.core.split;
