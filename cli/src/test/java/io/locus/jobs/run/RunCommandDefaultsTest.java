package io.locus.jobs.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.cli.LocusCli;
import io.locus.core.state.RetryBackoff;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code locus run}'s checkpoint interval when none is given follows the delivery mode: with
 * exactly-once it is the decisions' latency to the agents, so it is short (issue 23 item 6).
 */
class RunCommandDefaultsTest {
  private static RunCommand parse(String... args) {
    CommandLine cl = LocusCli.commandLine();
    String[] all = new String[args.length + 3];
    all[0] = "run";
    all[1] = "--bootstrap-servers";
    all[2] = "127.0.0.1:9092";
    System.arraycopy(args, 0, all, 3, args.length);
    cl.parseArgs(all);
    return cl.getSubcommands().get("run").getCommand();
  }

  @Test
  void exactlyOnceCheckpointsEverySecondAtLeastOnceEveryFive() {
    assertThat(parse().options().checkpointInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(parse("--delivery", "exactly-once").options().checkpointInterval())
        .isEqualTo(Duration.ofSeconds(1));
    assertThat(parse("--delivery", "at-least-once").options().checkpointInterval())
        .isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void aGivenIntervalWins() {
    assertThat(parse("--checkpoint-interval", "PT7S").options().checkpointInterval())
        .isEqualTo(Duration.ofSeconds(7));
  }

  /** Issue 23: a failed task's retry waits 10 s, doubling to 6 min, unless told otherwise. */
  @Test
  void retriesBackOffTenSecondsDoublingToSixMinutesByDefault() {
    assertThat(parse().options().scheduler().retryBackoff()).isEqualTo(RetryBackoff.DEFAULT);
    assertThat(parse("--retry-backoff", "PT0.5S", "--retry-backoff-max", "PT2M").options()
        .scheduler().retryBackoff()).isEqualTo(new RetryBackoff(0.5, 120));
    assertThat(parse("--retry-backoff", "PT0S").options().scheduler().retryBackoff().enabled())
        .isFalse();
    assertThatThrownBy(() -> parse("--retry-backoff", "PT10M").options())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--retry-backoff-max (PT6M) must be at least --retry-backoff (PT10M)");
    assertThatThrownBy(() -> parse("--retry-backoff", "-PT1S").options())
        .hasMessageStartingWith("--retry-backoff must be a duration ≥ 0");
  }
}
