/**
 * The one discrete-event engine of the simulator: a virtual clock, an {@link
 * io.locus.sim.engine.EventQueue} ordered by (time, scheduling sequence), and the run loop of
 * {@link io.locus.sim.engine.Engine}, into which each model plugs as a {@link
 * io.locus.sim.engine.Model}: data diffusion ({@code io.locus.sim.Simulation}), Khanna staging
 * ({@code io.locus.sim.khanna.KhannaSimulation}), CERN job splitting ({@code
 * io.locus.sim.cern.CernSimulation}) and hybrid cluster mode ({@code
 * io.locus.sim.hybrid.ClusterSimulation}). Every run returns one {@link
 * io.locus.sim.engine.RunResult}: identity, ending, common measures and the model's own.
 */
package io.locus.sim.engine;
