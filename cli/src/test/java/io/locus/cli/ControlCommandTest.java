package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code locus control}'s arguments (exit 2 with what is wrong), the control record they make, and
 * the paths without an answer (exit 3 naming the broker, the topic and the timeout).
 */
@Tag("integration")
@Timeout(60)
class ControlCommandTest {
  private record Run(int code, String out, String err, long millis) {}

  private static Run run(String... args) {
    CommandLine cl = LocusCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    long t0 = System.nanoTime();
    int code = cl.execute(concat(new String[] {"control"}, args));
    return new Run(code, out.toString(), err.toString(), (System.nanoTime() - t0) / 1_000_000);
  }

  private static Control parse(String... args) {
    ControlCommand c = new ControlCommand();
    new CommandLine(c).parseArgs(args);
    return c.control("req-1");
  }

  @Test
  void argumentsBecomeTheControlRecord() {
    Control set = parse("--bootstrap-servers", "b:1", "batch", "set-policy", "mch", "--param",
        "window=500", "--param", "theta=0.8");
    assertThat(set.getPool()).isEqualTo("batch");
    assertThat(set.getType()).isEqualTo(ControlType.SET_POLICY);
    assertThat(set.getPolicy()).isEqualTo("MCH");
    assertThat(set.getParams()).isEqualTo(Map.of("window", "500", "theta", "0.8"));
    assertThat(set.getRequestId()).isEqualTo("req-1");
    assertThat(set.getTimeMs()).as("a control never moves the pool clock").isZero();

    assertThat(parse("--bootstrap-servers", "b:1", "p", "drain", "n7").getNode()).isEqualTo("n7");
    assertThat(parse("--bootstrap-servers", "b:1", "p", "resume-node", "n7").getType())
        .isEqualTo(ControlType.RESUME_NODE);
    assertThat(parse("--bootstrap-servers", "b:1", "p", "pause").getType())
        .isEqualTo(ControlType.PAUSE_POOL);
    assertThat(parse("--bootstrap-servers", "b:1", "p", "resume").getType())
        .isEqualTo(ControlType.RESUME_POOL);
    assertThat(parse("--bootstrap-servers", "b:1", "p", "set-policy", "delayed").getPolicy())
        .isEqualTo("DELAYED");
  }

  @Test
  void badArgumentsExit2WithWhatIsWrong() {
    String[] b = {"--bootstrap-servers", "localhost:1"};
    Run unknownAction = run(concat(b, "p", "explode"));
    assertThat(unknownAction.code()).isEqualTo(2);
    assertThat(unknownAction.err()).contains("unknown action 'explode'").contains("set-policy")
        .contains("locus control --help");

    Run noPolicy = run(concat(b, "p", "set-policy"));
    assertThat(noPolicy.code()).isEqualTo(2);
    assertThat(noPolicy.err()).contains("set-policy needs a POLICY").contains("MCH");

    Run badPolicy = run(concat(b, "p", "set-policy", "BOGUS"));
    assertThat(badPolicy.code()).isEqualTo(2);
    assertThat(badPolicy.err()).contains("unknown policy 'BOGUS'").contains("DELAYED");

    Run badParam = run(concat(b, "p", "set-policy", "GCC", "--param", "theta=2"));
    assertThat(badParam.code()).isEqualTo(2);
    assertThat(badParam.err()).contains("theta must be in [0, 1]");

    Run unknownParam = run(concat(b, "p", "set-policy", "MCH", "--param", "windw=3"));
    assertThat(unknownParam.code()).isEqualTo(2);
    assertThat(unknownParam.err()).contains("unknown parameter 'windw'");

    Run noNode = run(concat(b, "p", "drain"));
    assertThat(noNode.code()).isEqualTo(2);
    assertThat(noNode.err()).contains("drain needs a NODE");

    Run extra = run(concat(b, "p", "pause", "now"));
    assertThat(extra.code()).isEqualTo(2);
    assertThat(extra.err()).contains("pause takes no argument");

    Run paramOnPause = run(concat(b, "p", "pause", "--param", "window=3"));
    assertThat(paramOnPause.code()).isEqualTo(2);
    assertThat(paramOnPause.err()).contains("--param applies to set-policy only");

    // (30s is a valid duration now, as every locus duration option accepts it)
    Run badTimeout = run(concat(b, "--timeout", "soon", "p", "pause"));
    assertThat(badTimeout.code()).isEqualTo(2);
    assertThat(badTimeout.err()).contains("--timeout");

    Run longNode = run(concat(b, "p", "drain", "n".repeat(300)));
    assertThat(longNode.code()).as("the scheduler's input limits, checked before sending")
        .isEqualTo(2);
    assertThat(longNode.err()).contains("node").contains("256");

    Run noBroker = run("p", "pause");
    assertThat(noBroker.code()).isEqualTo(2);
    assertThat(noBroker.err()).contains("--bootstrap-servers");
  }

  @Test
  void aClosedPortFailsWithinSecondsNamingTheAddress() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort(); // free, and closed once the socket is
    }
    String address = "localhost:" + port;
    // the default --timeout is 30 s: reaching the broker is given 5 s of it
    Run r = run("--bootstrap-servers", address, "p", "pause");
    assertThat(r.code()).isEqualTo(3);
    assertThat(r.err()).contains("cannot reach Kafka at " + address).contains("control-acks")
        .contains("PT5S");
    assertThat(r.millis()).as("fails fast, long before the timeout").isLessThan(15_000);
  }

  @Test
  void withoutASchedulerTheControlIsSentAndTheWaitEndsAtTheTimeout(@TempDir Path dir)
      throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir, Map.of())) {
      TopicAdmin.ensureTopics(kafka.bootstrapServers(), List.of(Topics.CONTROL,
          Topics.CONTROL_ACKS));
      Run r = run("--bootstrap-servers", kafka.bootstrapServers(), "--timeout", "PT2S", "p",
          "resume");
      assertThat(r.code()).isEqualTo(3);
      assertThat(r.err()).contains("no acknowledgement").contains("control-acks")
          .contains(kafka.bootstrapServers()).contains("PT2S");
      assertThat(r.millis()).isBetween(1_900L, 15_000L);
      // it was sent, once, with a request id
      try (var c = new org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]>(
          io.locus.kafka.ClientConfigs.consumer(kafka.bootstrapServers(), null, true))) {
        var tp = new org.apache.kafka.common.TopicPartition(Topics.CONTROL.name(), 0);
        c.assign(List.of(tp));
        c.seekToBeginning(List.of(tp));
        var recs = c.poll(Duration.ofSeconds(10));
        assertThat(recs.count()).isEqualTo(1);
        Control sent = Topics.CONTROL.decode(recs.iterator().next().value());
        assertThat(sent.getType()).isEqualTo(ControlType.RESUME_POOL);
        assertThat(sent.getRequestId()).isNotBlank();
      }
    }
  }

  private static String[] concat(String[] a, String... b) {
    String[] out = new String[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
