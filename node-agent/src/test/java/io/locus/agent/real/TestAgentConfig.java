package io.locus.agent.real;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.locus.schemas.auth.RecordSigner;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A real agent's config as a test writes it: the YAML file a user would write, read by
 * {@link AgentConfigFile} as the agent would read it. Keys are the file's (see the README).
 */
final class TestAgentConfig {
  private static final YAMLMapper YAML = new YAMLMapper();

  private final Path dir;
  private final Map<String, Object> root = new LinkedHashMap<>();
  private RecordSigner signer;
  private RecordSigner nodeSigner;

  /** @param dir where the file would sit: relative paths resolve against it */
  TestAgentConfig(String pool, Path dir) {
    this.dir = dir;
    root.put("pool", pool);
  }

  /** Sets a dotted key ({@code cache.quota}) to a value as YAML would hold it. */
  @SuppressWarnings("unchecked")
  TestAgentConfig set(String key, Object value) {
    Map<String, Object> m = root;
    String[] parts = key.split("\\.");
    for (int i = 0; i < parts.length - 1; i++) {
      m = (Map<String, Object>) m.computeIfAbsent(parts[i], k -> new LinkedHashMap<>());
    }
    m.put(parts[parts.length - 1], value);
    return this;
  }

  TestAgentConfig nodeId(String node) {
    return set("node-id", node);
  }

  TestAgentConfig slots(int n) {
    return set("slots", n);
  }

  TestAgentConfig queueDepth(int n) {
    return set("tasks.queue-depth", n);
  }

  TestAgentConfig heartbeatMs(long ms) {
    return set("heartbeat", ms + "ms");
  }

  TestAgentConfig cacheCapacityBytes(long bytes) {
    return set("cache.quota", bytes);
  }

  TestAgentConfig dataDir(Path d) {
    return set("data-dir", d.toString());
  }

  TestAgentConfig storageRoot(URI root) {
    return set("storage.root", root.toString());
  }

  TestAgentConfig killGrace(Duration d) {
    return set("tasks.kill-grace", d.toMillis() + "ms");
  }

  TestAgentConfig requestTimeout(Duration d) {
    return set("storage.request-timeout", d.toMillis() + "ms");
  }

  TestAgentConfig eventBatch(int n) {
    return set("tasks.event-batch", n);
  }

  TestAgentConfig template(String name, String... command) {
    return set("templates." + name + ".command", List.of(command));
  }

  TestAgentConfig template(TaskTemplate t) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("command", new ArrayList<>(t.command()));
    if (t.timeout() != null) {
      m.put("timeout", t.timeout().toString());
    }
    m.put("max-args", t.maxArgs());
    if (t.argPattern() != null) {
      m.put("arg-pattern", t.argPattern().pattern());
    }
    if (!t.env().isEmpty()) {
      m.put("env", new LinkedHashMap<>(t.env()));
    }
    return set("templates." + t.name(), m);
  }

  TestAgentConfig defaultTemplate(String name) {
    return set("default-template", name);
  }

  /** Decisions must be signed with {@code s} (null: unsigned). Not in the file: no secret file. */
  TestAgentConfig signer(RecordSigner s) {
    this.signer = s;
    return this;
  }

  /** Task events and node reports are signed with {@code s} (null: unsigned). */
  TestAgentConfig nodeSigner(RecordSigner s) {
    this.nodeSigner = s;
    return this;
  }

  String yaml() {
    try {
      return YAML.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  RealAgentConfig build() {
    RealAgentConfig c = AgentConfigFile.parse(yaml(), dir, null).agent();
    return signer == null && nodeSigner == null ? c : new RealAgentConfig(c.agent(), c.cacheDir(),
        c.work(), c.storage(), c.http(), c.peers(), c.tasks(), c.templates(), c.defaultTemplate(),
        signer, nodeSigner, c.drainTimeout());
  }
}
