package io.locus.agent.real;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.agent.HostConfig;
import io.locus.schemas.units.ByteSize;
import io.locus.kafka.cli.DurationText;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class AgentConfigFileTest {
  @TempDir
  Path tmp;

  @Test
  void theDocumentedExampleReads() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("etc"));
    Files.copy(Path.of("agent.example.yaml"), dir.resolve("agent.yaml"));
    Files.writeString(dir.resolve("decision.secret"), "shh\n");
    Files.setPosixFilePermissions(dir.resolve("decision.secret"),
        PosixFilePermissions.fromString("rw-------"));
    Files.writeString(dir.resolve("client.properties"), "security.protocol=SSL\n");

    AgentConfigFile l = AgentConfigFile.load(dir.resolve("agent.yaml"), null);
    RealAgentConfig c = l.agent();
    assertThat(c.pool()).isEqualTo("batch");
    assertThat(c.nodeId()).isEqualTo("node-a");
    assertThat(c.agent().slots()).isEqualTo(2);
    assertThat(c.agent().heartbeatMs()).isEqualTo(1000);
    assertThat(c.agent().cacheCapacityBytes()).isEqualTo(50_000_000_000L);
    assertThat(c.cacheDir()).isEqualTo(Path.of("/var/lib/locus/cache"));
    assertThat(c.work().dir()).isEqualTo(Path.of("/var/lib/locus/work"));
    assertThat(c.storage().root()).isEqualTo(URI.create("file:///data/pool"));
    assertThat(c.storage().allowedLocations()).hasSize(2);
    assertThat(c.storage().requestTimeout()).isEqualTo(Duration.ofSeconds(30));
    assertThat(c.storage().transferTimeout()).isEqualTo(Duration.ofMinutes(30));
    assertThat(c.http().bind()).isEqualTo("0.0.0.0");
    assertThat(c.http().port()).isEqualTo(7070);
    assertThat(c.peers().endpoints()).containsEntry("node-b", "http://node-b.example.org:7070");
    assertThat(c.signer()).isNotNull();
    assertThat(c.tasks().env()).containsEntry("LANG", "C.UTF-8");
    assertThat(c.templates()).containsOnlyKeys("checksum", "stack", "grep", "analysis");
    assertThat(c.tasks().eventBatch()).isEqualTo(1000);
    assertThat(c.templates().get("stack").timeout()).isEqualTo(Duration.ofMinutes(10));
    assertThat(c.templates().get("grep").maxArgs()).isEqualTo(1);
    assertThat(c.templates().get("grep").argPattern().pattern()).startsWith("[A-Za-z0-9");
    assertThat(c.defaultTemplate()).isEqualTo("checksum");
    assertThat(c.drainTimeout()).isEqualTo(Duration.ofMinutes(5));
    assertThat(l.bootstrapServers()).isEqualTo("kafka-0.example.org:9092");
    assertThat(l.clientOverrides()).containsEntry("security.protocol", "SSL");
    assertThat(l.createTopics()).isFalse();
    assertThat(l.peerLookback()).isEqualTo(Duration.ofMinutes(2));
    HostConfig h = l.hostConfig("other:9092");
    assertThat(h.bootstrapServers()).isEqualTo("other:9092");
    assertThat(h.nodeIds()).containsExactly("node-a");
    assertThat(h.startFrom()).isEqualTo(HostConfig.StartFrom.LATEST);

    assertThat(AgentConfigFile.load(dir.resolve("agent.yaml"), "node-z").agent().nodeId())
        .isEqualTo("node-z");
  }

  @Test
  void aMinimalConfigGetsTheDefaultsAndRelativePaths() {
    AgentConfigFile l = AgentConfigFile.parse("""
        pool: p
        node-id: n1
        data-dir: data
        storage: {root: ../storage}
        templates:
          sum: {command: [sha256sum, "{inputs}"]}
        """, tmp, null);
    RealAgentConfig c = l.agent();
    assertThat(c.cacheDir()).isEqualTo(tmp.resolve("data/cache"));
    assertThat(c.work().dir()).isEqualTo(tmp.resolve("data/work"));
    assertThat(c.storage().root()).isEqualTo(tmp.getParent().resolve("storage").toUri());
    assertThat(c.agent().slots()).isEqualTo(2);
    assertThat(c.agent().cacheCapacityBytes()).isEqualTo(1_000_000_000L);
    assertThat(c.http().bind()).isEqualTo("127.0.0.1");
    assertThat(c.signer()).isNull();
    assertThat(c.defaultTemplate()).isNull();
    assertThat(l.bootstrapServers()).isNull();
    assertThatThrownBy(() -> l.hostConfig(null)).hasMessageContaining("bootstrap servers");
  }

  @Test
  void mistakesAreNamed() {
    assertThatThrownBy(() -> AgentConfigFile.parse("pool: p\nnode-id: n\ncache: {dir: c, quotta: 5GB}\n",
        tmp, null)).hasMessageContaining("unknown key [cache.quotta]");
    assertThatThrownBy(() -> AgentConfigFile.parse("node-id: n\ncache: {dir: c}\n", tmp, null))
        .hasMessageContaining("pool is required");
    assertThatThrownBy(() -> AgentConfigFile.parse("pool: p\nnode-id: n\n", tmp, null))
        .hasMessageContaining("cache.dir (or data-dir) is required");
    assertThatThrownBy(() -> AgentConfigFile.parse(
        "pool: p\nnode-id: n\ndata-dir: d\ncache: {quota: lots}\n", tmp, null))
        .hasMessageContaining("cache.quota: not a size");
    assertThatThrownBy(() -> AgentConfigFile.parse(
        "pool: p\nnode-id: n\ndata-dir: d\nheartbeat: 5\n", tmp, null))
        .hasMessageContaining("heartbeat: not a duration");
    assertThatThrownBy(() -> AgentConfigFile.parse(
        "pool: p\nnode-id: n\ndata-dir: d\ntemplates: {x: {command: [ls, \"{bogus}\"]}}\n",
        tmp, null)).hasMessageContaining("unknown placeholder {bogus}");
    assertThatThrownBy(() -> AgentConfigFile.parse(
        "pool: p\nnode-id: n\ndata-dir: d\ndefault-template: nope\n", tmp, null))
        .hasMessageContaining("default-template nope is not one of the templates");
    assertThatThrownBy(() -> AgentConfigFile.parse(
        "pool: p\nnode-id: n\ndata-dir: d\nstorage: {root: 'gpfs://x/'}\n", tmp, null))
        .hasMessageContaining("only file:, http: and https:");
  }

  @Test
  void sizesAndDurations() {
    assertThat(ByteSize.parse("1500").bytes()).isEqualTo(1500);
    assertThat(ByteSize.parse("2 MB").bytes()).isEqualTo(2_000_000);
    assertThat(ByteSize.parse("1.5GiB").bytes()).isEqualTo(1_610_612_736L);
    assertThat(DurationText.parse("250ms")).isEqualTo(Duration.ofMillis(250));
    assertThat(DurationText.parse("PT2M")).isEqualTo(Duration.ofMinutes(2));
    assertThat(DurationText.parse("1.5h")).isEqualTo(Duration.ofMinutes(90));
    assertThat(List.of("1h", "1d")).allSatisfy(s ->
        assertThat(DurationText.parse(s)).isPositive());
  }
}
