package io.locus.sim.engine;

import java.util.PriorityQueue;

/**
 * Timed actions in virtual time, ordered by (time, insertion sequence): equal times run in the order
 * they were scheduled, so a run is reproducible. The {@link Engine} runs them; models and their
 * parts schedule on {@link Engine#queue()}. Daemon events (polls, samples) do not keep a
 * simulation alive; {@link #live()} counts the others. Cancelling is lazy and O(1).
 */
public final class EventQueue {
  /** A scheduled action; keep it to cancel it. */
  public static final class Event implements Comparable<Event> {
    private final double time;
    private final long seq;
    private final Runnable action;
    private final boolean daemon;
    private boolean cancelled;

    private Event(double time, long seq, Runnable action, boolean daemon) {
      this.time = time;
      this.seq = seq;
      this.action = action;
      this.daemon = daemon;
    }

    public double time() {
      return time;
    }

    public boolean cancelled() {
      return cancelled;
    }

    @Override
    public int compareTo(Event o) {
      int c = Double.compare(time, o.time);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }
  }

  private final PriorityQueue<Event> heap = new PriorityQueue<>();
  private long seq;
  private int live;

  /** Schedules an action that keeps the simulation alive until it has run. */
  public Event schedule(double time, Runnable action) {
    return add(time, action, false);
  }

  /** Schedules a background action (a poll, a timeout) that does not by itself keep a run going. */
  public Event scheduleDaemon(double time, Runnable action) {
    return add(time, action, true);
  }

  private Event add(double time, Runnable action, boolean daemon) {
    if (Double.isNaN(time)) {
      throw new IllegalArgumentException("event time is NaN");
    }
    Event e = new Event(time, seq++, action, daemon);
    heap.add(e);
    if (!daemon) {
      live++;
    }
    return e;
  }

  public void cancel(Event e) {
    if (e != null && !e.cancelled) {
      e.cancelled = true;
      if (!e.daemon) {
        live--;
      }
    }
  }

  /** Time of the next non-cancelled event, +∞ if none. */
  public double peekTime() {
    dropCancelled();
    return heap.isEmpty() ? Double.POSITIVE_INFINITY : heap.peek().time;
  }

  /** Removes and returns the next event if it is due exactly at {@code time}, else null. */
  public Event pollAt(double time) {
    dropCancelled();
    Event e = heap.peek();
    if (e == null || e.time != time) {
      return null;
    }
    heap.poll();
    if (!e.daemon) {
      live--;
    }
    e.cancelled = true; // ran: a later cancel() is a no-op
    return e;
  }

  /** Runs an event obtained from {@link #pollAt}. */
  public static void run(Event e) {
    e.action.run();
  }

  /** Pending non-daemon events. */
  public int live() {
    return live;
  }

  public int size() {
    return heap.size();
  }

  private void dropCancelled() {
    while (!heap.isEmpty() && heap.peek().cancelled) {
      heap.poll();
    }
  }
}
