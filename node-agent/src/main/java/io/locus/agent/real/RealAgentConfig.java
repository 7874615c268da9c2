package io.locus.agent.real;

import io.locus.agent.AgentConfig;
import io.locus.agent.config.InvalidSetting;
import io.locus.agent.config.Setting;
import io.locus.schemas.auth.RecordSigner;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Settings of one real agent (files, processes, HTTP), in the sections of its config file
 * ({@link AgentConfigFile} reads it; the file's keys are given in brackets). The sections are
 * bound from the file as they are; in code, start from {@link #of(AgentConfig)}.
 *
 * @param agent the settings shared with the simulated mode: [pool], [node-id], [slots],
 *     [heartbeat], [eviction], [dedupe-window] and [cache.quota] (its bandwidths and time scale
 *     are not used)
 * @param cacheDir [cache.dir] the cache directory; null in a host's template (set per agent)
 * @param work [work] where task runs get their directories
 * @param storage [storage] where inputs come from
 * @param http [http] the server for peers and metrics
 * @param peers [peers] how peers' endpoints are found
 * @param tasks [tasks] how task processes run
 * @param templates [templates] the allow-listed task templates by name
 * @param defaultTemplate [default-template] the template of decisions that name none; null:
 *     refuse them
 * @param signer [security.secret-file] verifies decision signatures and guards the peer server
 *     and /metrics; null: unsigned decisions are accepted, peers and /metrics are open
 * @param nodeSigner [security.node-key-file] this node's key ({@code io.locus.schemas.auth.NodeKeys}):
 *     every task event and node report is signed with it; null: they go unsigned
 * @param drainTimeout [drain-timeout] how long a graceful drain waits for running tasks (default
 *     5m)
 */
public record RealAgentConfig(
    AgentConfig agent,
    Path cacheDir,
    WorkSettings work,
    StorageSettings storage,
    HttpSettings http,
    PeerSettings peers,
    TaskSettings tasks,
    Map<String, TaskTemplate> templates,
    String defaultTemplate,
    RecordSigner signer,
    RecordSigner nodeSigner,
    Duration drainTimeout) {

  public RealAgentConfig {
    Objects.requireNonNull(agent, "agent");
    work = Setting.orDefault(work, WorkSettings.DEFAULTS);
    storage = Setting.orDefault(storage, StorageSettings.DEFAULTS);
    http = Setting.orDefault(http, HttpSettings.DEFAULTS);
    peers = Setting.orDefault(peers, PeerSettings.DEFAULTS);
    tasks = Setting.orDefault(tasks, TaskSettings.DEFAULTS);
    templates = Map.copyOf(Setting.orDefault(templates, Map.of()));
    drainTimeout = Setting.positive("drain-timeout",
        Setting.orDefault(drainTimeout, Duration.ofMinutes(5)));
    templates.forEach((name, t) -> {
      if (!name.equals(t.name())) {
        throw new IllegalArgumentException("template key " + name + " names template " + t.name());
      }
    });
    if (defaultTemplate != null && !templates.containsKey(defaultTemplate)) {
      throw new InvalidSetting("default-template", "default-template " + defaultTemplate
          + " is not one of the templates " + new TreeSet<>(templates.keySet()));
    }
    if (cacheDir != null && work.dir() != null
        && cacheDir.toAbsolutePath().normalize().equals(work.dir().toAbsolutePath().normalize())) {
      throw new InvalidSetting("work.dir", "must differ from cache.dir (" + cacheDir + ")");
    }
  }

  /**
   * {@code agent}'s settings with every real one at its default: no directories (a host sets
   * them per agent, see {@link #forNode}), no storage root, no templates, unsigned decisions.
   */
  public static RealAgentConfig of(AgentConfig agent) {
    return new RealAgentConfig(agent, null, null, null, null, null, null, null, null, null, null, null);
  }

  public String nodeId() {
    return agent.nodeId();
  }

  public String pool() {
    return agent.pool();
  }

  /** The same settings for node {@code nodeId}. */
  public RealAgentConfig withNodeId(String nodeId) {
    return new RealAgentConfig(agent.withNodeId(nodeId), cacheDir, work, storage, http, peers,
        tasks, templates, defaultTemplate, signer, nodeSigner, drainTimeout);
  }

  /**
   * This config for one of several agents of a host: its node id, its own cache and work
   * directories under {@code nodeDir}, any free port and no fixed advertised URL.
   */
  public RealAgentConfig forNode(String nodeId, Path nodeDir) {
    return new RealAgentConfig(agent.withNodeId(nodeId), nodeDir.resolve("cache"),
        work.withDir(nodeDir.resolve("work")), storage, http.anyPort(), peers, tasks, templates,
        defaultTemplate, signer, nodeSigner, drainTimeout);
  }

  public RealAgentConfig withStorage(StorageSettings s) {
    return new RealAgentConfig(agent, cacheDir, work, s, http, peers, tasks, templates,
        defaultTemplate, signer, nodeSigner, drainTimeout);
  }

  /**
   * With {@code template} added to the templates.
   *
   * @param asDefault also the template of decisions that name none
   */
  public RealAgentConfig withTemplate(TaskTemplate template, boolean asDefault) {
    Map<String, TaskTemplate> all = new LinkedHashMap<>(templates);
    all.put(template.name(), template);
    return new RealAgentConfig(agent, cacheDir, work, storage, http, peers, tasks, all,
        asDefault ? template.name() : defaultTemplate, signer, nodeSigner, drainTimeout);
  }
}
