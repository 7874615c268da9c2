package io.locus.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.jobs.run.RunCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The job jar's entry point parses {@code run} as the full CLI does (same class, same glue). */
class SchedulerJobMainTest {
  @Test
  void runTakesTheChartsArgumentsWithDurationsInEitherSpelling() {
    CommandLine.ParseResult parsed = SchedulerJobMain.commandLine().parseArgs("run",
        "--bootstrap-servers", "kafka:9092", "--pool-policy", "batch=GCC", "--node-timeout", "45s",
        "--checkpoint-interval", "PT2S", "--parallelism", "2");
    RunCommand run = (RunCommand) parsed.subcommand().commandSpec().userObject();
    SchedulerJob.Options o = run.options();
    assertThat(o.bootstrap()).isEqualTo("kafka:9092");
    assertThat(o.scheduler().policyFor("batch").name()).isEqualTo("GCC");
    assertThat(o.scheduler().nodeTimeoutMs()).isEqualTo(45_000);
    assertThat(o.checkpointInterval()).isEqualTo(Duration.ofSeconds(2));
    assertThat(o.parallelism()).isEqualTo(2);
  }

  @Test
  void aBadArgumentIsOneLineAndExitCodeTwo() {
    CommandLine cl = SchedulerJobMain.commandLine();
    StringWriter err = new StringWriter();
    cl.setErr(new PrintWriter(err, true));
    assertThat(cl.execute("run", "--bootstrap-servers", "k:1", "--node-timeout", "soon"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("Invalid value for option '--node-timeout'")
        .contains("not a duration").doesNotContain("java.time").doesNotContain("\tat ");
    StringWriter none = new StringWriter();
    CommandLine bare = SchedulerJobMain.commandLine();
    bare.setErr(new PrintWriter(none, true));
    assertThat(bare.execute()).isEqualTo(2);
    assertThat(none.toString()).contains("Missing command");
  }
}
