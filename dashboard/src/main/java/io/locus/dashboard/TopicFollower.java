package io.locus.dashboard;

import io.locus.kafka.ClientConfigs;
import io.locus.kafka.TopicTail;
import io.locus.kafka.Topics;
import java.util.Properties;

/**
 * Reads the six topics the dashboard shows from their earliest offsets and folds each record
 * into the {@link DashboardState}, on a {@link TopicTail}'s thread, until closed. No consumer
 * group: nothing is committed, so a restarted dashboard reads everything again and rebuilds the
 * same state. Committed records only (the scheduler's sinks may be transactional). A topic that
 * does not exist yet is looked for again every few seconds; a record that does not decode is
 * counted and skipped.
 */
public final class TopicFollower implements AutoCloseable {
  private final TopicTail tail;

  /** Starts following; {@code clientProps} holds the bootstrap servers and security settings. */
  public TopicFollower(Properties clientProps, DashboardState state) {
    Properties p = ClientConfigs.consumer("unused:0", null, true);
    p.putAll(clientProps);
    tail = TopicTail.builder(p)
        .name("dashboard-topic-follower")
        .follow(Topics.NODE_STATUS, (v, meta) -> read(state, meta, () -> state.nodeStatus(v)))
        .follow(Topics.NODE_REPORTS, (n, meta) -> read(state, meta, () -> state.nodeReport(n)))
        .follow(Topics.SCHEDULER_METRICS, (m, meta) -> read(state, meta, () -> state.metrics(m)))
        .follow(Topics.DEAD_LETTERS, (l, meta) -> read(state, meta, () -> state.deadLetter(l)))
        .follow(Topics.TASK_EVENTS, (e, meta) -> read(state, meta, () -> state.taskEvent(e)))
        .follow(Topics.DECISIONS, (d, meta) -> read(state, meta, () -> state.decision(d)))
        // Anyone may write to these topics: a record that is not one of them is skipped.
        .onUndecodable(meta -> state.read(meta.topic(), false))
        .onCaughtUp(state::caughtUp)
        .start();
  }

  private static void read(DashboardState state, TopicTail.Meta meta, Runnable fold) {
    state.read(meta.topic(), true);
    fold.run();
  }

  /** Why following stopped, or null while it runs. */
  public Throwable failure() {
    return tail.failure();
  }

  @Override
  public void close() {
    tail.close();
  }
}
