package io.locus.agent.real;

import static io.locus.agent.real.Fixture.input;
import static io.locus.agent.real.Fixture.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.NodeAgent;
import io.locus.schemas.FetchSource;
import io.locus.schemas.NodeReport;
import io.locus.schemas.ResyncNode;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.auth.NodeKeys;
import io.locus.schemas.auth.RecordSigner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A real agent's identity and checks that outlive it: instance id, epochs, node key, cache hits. */
@Timeout(90)
class RealIdentityTest {
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
  void theInstanceIdAndTheHighestEpochOutliveARestart() {
    RealAgentConfig cfg = fx.config("a").build();
    AwaitingOutput first = new AwaitingOutput();
    RealAgent a = fx.started(cfg, first);
    String id = a.agent().instanceId();
    fx.epoch = 5;
    a.agent().onDecision(fx.decision("a", task("t1", "echo", List.of("x"))));
    first.awaitEvent("t1 COMPLETED", e -> e.getType() == TaskEventType.COMPLETED);
    a.close();
    assertThat(first.events()).allSatisfy(e -> assertThat(e.getInstanceId()).isEqualTo(id));
    assertThat(first.reports()).allSatisfy(r -> assertThat(r.getInstanceId()).isEqualTo(id));

    AwaitingOutput second = new AwaitingOutput();
    RealAgent b = fx.started(cfg, second);
    assertThat(b.agent().instanceId()).isEqualTo(id);
    assertThat(b.agent().maxEpoch()).isEqualTo(5);
    fx.epoch = 4;
    b.agent().onDecision(fx.decision("a", task("old", "echo", List.of("x"))));
    assertThat(second.eventsOf("old")).extracting(TaskEvent::getType)
        .containsExactly(TaskEventType.REFUSED);
    fx.epoch = Long.MAX_VALUE;
    b.agent().onDecision(fx.decision("a", task("absurd", "echo", List.of("x"))));
    assertThat(second.eventsOf("absurd").get(0).getMessage()).startsWith(NodeAgent.ABSURD);

    // A resync resets the floor, on disk too.
    fx.epoch = 2;
    b.agent().onDecision(fx.decision("a", new ResyncNode("state lost")));
    b.close();
    RealAgent c = fx.started(cfg, new AwaitingOutput());
    assertThat(c.agent().maxEpoch()).isEqualTo(2);

    // Another installation (a copied config with its own directories) is another instance.
    RealAgent other = fx.started(fx.config("a").dataDir(tmp.resolve("copy")).build(),
        new AwaitingOutput());
    assertThat(other.agent().instanceId()).isNotEqualTo(id);
  }

  @Test
  void withANodeKeyFileEveryEventAndReportIsSigned() throws Exception {
    Path secret = Files.writeString(tmp.resolve("cluster.secret"), "cluster secret\n");
    NodeKeys keys = new NodeKeys("cluster secret".getBytes(StandardCharsets.UTF_8));
    Path keyFile = Files.write(tmp.resolve("a.key"), keys.key("a"),
        java.nio.file.StandardOpenOption.CREATE_NEW);
    Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-------"));
    assertThat(secret).exists();
    RealAgentConfig cfg = fx.config("a").set("security.node-key-file", keyFile.toString()).build();
    AwaitingOutput out = new AwaitingOutput();
    RealAgent a = fx.started(cfg, out);
    a.agent().onDecision(fx.decision("a", task("t1", "echo", List.of("x"))));
    out.awaitEvent("t1 COMPLETED", e -> e.getType() == TaskEventType.COMPLETED);
    a.close();
    RecordSigner mine = keys.signer("a");
    assertThat(out.events()).hasSizeGreaterThanOrEqualTo(2)
        .allSatisfy(e -> assertThat(mine.verify(e)).isTrue());
    assertThat(out.reports()).isNotEmpty().allSatisfy(r -> {
      assertThat(mine.verify(r)).isTrue();
      assertThat(keys.signer("b").verify(r)).isFalse();
    });
  }

  @Test
  void aCorruptedCacheFileIsEvictedAndStagedAgainAndAnIntactOneIsHashedOnce() throws Exception {
    byte[] f = fx.storageFile("f", 5_000);
    String sum = Fixture.sha256(f);
    AwaitingOutput out = new AwaitingOutput();
    RealAgent a = fx.started(fx.config("a").build(), out);
    a.agent().onDecision(fx.decision("a", task("t1", "sum", List.of(),
        input("f", f.length, FetchSource.STORAGE, null, null, sum, true))));
    out.awaitEvent("t1 COMPLETED", e -> e.getTaskId().equals("t1")
        && e.getType() == TaskEventType.COMPLETED);

    // Someone changes the cached copy in place, keeping its size.
    Path cached = a.cache().pathOf("f");
    Files.setPosixFilePermissions(cached, PosixFilePermissions.fromString("rw-------"));
    byte[] bad = f.clone();
    bad[100] ^= 0x55;
    Files.write(cached, bad);

    a.agent().onDecision(fx.decision("a", task("t2", "sum", List.of(),
        input("f", f.length, FetchSource.LOCAL, null, null, sum, true))));
    TaskEvent t2 = out.awaitEvent("t2 ended", e -> e.getTaskId().equals("t2")
        && e.getType() != TaskEventType.STARTED);
    assertThat(t2.getType()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(t2.getBytesStorage()).as("read again from storage").isEqualTo(f.length);
    assertThat(t2.getBytesLocal()).isZero();
    assertThat(Files.readAllBytes(a.cache().pathOf("f"))).isEqualTo(f);
    // The task read the right bytes: sha256sum's output is in its work directory.
    assertThat(Files.readString(a.executor().workDir("t2#0").orElseThrow().resolve("stdout")))
        .startsWith(sum);

    long hashed = a.cache().localHashes();
    for (String t : List.of("t3", "t4")) {
      a.agent().onDecision(fx.decision("a", task(t, "sum", List.of(),
          input("f", f.length, FetchSource.LOCAL, null, null, sum, true))));
      TaskEvent e = out.awaitEvent(t + " ended", x -> x.getTaskId().equals(t)
          && x.getType() != TaskEventType.STARTED);
      assertThat(e.getType()).isEqualTo(TaskEventType.COMPLETED);
      assertThat(e.getBytesLocal()).isEqualTo(f.length);
    }
    assertThat(a.cache().localHashes()).as("hashed once, then remembered").isEqualTo(hashed + 1);
    assertThat(out.reports()).extracting(NodeReport::getType).isNotEmpty();
  }
}
