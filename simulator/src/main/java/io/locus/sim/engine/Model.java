package io.locus.sim.engine;

/**
 * A simulation model that plugs into the {@link Engine}. The engine owns the clock, the event queue
 * and the loop; the model owns its state and says what happens. Everything scheduled on the
 * engine's queue runs at its time in (time, scheduling order); the hooks below cover what the
 * queue cannot hold: model-internal timetables whose next time moves with every change (flow ends
 * under max-min fair sharing, fluid-model completions), integration over time, and the one dispatch
 * per instant of the batching models.
 *
 * <p>Per instant t the engine runs the queue's events of t, then {@link #runDue}(t), repeating
 * while that creates more work at t, then {@link #afterInstant}(t) once.
 *
 * @param <D> the model's own measures, the {@link RunResult#detail()} of its runs
 */
public interface Model<D> {
  /** At t = 0, before the loop: register nodes, schedule arrivals and background events. */
  void start(Engine engine);

  /** Whether the run is done; asked before every instant (and after a {@link Engine#stop()}). */
  boolean finished();

  /** The next time something inside the model (not on the queue) is due; +∞ if nothing is. */
  default double nextDue() {
    return Double.POSITIVE_INFINITY;
  }

  /** Work in flight outside the queue: while there is some, a run is never declared stalled. */
  default boolean busy() {
    return false;
  }

  /** Virtual time passes from {@code from} to {@code to} with nothing happening in between. */
  default void elapse(double from, double to) {}

  /** Runs what is due inside the model at {@code t}, after the queue's events; true if any ran. */
  default boolean runDue(double t) {
    return false;
  }

  /** Every event of instant {@code t} has been applied (the batching models dispatch here). */
  default void afterInstant(double t) {}

  /** The run's result, once the loop has ended. */
  RunResult<D> result(Engine.Outcome outcome);
}
