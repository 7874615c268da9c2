/**
 * The discrete-event, virtual-time simulator of data diffusion (data-diffusion spec §1–§6). It drives
 * the same policy core ({@code io.locus.core.Scheduler}) as the streaming job: {@link
 * io.locus.sim.Simulation} feeds it arrivals, completions, registrations and cache deltas in virtual
 * time and executes its commands on a modelled cluster ({@code exec}) whose reads are max-min fair
 * flows ({@code flow}). Nothing in the model reads a wall clock; a run is a pure function of its
 * configuration, its workload and its seed.
 */
package io.locus.sim;
