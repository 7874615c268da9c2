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

  /**
   * Issue 24: queue heads wait at most 3 s for locality and preemption gives 30 s of grace,
   * scheduler-wide, unless told otherwise; off turns preemption off.
   */
  @Test
  void queueHeadsWaitThreeSecondsAndPreemptionGivesThirtyByDefault() {
    var defaults = parse().options().scheduler();
    assertThat(defaults.maxLocalityWait()).isEqualTo(3.0);
    assertThat(defaults.preemptionGrace()).isEqualTo(30.0);
    var given = parse("--max-locality-wait", "PT0.25S", "--preemption-grace", "PT5S").options()
        .scheduler();
    assertThat(given.maxLocalityWait()).isEqualTo(0.25);
    assertThat(given.preemptionGrace()).isEqualTo(5.0);
    assertThat(parse("--max-locality-wait", "PT0S").options().scheduler().maxLocalityWait())
        .isZero();
    assertThat(parse("--preemption-grace", "off").options().scheduler().preemptionGrace())
        .isNaN();
    assertThat(parse("--preemption-grace", "PT1H").options().scheduler().preemptionGrace())
        .isEqualTo(3600.0);
  }

  /** A bad wait or grace is refused while parsing, exit 2, saying what is wrong, run or demo. */
  @Test
  void aNegativeTooLongOrMalformedWaitOrGraceIsRefusedWithExitTwo() {
    String[][] bad = {
        {"--max-locality-wait", "-PT1S", "-PT1S is negative: a wait is ≥ PT0S"},
        {"--max-locality-wait", "PT2H", "PT2H is longer than PT1H, the longest wait accepted"},
        {"--max-locality-wait", "off", "'off' is not a duration (ISO-8601, e.g. PT3S or PT0.5S)"},
        {"--preemption-grace", "-PT30S", "-PT30S is negative: a grace is ≥ PT0S"},
        {"--preemption-grace", "PT61M", "PT61M is longer than PT1H, the longest grace accepted"},
        {"--preemption-grace", "30s", "'30s' is not a duration (ISO-8601, e.g. PT3S or PT0.5S)"
            + " nor off"},
    };
    for (String[] b : bad) {
      for (String command : new String[] {"run", "demo"}) {
        java.io.StringWriter err = new java.io.StringWriter();
        CommandLine cl = LocusCli.commandLine();
        cl.setErr(new java.io.PrintWriter(err, true));
        cl.setOut(new java.io.PrintWriter(new java.io.StringWriter(), true));
        int code = command.equals("run")
            ? cl.execute("run", "--bootstrap-servers", "h:1", b[0], b[1])
            : cl.execute("demo", b[0], b[1]);
        assertThat(code).as(command + " " + b[0] + " " + b[1]).isEqualTo(2);
        assertThat(err.toString()).contains("Invalid value for option '" + b[0] + "'")
            .contains(b[2]);
      }
    }
  }
}
