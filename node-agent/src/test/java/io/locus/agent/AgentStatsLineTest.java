package io.locus.agent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The periodic counters line is one an on-call engineer can read: timed, short, no zeros. */
class AgentStatsLineTest {
  private static AgentStats stats(long duplicates, long peerFallbacks) {
    return new AgentStats(120, 118, 1, 0, 1_200_000_000L, 0, 600_000_000L, peerFallbacks, 3,
        duplicates, 0, 0, 0, 0, 0, 2, 1_800_000_000L, 360, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  }

  @Test
  void theLineSaysTheCommonCountersAndOnlyTheRareOnesThatHappened() {
    assertThat(stats(0, 0).line()).isEqualTo("tasks 120 started, 118 completed, 1 failed,"
        + " 0 refused; 2 running, 0 queued; read 1.2 GB local, 0 B peer, 600.0 MB storage;"
        + " cache 1.8 GB in 360 files; 3 shared fetches");
    assertThat(stats(4, 2).line()).endsWith("; 2 peer fallbacks, 3 shared fetches,"
        + " 4 duplicate decisions");
    // the record's toString, all thirty fields by name, was about 600 characters
    assertThat(stats(4, 2).line().length()).isLessThan(220);
  }

  @Test
  void thePrintedLineStartsWithTheTimeAsTheLogLinesDo() {
    assertThat(AgentCli.statsLine("real", AgentStats.ZERO))
        .matches("\\d\\d:\\d\\d:\\d\\d locus agent real: tasks 0 started, .*")
        .doesNotContain("AgentStats[");
  }
}
