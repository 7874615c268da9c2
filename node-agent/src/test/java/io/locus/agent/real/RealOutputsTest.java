package io.locus.agent.real;

import static io.locus.agent.real.Fixture.peer;
import static io.locus.agent.real.Fixture.storage;
import static io.locus.agent.real.Fixture.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.NodeAgent;
import io.locus.schemas.CachedFile;
import io.locus.schemas.DataUnit;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.testkit.Await;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A real task's outputs: written by the template, cached, staged out, served to peers. */
@Timeout(60)
class RealOutputsTest {
  private static final Await WAIT = Await.atMost(AwaitingOutput.DEADLINE);

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

  private static DataUnit unit(String id, long bytes) {
    return DataUnit.newBuilder().setId(id).setBytes(bytes).build();
  }

  private static PlaceTask withOutputs(PlaceTask p, DataUnit... outs) {
    return PlaceTask.newBuilder(p).setOutputs(List.of(outs)).build();
  }

  /** Writes "abc" as output wf/a (by its file name) and {arg:0} zero bytes as output 1. */
  private TestAgentConfig config(String node) {
    return fx.config(node)
        .template("make", "sh", "-c",
            "printf abc > \"$LOCUS_OUTPUT_DIR/wf%2Fa\" && head -c \"$1\" /dev/zero > \"$2\"",
            "make", "{arg:0}", "{output:1}")
        .template("one", "sh", "-c", "printf abc > \"$LOCUS_OUTPUT_DIR/wf%2Fa\"");
  }

  @Test
  void outputsAreCachedWithTheirRealSizesStagedOutAndServedToPeers() throws IOException {
    AwaitingOutput outA = new AwaitingOutput();
    RealAgent a = fx.started(config("a").build(), outA);
    a.agent().onDecision(fx.decision("a", withOutputs(task("t1", "make", List.of("2000")),
        unit("wf/a", 100), unit("wf/b", 2000))));

    TaskEvent done = outA.awaitEnd("t1");
    assertThat(done.getType()).as(done.getMessage()).isEqualTo(TaskEventType.COMPLETED);
    // The real size wins over the declared one (100).
    assertThat(a.agent().cacheContents()).containsEntry("wf/a", 3L).containsEntry("wf/b", 2000L);
    Path cache = a.cache().root();
    assertThat(Files.readString(cache.resolve("wf%2Fa"))).isEqualTo("abc");
    assertThat(Files.size(cache.resolve("wf%2Fb"))).isEqualTo(2000);
    assertThat(a.cache().incomingFiles()).isZero();
    assertThat(a.metrics()).contains("result=\"cached\"} 2\n")
        .contains("locus_agent_output_bytes_total{pool=\"p\",node=\"a\"} 2003\n");
    // Reported in a delta that was emitted no later than COMPLETED.
    List<CachedFile> added = outA.reports(NodeReportType.CACHE_DELTA).stream()
        .flatMap(r -> r.getAdded().stream()).toList();
    assertThat(added).contains(new CachedFile("wf/a", 3L), new CachedFile("wf/b", 2000L));
    // Staged out to the file: storage as <root>/<id>, atomically: no temporary file is left.
    assertThat(Files.readString(fx.storage.resolve("wf/a"))).isEqualTo("abc");
    assertThat(Files.size(fx.storage.resolve("wf/b"))).isEqualTo(2000);
    try (Stream<Path> s = Files.list(fx.storage.resolve("wf"))) {
      assertThat(s.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("a", "b");
    }

    // A peer reads wf/b from a's cache over HTTP (the id's '/' travels as %2F).
    AwaitingOutput outB = new AwaitingOutput();
    RealAgent b = fx.agent(config("b").build(), outB,
        new PeerEndpoints(Map.of("a", a.endpoint())));
    b.start();
    b.agent().onDecision(fx.decision("b", task("t2", "sum", List.of(), peer("wf/b", 2000, "a"))));
    TaskEvent child = outB.awaitEnd("t2");
    assertThat(child.getType()).as(child.getMessage()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(child.getBytesPeer()).isEqualTo(2000);
    assertThat(a.transfers().servedBytes()).isEqualTo(2000);

    // a evicts wf/a; a child elsewhere still finds it in storage.
    a.agent().onDecision(fx.decision("a", Fixture.evict("wf/a")));
    assertThat(Files.exists(cache.resolve("wf%2Fa"))).isFalse();
    b.agent().onDecision(fx.decision("b", task("t3", "sum", List.of(), storage("wf/a", 3))));
    TaskEvent fromStorage = outB.awaitEnd("t3");
    assertThat(fromStorage.getType()).as(fromStorage.getMessage())
        .isEqualTo(TaskEventType.COMPLETED);
    assertThat(fromStorage.getBytesStorage()).isEqualTo(3);
  }

  /**
   * Issue 23: one template for tasks with any number of outputs. The chart's stand-in
   * ({@link TaskTemplate#CHECKSUM_COMMAND}, {@code {inputs}} plus $LOCUS_OUTPUTS) completes a
   * task with no output, one with 40 (a WfCommons split task) and one whose output ids have a
   * space and a slash; each output holds the inputs' checksums, cut or padded to its declared
   * size. The template it replaced
   * ({@code sha256sum {inputs}}) failed every task that declared an output.
   */
  @Test
  void theChecksumTemplateWritesEveryDeclaredOutput() throws Exception {
    byte[] one = fx.storageFile("in-one", 5_000);
    byte[] two = fx.storageFile("in two words", 700);
    AwaitingOutput out = new AwaitingOutput();
    RealAgent a = fx.started(fx.config("a").template(TaskTemplate.checksum("checksum")).build(),
        out);
    DataUnit[] forty = new DataUnit[40];
    for (int i = 0; i < forty.length; i++) {
      forty[i] = unit("split/part-" + i, 64);
    }
    List<PlaceTask> tasks = List.of(
        task("none", "checksum", List.of(), storage("in-one", 5_000)),
        withOutputs(task("split", "checksum", List.of(), storage("in-one", 5_000)), forty),
        withOutputs(task("odd", "checksum", List.of(), storage("in-one", 5_000),
            storage("in two words", 700)), unit("wf/odd name.txt", 1000), unit("wf/sub/dir", 1000)));
    for (PlaceTask t : tasks) { // one after the other: the fixture's agent has one slot
      a.agent().onDecision(fx.decision("a", t));
      TaskEvent e = out.awaitEnd(t.getTaskId());
      assertThat(e.getType()).as(t.getTaskId() + ": " + e.getMessage())
          .isEqualTo(TaskEventType.COMPLETED);
    }
    Path cache = a.cache().root();
    String sumOne = sha256(one);
    for (int i = 0; i < forty.length; i++) {
      assertThat(Files.readString(cache.resolve("split%2Fpart-" + i))).contains(sumOne);
    }
    // Cut or zero-padded to the declared size: what the trace says the task wrote.
    assertThat(Files.size(cache.resolve("split%2Fpart-7"))).isEqualTo(64);
    assertThat(Files.size(cache.resolve("wf%2Fodd name.txt"))).isEqualTo(1000);
    String odd = Files.readString(cache.resolve("wf%2Fodd name.txt"));
    assertThat(odd).contains(sumOne).contains(sha256(two));
    assertThat(Files.readString(cache.resolve("wf%2Fsub%2Fdir"))).isEqualTo(odd);
  }

  private static String sha256(byte[] b) throws Exception {
    return java.util.HexFormat.of().formatHex(
        java.security.MessageDigest.getInstance("SHA-256").digest(b));
  }

  @Test
  void aDeclaredOutputThatWasNotWrittenFailsTheAttempt() throws IOException {
    AwaitingOutput out = new AwaitingOutput();
    RealAgent a = fx.started(config("a").build(), out);
    a.agent().onDecision(fx.decision("a", withOutputs(task("t1", "one", List.of()),
        unit("wf/a", 3), unit("wf/missing", 10))));

    TaskEvent done = out.awaitEnd("t1");
    assertThat(done.getType()).isEqualTo(TaskEventType.FAILED);
    assertThat(done.getExitCode()).isEqualTo(NodeAgent.ABORTED_EXIT_CODE);
    assertThat(done.getMessage()).startsWith("exit code 0, but declared output not written: "
        + "wf/missing (expected at ").contains("wf%2Fmissing").doesNotContain("wf/a");
    // Nothing of the attempt is cached, reported or staged out.
    assertThat(a.agent().cacheContents()).isEmpty();
    assertThat(out.reports(NodeReportType.CACHE_DELTA)).isEmpty();
    assertThat(Files.exists(fx.storage.resolve("wf"))).isFalse();
    WAIT.until("no landed output left", () -> a.cache().incomingFiles() == 0);
  }

  @Test
  void anOutputLargerThanTheCacheIsOnlyStagedOut() throws IOException {
    AwaitingOutput out = new AwaitingOutput();
    RealAgent a = fx.started(config("a").build(), out);   // 1 MB cache
    a.agent().onDecision(fx.decision("a", withOutputs(task("t1", "make", List.of("1500000")),
        unit("wf/a", 3), unit("wf/big", 1_500_000))));

    TaskEvent done = out.awaitEnd("t1");
    assertThat(done.getType()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(done.getMessage()).isEqualTo(
        "output wf/big (1500000 bytes) not cached: larger than the cache (1000000 bytes)");
    assertThat(a.agent().cacheContents()).containsOnlyKeys("wf/a");
    assertThat(Files.size(fx.storage.resolve("wf/big"))).isEqualTo(1_500_000);
    WAIT.until("the uncached output dropped", () -> a.cache().incomingFiles() == 0);
    assertThat(a.cache().diskBytes()).isEqualTo(3);
  }

  @Test
  void aTemplateNeedingMoreOutputsThanDeclaredIsRefused() {
    AwaitingOutput out = new AwaitingOutput();
    RealAgent a = fx.started(config("a").build(), out);
    a.agent().onDecision(fx.decision("a", withOutputs(task("t1", "make", List.of("1")),
        unit("wf/a", 3))));

    TaskEvent refused = out.awaitEnd("t1");
    assertThat(refused.getType()).isEqualTo(TaskEventType.REFUSED);
    assertThat(refused.getMessage())
        .isEqualTo("bad input: template make needs output 1; the task declares 1");
  }

  @Test
  void anUnsafeOutputIdIsRefused() {
    AwaitingOutput out = new AwaitingOutput();
    RealAgent a = fx.started(config("a").build(), out);
    a.agent().onDecision(fx.decision("a", withOutputs(task("t1", "one", List.of()),
        unit("wf/../../etc/x", 3))));

    TaskEvent refused = out.awaitEnd("t1");
    assertThat(refused.getType()).isEqualTo(TaskEventType.REFUSED);
    assertThat(refused.getMessage()).startsWith("unsafe file id: ");
    assertThat(out.reports()).extracting(NodeReport::getType)
        .doesNotContain(NodeReportType.CACHE_DELTA);
  }

  @Test
  void aRestartRecoversOutputsByTheirIds() throws IOException {
    RealAgentConfig cfg = config("a").build();
    AwaitingOutput first = new AwaitingOutput();
    RealAgent a = fx.started(cfg, first);
    a.agent().onDecision(fx.decision("a", withOutputs(task("t1", "make", List.of("10")),
        unit("wf/a", 3), unit("x%y", 10))));
    assertThat(first.awaitEnd("t1").getType()).isEqualTo(TaskEventType.COMPLETED);
    a.close();
    // A name no agent writes ("%zz" is no escape of FileIds) is not adopted.
    Files.writeString(cfg.cacheDir().resolve("bad%zz"), "?");

    AwaitingOutput second = new AwaitingOutput();
    RealAgent b = fx.started(cfg, second);
    assertThat(b.agent().cacheContents()).containsOnly(Map.entry("wf/a", 3L),
        Map.entry("x%y", 10L));
    assertThat(b.recovered().ignored()).containsExactly("bad%zz");
    assertThat(second.reports().get(0).getAdded()).containsExactlyInAnyOrder(
        new CachedFile("wf/a", 3L), new CachedFile("x%y", 10L));
  }

  @Test
  void aFailedStageOutFailsTheAttemptAndCachesNothing() throws IOException {
    // A file where the instance's directory should be: storage cannot take wf/a.
    Files.writeString(fx.storage.resolve("wf"), "in the way");
    AwaitingOutput out = new AwaitingOutput();
    RealAgent a = fx.started(config("a").build(), out);
    a.agent().onDecision(fx.decision("a", withOutputs(task("t1", "one", List.of()),
        unit("wf/a", 3))));

    TaskEvent done = out.awaitEnd("t1");
    assertThat(done.getType()).isEqualTo(TaskEventType.FAILED);
    assertThat(done.getMessage())
        .startsWith("exit code 0, but output wf/a could not be written to storage: "
            + "FileAlreadyExistsException: " + fx.storage.resolve("wf"));
    assertThat(a.agent().cacheContents()).isEmpty();
    assertThat(a.cache().incomingFiles()).isZero();
  }

  @Test
  void withAnHttpStorageRootOutputsAreOnlyCached() throws IOException {
    AwaitingOutput out = new AwaitingOutput();
    RealAgent a = fx.started(config("a").storageRoot(URI.create("http://127.0.0.1:1/data/"))
        .build(), out);
    a.agent().onDecision(fx.decision("a", withOutputs(task("t1", "one", List.of()),
        unit("wf/a", 3))));

    TaskEvent done = out.awaitEnd("t1");
    assertThat(done.getType()).as(done.getMessage()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(a.agent().cacheContents()).containsOnly(Map.entry("wf/a", 3L));
    try (Stream<Path> s = Files.list(fx.storage)) {
      assertThat(s).isEmpty();
    }
  }
}
