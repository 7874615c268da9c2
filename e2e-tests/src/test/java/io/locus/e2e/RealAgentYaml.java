package io.locus.e2e;

import java.nio.file.Path;
import java.util.List;

/**
 * The config file of a real agent ({@code locus agent real --config}) as node-agent/README.md
 * describes it, for the whole-system tests that start the agent jar: one pool and node, 2 slots,
 * heartbeats every 500 ms, a 100 MB cache, a {@code file:} storage root, no topic creation, HTTP
 * on a free local port, and one template {@code checksum} (no arguments) as the default.
 */
final class RealAgentYaml {
  private RealAgentYaml() {}

  /**
   * @param readCommitted the agent's {@code kafka.read-committed} (true under exactly-once)
   * @param startFrom its {@code kafka.start-from}, or null for the agent's default
   * @param checksum the {@code checksum} template's command
   */
  static String of(String pool, String node, Path data, Path storage, String bootstrap,
      boolean readCommitted, String startFrom, List<String> checksum) {
    StringBuilder cmd = new StringBuilder();
    for (String c : checksum) {
      // single-quoted YAML: a quote is doubled, nothing else is special
      cmd.append("      - '").append(c.replace("'", "''")).append("'\n");
    }
    return String.join("\n",
        "pool: " + pool,
        "node-id: " + node,
        "slots: 2",
        "heartbeat: 500ms",
        "data-dir: " + data.toAbsolutePath(),
        "cache:",
        "  quota: 100MB",
        "storage:",
        "  root: " + storage.toAbsolutePath().toUri(),
        "kafka:",
        "  bootstrap-servers: " + bootstrap,
        "  read-committed: " + readCommitted
            + (startFrom == null ? "" : "\n  start-from: " + startFrom),
        "  create-topics: false",
        "http:",
        "  bind: 127.0.0.1",
        "  port: 0",
        "templates:",
        "  checksum:",
        "    command:",
        cmd.toString().stripTrailing(),
        "    max-args: 0",
        "default-template: checksum",
        "");
  }
}
