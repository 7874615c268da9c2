package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code locus savepoint --stop} against a local run whose REST API goes away while the command
 * polls for the stop's result: the job stopped (that is why the API went), so the command looks for
 * the savepoint in its target dir. A CI run failed when the API closed a poll's connection without
 * an answer ("HTTP/1.1 header parser received no bytes") instead of refusing the connection.
 */
class SavepointStopTest {
  private static final String JOB = "0123456789abcdef0123456789abcdef";

  @Test
  void aRestApiThatHangsUpMidPollStillFindsTheSavepoint(@TempDir Path dir) throws Exception {
    Path savepoints = dir.resolve("savepoints");
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/jobs/overview", x -> answer(x,
        "{\"jobs\":[{\"jid\":\"" + JOB + "\",\"name\":\"locus-scheduler\",\"state\":\"RUNNING\"}]}"));
    server.createContext("/jobs/" + JOB + "/stop", x -> {
      // the job stops with its savepoint, then the local run exits
      Path sp = savepoints.resolve("savepoint-012345-abcdef");
      Files.createDirectories(sp);
      Files.writeString(sp.resolve("_metadata"), "metadata");
      answer(x, "{\"request-id\":\"r1\"}");
    });
    // the run is exiting: the poll's connection is closed without a response
    server.createContext("/jobs/" + JOB + "/savepoints/r1", HttpExchange::close);
    server.start();
    try {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      CommandLine cl = LocusCli.commandLine();
      cl.setOut(new PrintWriter(out));
      cl.setErr(new PrintWriter(err));
      int rc = cl.execute("savepoint", "--rest-url",
          "http://127.0.0.1:" + server.getAddress().getPort(), "--stop",
          "--target-dir", savepoints.toString(), "--timeout", "PT20S");
      assertThat(rc).as("%s %s", out, err).isZero();
      assertThat(out.toString()).contains("with savepoint")
          .contains("savepoint-012345-abcdef");
    } finally {
      server.stop(0);
    }
  }

  private static void answer(HttpExchange x, String json) throws IOException {
    byte[] b = json.getBytes(StandardCharsets.UTF_8);
    x.getResponseHeaders().add("Content-Type", "application/json");
    x.sendResponseHeaders(200, b.length);
    x.getResponseBody().write(b);
    x.close();
  }
}
