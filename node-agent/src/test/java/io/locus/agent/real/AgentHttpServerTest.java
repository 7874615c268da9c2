package io.locus.agent.real;

import static io.locus.agent.real.Fixture.storage;
import static io.locus.agent.real.Fixture.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.auth.RecordSigner;
import io.locus.agent.security.PeerAuth;
import io.locus.schemas.TaskEventType;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The agent's HTTP server: the cache for peers (ranges, refusals, auth), metrics, health. */
@Timeout(60)
class AgentHttpServerTest {
  @TempDir
  Path tmp;
  private Fixture fx;
  private final HttpClient http = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).build();
  private byte[] f1;

  @BeforeEach
  void setUp() {
    fx = new Fixture(tmp);
    f1 = fx.storageFile("f 1", 1000);
  }

  @AfterEach
  void tearDown() {
    fx.close();
  }

  private RealAgent agentWithF1(RecordSigner signer) {
    AwaitingOutput out = new AwaitingOutput();
    RealAgent a = fx.started(fx.config("a").signer(signer).build(), out);
    var d = fx.decision("a", task("t1", "sum", List.of(), storage("f 1", 1000)));
    a.agent().onDecision(signer == null ? d : signer.sign(d));
    assertThat(out.awaitEnd("t1").getType()).isEqualTo(TaskEventType.COMPLETED);
    return a;
  }

  private HttpResponse<byte[]> get(RealAgent a, String rawPath, String... headers)
      throws IOException, InterruptedException {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(a.endpoint() + rawPath));
    if (headers.length > 0) {
      b.headers(headers);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  @Test
  void servesCachedFilesWholeOrByRange() throws Exception {
    RealAgent a = agentWithF1(null);

    HttpResponse<byte[]> whole = get(a, "/cache/f%201");
    assertThat(whole.statusCode()).isEqualTo(200);
    assertThat(whole.body()).isEqualTo(f1);
    assertThat(whole.headers().firstValue("Accept-Ranges")).hasValue("bytes");

    HttpResponse<byte[]> part = get(a, "/cache/f%201", "Range", "bytes=10-19");
    assertThat(part.statusCode()).isEqualTo(206);
    assertThat(part.body()).isEqualTo(Arrays.copyOfRange(f1, 10, 20));
    assertThat(part.headers().firstValue("Content-Range")).hasValue("bytes 10-19/1000");

    assertThat(get(a, "/cache/f%201", "Range", "bytes=990-").body())
        .isEqualTo(Arrays.copyOfRange(f1, 990, 1000));
    assertThat(get(a, "/cache/f%201", "Range", "bytes=-5").body())
        .isEqualTo(Arrays.copyOfRange(f1, 995, 1000));
    HttpResponse<byte[]> beyond = get(a, "/cache/f%201", "Range", "bytes=1000-");
    assertThat(beyond.statusCode()).isEqualTo(416);
    assertThat(beyond.headers().firstValue("Content-Range")).hasValue("bytes */1000");
    HttpResponse<byte[]> head = http.send(HttpRequest.newBuilder(
        URI.create(a.endpoint() + "/cache/f%201")).method("HEAD",
        HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofByteArray());
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.headers().firstValue("Content-Length")).hasValue("1000");
    assertThat(head.body()).isEmpty();
    assertThat(a.transfers().servedBytes()).isEqualTo(1000 + 10 + 10 + 5);
  }

  @Test
  void answers404ForWhatIsNotACachedRegularFile() throws Exception {
    RealAgent a = agentWithF1(null);
    Files.createSymbolicLink(a.cache().root().resolve("link"), fx.storage.resolve("f 1"));
    Files.writeString(a.cache().root().resolve("stray"), "not accounted for");
    for (String path : List.of("/cache/nope", "/cache/link", "/cache/stray", "/cache/..%2Fx",
        "/cache/%2E%2E", "/cache/.incoming", "/cache/", "/cache/a/b", "/cache/%2Fetc")) {
      assertThat(get(a, path).statusCode()).as(path).isEqualTo(404);
    }
    HttpResponse<byte[]> post = http.send(HttpRequest.newBuilder(
        URI.create(a.endpoint() + "/cache/f%201")).POST(HttpRequest.BodyPublishers.noBody())
        .build(), HttpResponse.BodyHandlers.ofByteArray());
    assertThat(post.statusCode()).isEqualTo(405);
  }

  @Test
  void withASecretPeersMustAuthenticate() throws Exception {
    RecordSigner s = RecordSigner.of("shh");
    RealAgent a = agentWithF1(s);
    PeerAuth auth = new PeerAuth(s);
    long now = System.currentTimeMillis() / 1000;

    assertThat(get(a, "/cache/f%201").statusCode()).isEqualTo(401);
    assertThat(get(a, "/cache/f%201", PeerAuth.HEADER,
        new PeerAuth(RecordSigner.of("guess")).header("/cache/f%201", now)).statusCode())
        .isEqualTo(401);
    assertThat(get(a, "/cache/f%201", PeerAuth.HEADER, auth.header("/cache/other", now))
        .statusCode()).as("signed for another path").isEqualTo(401);
    assertThat(get(a, "/cache/f%201", PeerAuth.HEADER, auth.header("/cache/f%201", now - 3600))
        .statusCode()).as("too old").isEqualTo(401);
    HttpResponse<byte[]> ok = get(a, "/cache/f%201", PeerAuth.HEADER,
        auth.header("/cache/f%201", now));
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(ok.body()).isEqualTo(f1);
    assertThat(a.transfers().servedDenied()).isEqualTo(4);
  }

  @Test
  void withASecretMetricsNeedThePeersAuthentication() throws Exception {
    RecordSigner s = RecordSigner.of("shh");
    RealAgent a = agentWithF1(s);
    long now = System.currentTimeMillis() / 1000;
    assertThat(get(a, "/metrics").statusCode()).isEqualTo(401);
    assertThat(get(a, "/metrics", PeerAuth.HEADER,
        new PeerAuth(RecordSigner.of("guess")).header("/metrics", now)).statusCode())
        .isEqualTo(401);
    HttpResponse<byte[]> ok = get(a, "/metrics", PeerAuth.HEADER,
        new PeerAuth(s).header("/metrics", now));
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(new String(ok.body())).contains("locus_agent_tasks_total");
    // Health stays open: it tells nothing but up or down.
    assertThat(get(a, "/health").statusCode()).isEqualTo(200);
  }

  @Test
  void metricsAreInPrometheusTextFormatAndHealthFollowsTheAgent() throws Exception {
    RealAgent a = agentWithF1(null);
    HttpResponse<String> m = http.send(HttpRequest.newBuilder(
        URI.create(a.endpoint() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(m.statusCode()).isEqualTo(200);
    assertThat(m.headers().firstValue("Content-Type")).hasValueSatisfying(
        v -> assertThat(v).startsWith("text/plain; version=0.0.4"));
    assertThat(m.body())
        .contains("# TYPE locus_agent_tasks_total counter")
        .contains("locus_agent_tasks_total{pool=\"p\",node=\"a\",type=\"completed\"} 1")
        .contains("locus_agent_input_bytes_total{pool=\"p\",node=\"a\",source=\"storage\"} 1000")
        .contains("locus_agent_transfer_bytes_total{pool=\"p\",node=\"a\",source=\"storage\"} 1000")
        .contains("locus_agent_cache_used_bytes{pool=\"p\",node=\"a\"} 1000")
        .contains("locus_agent_cache_capacity_bytes{pool=\"p\",node=\"a\"} 1000000");
    // Every sample line is "name{labels} value".
    for (String line : m.body().split("\n")) {
      if (!line.startsWith("#")) {
        assertThat(line).matches("[a-z_]+\\{[^}]*\\} -?[0-9]+");
      }
    }
    assertThat(get(a, "/health").statusCode()).isEqualTo(200);
    a.agent().drain().get();
    assertThat(new String(get(a, "/health").body())).isEqualTo("stopped\n");
  }
}
