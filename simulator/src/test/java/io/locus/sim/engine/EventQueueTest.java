package io.locus.sim.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventQueueTest {
  @Test
  void equalTimesRunInSchedulingOrderAndCancelledEventsAreSkipped() {
    EventQueue q = new EventQueue();
    List<String> ran = new ArrayList<>();
    q.schedule(2.0, () -> ran.add("b1"));
    q.schedule(1.0, () -> ran.add("a"));
    EventQueue.Event gone = q.schedule(2.0, () -> ran.add("cancelled"));
    q.scheduleDaemon(2.0, () -> ran.add("b2"));
    q.cancel(gone);
    assertThat(q.live()).isEqualTo(2);
    for (double t = q.peekTime(); t != Double.POSITIVE_INFINITY; t = q.peekTime()) {
      EventQueue.Event e;
      while ((e = q.pollAt(t)) != null) {
        EventQueue.run(e);
      }
    }
    assertThat(ran).containsExactly("a", "b1", "b2");
    assertThat(q.live()).isZero();
  }
}
