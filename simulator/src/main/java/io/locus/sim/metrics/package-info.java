/** Metrics of spec §6, the per-second series, the abstract model of §1.5 and PI. */
package io.locus.sim.metrics;
