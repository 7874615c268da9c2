/**
 * The discrete-event, virtual-time simulator of data diffusion (data-diffusion spec §1–§6), the
 * first of the four models on the one engine ({@code io.locus.sim.engine}). It drives the same
 * policy core ({@code io.locus.core.Scheduler}) as the streaming job: {@link
 * io.locus.sim.Simulation} feeds it arrivals, completions, registrations and cache deltas in virtual
 * time, through the Scheduler's {@code apply*} methods, and executes its commands on a modelled
 * cluster ({@code exec}) whose reads are max-min fair flows ({@code flow}). A {@link
 * io.locus.sim.TaskPlacer} decides where tasks run (the core, or the LRM-per-task baseline). Nothing
 * in the model reads a wall clock; a run is a pure function of its configuration, its workload and
 * its seed.
 */
package io.locus.sim;
