package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.testkit.Await;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/** {@code locus dashboard}: its arguments, and a real start on a free port that prints its URL. */
@Tag("integration")
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class DashboardCommandTest {

  private static int code(StringWriter err, String... args) {
    CommandLine cl = LocusCli.commandLine();
    cl.setErr(new PrintWriter(err));
    cl.setOut(new PrintWriter(new StringWriter()));
    return cl.execute(args);
  }

  @Test
  void badArgumentsSayWhatIsWrong() {
    StringWriter err = new StringWriter();
    assertThat(code(err, "dashboard", "--bootstrap-servers", "127.0.0.1:1", "--port", "70000"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--port must be 0-65535");
    err = new StringWriter();
    assertThat(code(err, "dashboard", "--bootstrap-servers", "127.0.0.1:1", "--placements", "0"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("--placements must be between 1 and 10000");
    err = new StringWriter();
    assertThat(code(err, "dashboard", "--port", "0")).isEqualTo(2);
    assertThat(err.toString()).contains("--bootstrap-servers");
  }

  @Test
  void theDemoCanDoWithoutIt() {
    assertThat(LocusCli.commandLine().getSubcommands().get("demo").getCommandSpec()
        .findOption("--no-dashboard")).isNotNull();
  }

  @Test
  void servesThePageOnAFreeLoopbackPortAndStops() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      TopicAdmin.ensureTopics(kafka.bootstrapServers(), Topics.ALL);
      assertThat(LocusCli.commandLine().getSubcommands()).containsKey("dashboard");
      DashboardCommand command = new DashboardCommand();
      StringWriter out = new StringWriter();
      CommandLine own = new CommandLine(command);
      own.setOut(new PrintWriter(out, true));
      CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> own.execute(
          "--bootstrap-servers", kafka.bootstrapServers(), "--port", "0"));
      Await.until("the dashboard started or the command ended", Duration.ofSeconds(60),
          () -> command.dashboard() != null || exit.isDone());
      assertThat(command.dashboard()).as("started; exit " + (exit.isDone() ? exit.get() : "-"))
          .isNotNull();
      String url = command.dashboard().url();
      assertThat(url).startsWith("http://127.0.0.1:");
      // The command keeps the started dashboard before it prints where it is: wait for the line
      // (asserting at once raced with the print and failed a CI run with an empty output).
      Await.until("the address printed", Duration.ofSeconds(30),
          () -> out.toString().contains("locus dashboard: " + url) || exit.isDone());
      assertThat(out.toString()).contains("locus dashboard: " + url);
      HttpResponse<String> page = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.body()).contains("Locus dashboard");
      command.stop();
      assertThat(exit.get(30, TimeUnit.SECONDS)).isZero();
      command.dashboard().close(); // closed already: a no-op
      assertThat(out.toString()).contains("locus dashboard: stopped");
    }
  }
}
