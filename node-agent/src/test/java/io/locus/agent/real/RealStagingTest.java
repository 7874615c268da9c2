package io.locus.agent.real;

import static io.locus.agent.real.Fixture.input;
import static io.locus.agent.real.Fixture.peer;
import static io.locus.agent.real.Fixture.sha256;
import static io.locus.agent.real.Fixture.storage;
import static io.locus.agent.real.Fixture.task;
import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.locus.agent.NodeAgent;
import io.locus.schemas.auth.RecordSigner;
import io.locus.schemas.CachedFile;
import io.locus.schemas.FetchSource;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Real files from file: storage, an HTTP storage server and a peer agent; real processes. */
@Timeout(60)
class RealStagingTest {
  @TempDir
  Path tmp;
  private Fixture fx;

  @BeforeEach
  void setUp() {
    fx = new Fixture(tmp);
  }

  @AfterEach
  void tearDown() {
    fx.close();
  }

  @Test
  void stagesFromAFileStorageRunsATemplateAndReportsTheResult() throws IOException {
    byte[] f1 = fx.storageFile("f1", 1000);
    byte[] f2 = fx.storageFile("f2", 2500);
    AwaitingOutput out = new AwaitingOutput();
    RealAgent a = fx.started(fx.config("a").build(), out);

    a.agent().onDecision(fx.decision("a", task("t1", "sum", List.of(),
        input("f1", 1000, FetchSource.STORAGE, null, null, "sha256:" + sha256(f1), true),
        storage("f2", 2500))));

    TaskEvent done = out.awaitEnd("t1");
    assertThat(done.getType()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(done.getExitCode()).isZero();
    assertThat(done.getBytesStorage()).isEqualTo(3500);
    assertThat(done.getBytesLocal()).isZero();
    // The output of the real command, in the task's work dir: one line per input, in order.
    Path wd = a.executor().workDir("t1#0").orElseThrow();
    Path c = a.cache().root();
    assertThat(Files.readAllLines(wd.resolve("stdout"))).containsExactly(
        sha256(f1) + "  " + c.resolve("f1"), sha256(f2) + "  " + c.resolve("f2"));
    // Both inputs are cached, read-only, announced in one delta; nothing partial is left.
    assertThat(Files.readAllBytes(c.resolve("f1"))).isEqualTo(f1);
    assertThat(Files.getPosixFilePermissions(c.resolve("f2")))
        .doesNotContain(PosixFilePermission.OWNER_WRITE);
    assertThat(a.agent().cacheContents()).containsOnlyKeys("f1", "f2");
    assertThat(out.reports(NodeReportType.CACHE_DELTA)).singleElement()
        .satisfies(r -> assertThat(r.getAdded()).extracting(CachedFile::getFileId)
            .containsExactly("f1", "f2"));
    assertThat(a.cache().incomingFiles()).isZero();
    assertThat(a.transfers().bytes(FetchSource.STORAGE)).isEqualTo(3500);

    // Run again: both are local hits now.
    a.agent().onDecision(fx.decision("a", task("t2", "sum", List.of(),
        Fixture.local("f1", 1000), storage("f2", 2500))));
    TaskEvent again = out.awaitEnd("t2");
    assertThat(again.getType()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(again.getBytesLocal()).isEqualTo(3500);
    assertThat(again.getBytesStorage()).isZero();
  }

  @Test
  void aFailingCommandReportsItsExitCodeAndTheTailOfStderr() {
    AwaitingOutput out = new AwaitingOutput();
    RealAgent a = fx.started(fx.config("a").build(), out);
    a.agent().onDecision(fx.decision("a", task("t1", "ls", List.of("/no/such/locus/path"))));

    TaskEvent failed = out.awaitEnd("t1");
    assertThat(failed.getType()).isEqualTo(TaskEventType.FAILED);
    assertThat(failed.getExitCode()).isEqualTo(2);
    assertThat(failed.getMessage()).startsWith("exit code 2; stderr: ")
        .contains("/no/such/locus/path").contains("No such file");
  }

  @Test
  void aChecksumOrSizeMismatchFailsTheTaskAndLeavesNothingBehind() {
    fx.storageFile("f1", 1000);
    AwaitingOutput out = new AwaitingOutput();
    RealAgent a = fx.started(fx.config("a").build(), out);

    a.agent().onDecision(fx.decision("a", task("t1", "sum", List.of(),
        input("f1", 1000, FetchSource.STORAGE, null, null, "0".repeat(64), true))));
    a.agent().onDecision(fx.decision("a", task("t2", "sum", List.of(), storage("f1", 1200))));

    assertThat(out.awaitEnd("t1").getMessage()).contains("checksum mismatch for f1");
    TaskEvent t2 = out.awaitEnd("t2");
    assertThat(t2.getType()).isEqualTo(TaskEventType.FAILED);
    assertThat(t2.getExitCode()).isEqualTo(NodeAgent.ABORTED_EXIT_CODE);
    assertThat(t2.getMessage()).contains("size mismatch for f1: got 1000 bytes, planned 1200");
    assertThat(a.agent().cacheContents()).isEmpty();
    assertThat(a.cache().diskBytes()).isZero();
    assertThat(a.cache().incomingFiles()).isZero();
  }

  @Test
  void aMissingStorageFileFailsWithStorageHasNo() {
    AwaitingOutput out = new AwaitingOutput();
    RealAgent a = fx.started(fx.config("a").build(), out);
    a.agent().onDecision(fx.decision("a", task("t1", "sum", List.of(), storage("nope", 10))));
    assertThat(out.awaitEnd("t1").getMessage()).isEqualTo("storage has no nope");
  }

  @Test
  void stagesFromAnHttpStorageServerAndResumesBrokenOrStalledTransfersWithARange()
      throws IOException {
    Map<String, byte[]> files = new ConcurrentHashMap<>();
    files.put("big", fx.storageFile("big", 300_000));
    files.put("slow", fx.storageFile("slow", 200_000));
    files.put("small", fx.storageFile("small", 10));
    Set<String> broken = ConcurrentHashMap.newKeySet();
    CountDownLatch end = new CountDownLatch(1);
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/pool/", x -> serve(x, files, broken, end));
    server.start();
    try {
      String root = "http://127.0.0.1:" + server.getAddress().getPort() + "/pool/";
      AwaitingOutput out = new AwaitingOutput();
      RealAgent a = fx.started(fx.config("a").storageRoot(URI.create(root))
          .requestTimeout(Duration.ofMillis(400)).build(), out);
      a.agent().onDecision(fx.decision("a", task("t1", "sum", List.of(),
          input("big", 300_000, FetchSource.STORAGE, null, null, sha256(files.get("big")), true),
          input("slow", 200_000, FetchSource.STORAGE, null, null, sha256(files.get("slow")),
              true),
          input("small", 10, FetchSource.STORAGE, null, root + "small", null, true))));

      TaskEvent done = out.awaitEnd("t1");
      assertThat(done.getType()).as(done.getMessage()).isEqualTo(TaskEventType.COMPLETED);
      assertThat(done.getBytesStorage()).isEqualTo(500_010);
      assertThat(broken).containsExactlyInAnyOrder("big", "slow");
      assertThat(a.transfers().resumed()).isEqualTo(2);
      assertThat(Files.readAllBytes(a.cache().root().resolve("big"))).isEqualTo(files.get("big"));
      assertThat(Files.readAllBytes(a.cache().root().resolve("slow")))
          .isEqualTo(files.get("slow"));

      a.agent().onDecision(fx.decision("a", task("t2", "sum", List.of(), storage("gone", 5))));
      assertThat(out.awaitEnd("t2").getMessage()).isEqualTo("storage has no gone");
    } finally {
      end.countDown();
      server.stop(0);
    }
  }

  /**
   * Storage over HTTP with single ranges. The first response of "big" breaks half-way (the
   * connection drops); the first of "slow" stalls half-way until the test ends.
   */
  private static void serve(HttpExchange x, Map<String, byte[]> files, Set<String> broken,
      CountDownLatch end) throws IOException {
    String name = x.getRequestURI().getPath().substring("/pool/".length());
    byte[] body = files.get(name);
    if (body == null) {
      x.sendResponseHeaders(404, -1);
      x.close();
      return;
    }
    String range = x.getRequestHeaders().getFirst("Range");
    int from = 0;
    int code = 200;
    if (range != null) {
      from = Integer.parseInt(range.substring("bytes=".length(), range.indexOf('-')));
      code = 206;
      x.getResponseHeaders().set("Content-Range",
          "bytes " + from + "-" + (body.length - 1) + "/" + body.length);
    }
    x.sendResponseHeaders(code, body.length - from);
    OutputStream os = x.getResponseBody();
    if (range == null && (name.equals("big") || name.equals("slow")) && broken.add(name)) {
      os.write(body, 0, body.length / 2);
      os.flush();
      if (name.equals("slow")) {
        try {
          end.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      // An exception out of the handler makes the server drop the connection.
      throw new IllegalStateException("connection broken on purpose");
    }
    os.write(body, from, body.length - from);
    x.close();
  }

  @Test
  void readsFromAPeerAgentAndFallsBackToStorageWhenThePeerNoLongerHasTheFile()
      throws IOException {
    byte[] f1 = fx.storageFile("f1", 5000);
    fx.storageFile("f2", 700);
    AwaitingOutput outA = new AwaitingOutput();
    AwaitingOutput outB = new AwaitingOutput();
    RealAgent a = fx.started(fx.config("a").build(), outA);
    RealAgent b = fx.agent(fx.config("b").build(), outB,
        new PeerEndpoints(Map.of("a", a.endpoint())));
    b.start();

    // a reads both from storage and caches them, then is asked to drop f2.
    a.agent().onDecision(fx.decision("a", task("t0", "sum", List.of(),
        storage("f1", 5000), storage("f2", 700))));
    assertThat(outA.awaitEnd("t0").getType()).isEqualTo(TaskEventType.COMPLETED);
    a.agent().onDecision(fx.decision("a", Fixture.evict("f2")));
    assertThat(Files.exists(a.cache().root().resolve("f2"))).isFalse();

    // b reads f1 from a's cache over HTTP; the hint for f2 is stale: storage.
    b.agent().onDecision(fx.decision("b", task("t1", "sum", List.of(),
        peer("f1", 5000, "a"), peer("f2", 700, "a"))));
    TaskEvent done = outB.awaitEnd("t1");
    assertThat(done.getType()).as(done.getMessage()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(done.getBytesPeer()).isEqualTo(5000);
    assertThat(done.getBytesStorage()).isEqualTo(700);
    assertThat(b.stats().peerFallbacks()).isEqualTo(1);
    assertThat(a.transfers().servedBytes()).isEqualTo(5000);
    assertThat(a.transfers().servedNotFound()).isEqualTo(1);
    assertThat(Files.readAllBytes(b.cache().root().resolve("f1"))).isEqualTo(f1);
    assertThat(b.agent().cacheContents()).containsOnlyKeys("f1", "f2");

    // A peer nobody knows the endpoint of is a stale hint too.
    fx.storageFile("f3", 0);
    b.agent().onDecision(fx.decision("b", task("t2", "sum", List.of(),
        input("f3", 0, FetchSource.PEER, "ghost", null, null, false))));
    TaskEvent t2 = outB.awaitEnd("t2");
    assertThat(b.stats().peerFallbacks()).isEqualTo(2);
    assertThat(t2.getType()).as(t2.getMessage()).isEqualTo(TaskEventType.COMPLETED);
  }

  @Test
  void anUncachedInputIsStreamedForItsTaskAndDeletedAfterwards() throws IOException {
    byte[] f1 = fx.storageFile("f1", 2000);
    AwaitingOutput out = new AwaitingOutput();
    RealAgent a = fx.started(fx.config("a").build(), out);
    a.agent().onDecision(fx.decision("a", task("t1", "sum", List.of(),
        input("f1", 2000, FetchSource.STORAGE, null, null, null, false))));

    assertThat(out.awaitEnd("t1").getType()).isEqualTo(TaskEventType.COMPLETED);
    Path wd = a.executor().workDir("t1#0").orElseThrow();
    assertThat(Files.readString(wd.resolve("stdout"))).startsWith(sha256(f1) + "  ")
        .contains(DiskCache.INCOMING);
    assertThat(a.agent().cacheContents()).isEmpty();
    assertThat(a.cache().incomingFiles()).isZero();
    assertThat(out.reports(NodeReportType.CACHE_DELTA)).isEmpty();
  }

  @Test
  void peerReadsAreAuthenticatedWithThePoolSecretAndAnyPeerFailureFallsBackToStorage() {
    fx.storageFile("f1", 4000);
    fx.storageFile("f2", 300);
    RecordSigner s = RecordSigner.of("pool secret");
    AwaitingOutput outA = new AwaitingOutput();
    AwaitingOutput outB = new AwaitingOutput();
    AwaitingOutput outC = new AwaitingOutput();
    RealAgent a = fx.started(fx.config("a").signer(s).build(), outA);
    a.agent().onDecision(s.sign(fx.decision("a", task("t0", "sum", List.of(),
        storage("f1", 4000)))));
    assertThat(outA.awaitEnd("t0").getType()).isEqualTo(TaskEventType.COMPLETED);
    // b shares the secret; c has another one (misconfigured), and also knows a dead peer.
    RealAgent b = fx.agent(fx.config("b").signer(s).build(), outB,
        new PeerEndpoints(Map.of("a", a.endpoint())));
    b.start();
    RecordSigner other = RecordSigner.of("other secret");
    RealAgent c = fx.agent(fx.config("c").signer(other).build(), outC,
        new PeerEndpoints(Map.of("a", a.endpoint(), "dead", "http://127.0.0.1:1")));
    c.start();

    b.agent().onDecision(s.sign(fx.decision("b", task("t1", "sum", List.of(),
        peer("f1", 4000, "a")))));
    TaskEvent t1 = outB.awaitEnd("t1");
    assertThat(t1.getType()).as(t1.getMessage()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(t1.getBytesPeer()).isEqualTo(4000);

    c.agent().onDecision(other.sign(fx.decision("c", task("t2", "sum", List.of(),
        peer("f1", 4000, "a"), peer("f2", 300, "dead")))));
    TaskEvent t2 = outC.awaitEnd("t2");
    assertThat(t2.getType()).as(t2.getMessage()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(t2.getBytesPeer()).isZero();
    assertThat(t2.getBytesStorage()).isEqualTo(4300);
    assertThat(c.stats().peerFallbacks()).isEqualTo(2);
    assertThat(a.transfers().servedDenied()).isEqualTo(1);
  }
}
