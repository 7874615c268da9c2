package io.locus.sim.engine;

/**
 * The one discrete-event engine of the simulator's models (data diffusion, Khanna staging, CERN job
 * splitting, hybrid cluster mode): one virtual clock, one {@link EventQueue} with a deterministic
 * tie order (time, then scheduling order), one run loop. A {@link Model} plugs in; see there for
 * what it may hook.
 *
 * <p>The loop takes the earliest time t among the queue's events and the model's own due times,
 * lets the model integrate up to t ({@link Model#elapse}), then runs the instant: every event of t
 * in scheduling order, then what the model has due at t, repeating while that creates more work at
 * t, then {@link Model#afterInstant} once. It ends when the model is done, when nothing is left, at
 * the horizon, when only background (daemon) events are left and have moved nothing for the stall
 * limit, or when the model calls {@link #stop()} (which takes effect after the running event).
 * Nothing here reads a clock except the run's wall time, which is reported and never used.
 */
public final class Engine {
  /** When a run gives up on its own: a virtual-time horizon and a stall limit (seconds). */
  public record Limits(double horizonSeconds, double stallSeconds) {
    public static final Limits NONE =
        new Limits(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);
  }

  /** How the loop ended: its ending, the clock, the events it ran, and its wall time. */
  public record Outcome(Ending ending, double endTime, long events, double wallSeconds) {}

  private final EventQueue queue = new EventQueue();
  private final Limits limits;
  private double now;
  private long events;
  private boolean stopped;
  private boolean running;

  public Engine() {
    this(Limits.NONE);
  }

  public Engine(Limits limits) {
    this.limits = limits;
  }

  /** The virtual clock: the time of the instant being run (0 before the first). */
  public double now() {
    return now;
  }

  /** The queue models and their parts schedule on. */
  public EventQueue queue() {
    return queue;
  }

  /** Events run so far. */
  public long events() {
    return events;
  }

  /** Ends the run after the event that is running (the model decided it is over, or cut it). */
  public void stop() {
    stopped = true;
  }

  /** Runs {@code model} to its end; an engine runs one model once. */
  public <D> RunResult<D> run(Model<D> model) {
    if (running) {
      throw new IllegalStateException("an engine runs one model, once");
    }
    running = true;
    long wall0 = System.nanoTime(); // host measurement for the report only, never in a model
    Ending ending = loop(model);
    return model.result(new Outcome(ending, now, events, (System.nanoTime() - wall0) / 1e9));
  }

  private Ending loop(Model<?> m) {
    m.start(this);
    double lastProgress = now;
    while (!stopped && !m.finished()) {
      double next = Math.min(queue.peekTime(), m.nextDue());
      if (next == Double.POSITIVE_INFINITY) {
        return Ending.EXHAUSTED;
      }
      if (next > limits.horizonSeconds()) {
        return Ending.HORIZON;
      }
      if (queue.live() == 0 && !m.busy() && next - lastProgress > limits.stallSeconds()) {
        return Ending.STALLED; // only background events left, and they have not helped
      }
      if (next < now) {
        throw new IllegalStateException("event at " + next + " is before the clock " + now);
      }
      m.elapse(now, next);
      now = next;
      instant(m);
      if (queue.live() > 0 || m.busy()) {
        lastProgress = now;
      }
    }
    return !stopped || m.finished() ? Ending.FINISHED : Ending.STOPPED;
  }

  private void instant(Model<?> m) {
    double t = now;
    while (true) {
      boolean ran = false;
      EventQueue.Event e;
      while (!stopped && (e = queue.pollAt(t)) != null) {
        events++;
        EventQueue.run(e);
        ran = true;
      }
      if (stopped) {
        return;
      }
      ran |= m.runDue(t);
      if (!ran || (queue.peekTime() > t && m.nextDue() > t)) {
        break;
      }
    }
    m.afterInstant(t);
  }
}
