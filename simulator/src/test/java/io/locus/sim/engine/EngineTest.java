package io.locus.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The engine's loop: instants, tie order, the model's hooks, and how a run ends. */
class EngineTest {
  /** A model that logs every hook and has its own timetable of due times. */
  private static class Logged implements Model<List<String>> {
    final List<String> log = new ArrayList<>();
    final Deque<Double> due = new ArrayDeque<>();
    Consumer<Engine> setup = e -> { };
    boolean done;

    @Override
    public void start(Engine engine) {
      setup.accept(engine);
    }

    @Override
    public boolean finished() {
      return done;
    }

    @Override
    public double nextDue() {
      return due.isEmpty() ? Double.POSITIVE_INFINITY : due.peekFirst();
    }

    @Override
    public boolean busy() {
      return !due.isEmpty();
    }

    @Override
    public void elapse(double from, double to) {
      log.add("elapse " + from + "->" + to);
    }

    @Override
    public boolean runDue(double t) {
      boolean any = false;
      while (!due.isEmpty() && due.peekFirst() == t) {
        due.pollFirst();
        log.add("due " + t);
        any = true;
      }
      return any;
    }

    @Override
    public void afterInstant(double t) {
      log.add("after " + t);
    }

    @Override
    public RunResult<List<String>> result(Engine.Outcome o) {
      return RunResult.of("test", "l", "p", o, 0, Double.NaN, log);
    }
  }

  @Test
  void anInstantRunsItsEventsInSchedulingOrderThenTheModelsDueWorkThenOneAfterInstant() {
    Logged m = new Logged();
    m.due.add(2.0);
    m.setup = e -> {
      EventQueue q = e.queue();
      q.schedule(2.0, () -> m.log.add("b"));
      q.schedule(1.0, () -> {
        m.log.add("a");
        q.schedule(1.0, () -> m.log.add("a2")); // more work at the same instant
      });
      q.schedule(2.0, () -> m.log.add("c"));
    };
    RunResult<List<String>> r = new Engine().run(m);
    assertThat(r.detail()).containsExactly("elapse 0.0->1.0", "a", "a2", "after 1.0",
        "elapse 1.0->2.0", "b", "c", "due 2.0", "after 2.0");
    assertThat(r.ending()).isEqualTo(Ending.EXHAUSTED); // never said it was done
    assertThat(r.events()).isEqualTo(4);
    assertThat(r.endTime()).isEqualTo(2.0);
  }

  @Test
  void workTheModelCreatesAtTheSameInstantRunsBeforeTheDispatch() {
    Logged m = new Logged();
    m.setup = e -> e.queue().schedule(1.0, () -> {
      m.log.add("event");
      m.due.add(1.0); // e.g. a zero-byte flow ending at once
    });
    new Engine().run(m);
    assertThat(m.log).containsExactly("elapse 0.0->1.0", "event", "due 1.0", "after 1.0");
  }

  @Test
  void stopEndsTheRunAfterTheRunningEvent() {
    Logged m = new Logged();
    Engine engine = new Engine();
    m.setup = e -> {
      e.queue().schedule(1.0, () -> {
        m.log.add("first");
        engine.stop();
      });
      e.queue().schedule(1.0, () -> m.log.add("never"));
    };
    RunResult<List<String>> r = engine.run(m);
    assertThat(m.log).containsExactly("elapse 0.0->1.0", "first");
    assertThat(r.ending()).isEqualTo(Ending.STOPPED);
    assertThat(r.complete()).isFalse();
    assertThat(r.events()).isEqualTo(1);

    Logged done = new Logged();
    Engine e2 = new Engine();
    done.setup = e -> e.queue().schedule(3.0, () -> {
      done.done = true;
      e2.stop();
    });
    assertThat(e2.run(done).ending()).isEqualTo(Ending.FINISHED);
  }

  @Test
  void aFinishedModelEndsBeforeTheNextInstant() {
    Logged m = new Logged();
    m.setup = e -> {
      e.queue().schedule(1.0, () -> m.done = true);
      e.queue().schedule(2.0, () -> m.log.add("never"));
    };
    RunResult<List<String>> r = new Engine().run(m);
    assertThat(r.ending()).isEqualTo(Ending.FINISHED);
    assertThat(r.endTime()).isEqualTo(1.0);
    assertThat(m.log).doesNotContain("never");
  }

  @Test
  void theHorizonAndTheStallLimitEndARun() {
    Logged far = new Logged();
    far.setup = e -> e.queue().schedule(100.0, () -> far.log.add("late"));
    RunResult<List<String>> h = new Engine(new Engine.Limits(50, Double.POSITIVE_INFINITY))
        .run(far);
    assertThat(h.ending()).isEqualTo(Ending.HORIZON);
    assertThat(far.log).isEmpty();

    // a daemon poll that reschedules itself forever, and nothing else: stalled after 10 s
    Logged polls = new Logged();
    polls.setup = e -> poll(e, 1.0, polls);
    RunResult<List<String>> s = new Engine(new Engine.Limits(Double.POSITIVE_INFINITY, 10))
        .run(polls);
    assertThat(s.ending()).isEqualTo(Ending.STALLED);
    assertThat(s.endTime()).isEqualTo(10.0);
  }

  private static void poll(Engine e, double t, Logged m) {
    e.queue().scheduleDaemon(t, () -> poll(e, t + 1, m));
  }

  @Test
  void cancelledEventsDoNotRunAndTheClockNeverGoesBack() {
    Logged m = new Logged();
    m.setup = e -> {
      EventQueue.Event gone = e.queue().schedule(1.0, () -> m.log.add("cancelled"));
      e.queue().cancel(gone);
      e.queue().schedule(2.0, () -> e.queue().schedule(1.0, () -> m.log.add("past")));
    };
    assertThatThrownBy(() -> new Engine().run(m))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("before the clock");
    assertThat(m.log).doesNotContain("cancelled", "past");
  }

  @Test
  void anEngineRunsOneModelOnce() {
    Engine e = new Engine();
    e.run(new Logged());
    assertThatThrownBy(() -> e.run(new Logged())).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void withoutHostMeasuresTwoEqualRunsAreEqual() {
    RunResult<String> a = new RunResult<>("m", "l", "p", Ending.FINISHED, 5, 3, 2, 0.1, 0.5, "x");
    RunResult<String> b = new RunResult<>("m", "l", "p", Ending.FINISHED, 5, 3, 2, 0.2, 0.9, "x");
    assertThat(a).isNotEqualTo(b);
    assertThat(a.withoutHostMeasures()).isEqualTo(b.withoutHostMeasures());
    assertThat(a.schedulerLoad()).isEqualTo(0.1 / 5);
  }
}
