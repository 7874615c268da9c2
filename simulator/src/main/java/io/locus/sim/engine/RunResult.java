package io.locus.sim.engine;

/**
 * What a run of any simulator model reports: who ran, how the run ended, the measures every model
 * has, and the model's own measures ({@code detail}). Every value comes from virtual time and is
 * reproducible for a seed, except {@code schedulerCpuSeconds} and {@code wallSeconds}, which
 * measure the host.
 *
 * @param model which simulator model ran (e.g. "data-diffusion", "khanna", "cern", "hybrid-cluster")
 * @param label the configuration's name in its experiment (the policy's when it has none)
 * @param policy the policy (or scheduler) that decided
 * @param ending how the run ended
 * @param endTime virtual time at the end, seconds
 * @param events events the engine ran
 * @param jobs jobs that finished in the run
 * @param schedulerCpuSeconds host CPU time spent in scheduling decisions; NaN when not measured
 * @param wallSeconds host wall time of the run
 * @param detail the model's own measures
 * @param <D> the model's measures
 */
public record RunResult<D>(String model, String label, String policy, Ending ending,
    double endTime, long events, long jobs, double schedulerCpuSeconds, double wallSeconds,
    D detail) {

  /** A result with the engine's outcome (ending, end time, events, wall time). */
  public static <D> RunResult<D> of(String model, String label, String policy,
      Engine.Outcome outcome, long jobs, double schedulerCpuSeconds, D detail) {
    return new RunResult<>(model, label, policy, outcome.ending(), outcome.endTime(),
        outcome.events(), jobs, schedulerCpuSeconds, outcome.wallSeconds(), detail);
  }

  /** The model was done when the run ended (not cut, stalled, out of events or past a horizon). */
  public boolean complete() {
    return ending == Ending.FINISHED;
  }

  /**
   * This result without its host measurements (scheduler CPU and wall time, both NaN): equal for
   * two runs that computed the same (records compare NaN equal to NaN).
   */
  public RunResult<D> withoutHostMeasures() {
    return new RunResult<>(model, label, policy, ending, endTime, events, jobs, Double.NaN,
        Double.NaN, detail);
  }

  /** Scheduler CPU time per simulated second ("master load"); NaN when not measured. */
  public double schedulerLoad() {
    return schedulerCpuSeconds / endTime;
  }
}
