package io.locus.agent.real;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.agent.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's config file is strict: what a new user got wrong and `--check` used to call
 * "config OK" is an error naming the key and the line.
 */
class AgentConfigStrictnessTest {
  /** Three lines every config here starts with: the mistake is on line 4 or later. */
  private static final String HEAD = "pool: p\nnode-id: n\ndata-dir: d\n";

  @TempDir
  Path tmp;

  private AgentConfigFile parse(String rest) {
    return AgentConfigFile.parse(HEAD + rest, tmp, null);
  }

  private AbstractThrowableAssert<?, ?> refused(String rest) {
    return assertThatThrownBy(() -> parse(rest)).isInstanceOf(ConfigException.class);
  }

  @Test
  void anEvictionPolicyAnAgentCannotRunIsRefusedBeforeStart() {
    refused("eviction: BOGUS\n").hasMessage("line 4: eviction: 'BOGUS' is not an eviction policy"
        + " an agent can use; use one of [LRU, FIFO, LFU, RANDOM]");
    refused("eviction: VALUE\n").hasMessageContaining("line 4: eviction: 'VALUE' is not")
        .hasMessageContaining("needs the pool's statistics");
    assertThat(parse("eviction: lfu\n").agent().agent().evictionPolicy()).isEqualTo("lfu");
  }

  @Test
  void aStorageRootThatIsNotADirectoryHereFailsTheCheckOfTheMachine() throws Exception {
    AgentConfigFile missing = parse("storage: {root: store}\n");
    assertThatThrownBy(missing::checkPaths).isInstanceOf(ConfigException.class)
        .hasMessage("line 4: storage.root: " + tmp.resolve("store") + " does not exist");

    Files.writeString(tmp.resolve("store"), "a file");
    assertThatThrownBy(parse("storage:\n  root: store\n")::checkPaths)
        .hasMessage("line 5: storage.root: " + tmp.resolve("store") + " is not a directory");

    Files.delete(tmp.resolve("store"));
    Files.createDirectory(tmp.resolve("store"));
    parse("storage: {root: store}\n").checkPaths();
    // HTTP storage is not contacted by a check; no root at all is allowed (locations then).
    parse("storage: {root: 'https://storage.invalid/pool/'}\n").checkPaths();
    parse("").checkPaths();
  }

  /** A taken port was a stack trace from the HTTP server's start; now the key and the line. */
  @Test
  void aPortAnotherProcessHoldsIsAConfigErrorNamingTheKeyAndLine() throws Exception {
    try (java.net.ServerSocket held = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getLoopbackAddress())) {
      int port = held.getLocalPort();
      AgentConfigFile taken = parse("http:\n  bind: 127.0.0.1\n  port: " + port + "\n");
      assertThatThrownBy(taken::checkPort).isInstanceOf(ConfigException.class)
          .hasMessageStartingWith("line 6: http.port: port " + port
              + " on 127.0.0.1 is in use by another process");
    }
    // any free port is not checked, and a free one passes
    parse("http: {port: 0}\n").checkPort();
    int free;
    try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1,
        java.net.InetAddress.getLoopbackAddress())) {
      free = probe.getLocalPort();
    }
    parse("http: {bind: 127.0.0.1, port: " + free + "}\n").checkPort();
  }

  @Test
  void aKeyGivenTwiceIsRefusedInsteadOfTheLastWinning() {
    refused("slots: 3\nslots: 4\n")
        .hasMessage("line 5: slots: given twice (first at line 4); a key may appear once");
    refused("cache:\n  quota: 1GB\n  quota: 2GB\n")
        .hasMessage("line 6: cache.quota: given twice (first at line 5); a key may appear once");
    refused("templates:\n  t: {command: [ls]}\n  t: {command: [sh]}\n")
        .hasMessageStartingWith("line 6: templates.t: given twice (first at line 5)");
  }

  @Test
  void sizeUnitsAreExactAndCaseSensitive() {
    refused("cache: {quota: 12Mb}\n").hasMessageStartingWith("line 4: cache.quota: not a size:"
        + " '12Mb': 'Mb' is not a unit; units are case-sensitive; a lowercase b means bits:"
        + " did you mean MB?");
    refused("cache: {quota: 12mb}\n").hasMessageContaining("did you mean MB?");
    refused("cache: {quota: 12M}\n")
        .hasMessageStartingWith("line 4: cache.quota: not a size: '12M': 'M' is not a unit.");
    refused("cache: {quota: 1.5B}\n")
        .hasMessage("line 4: cache.quota: not a size: '1.5B': not a whole number of bytes");
    assertThat(parse("cache: {quota: 12MB}\n").agent().agent().cacheCapacityBytes())
        .isEqualTo(12_000_000L);
    assertThat(parse("cache: {quota: 12MiB}\n").agent().agent().cacheCapacityBytes())
        .isEqualTo(12L << 20);
    assertThat(parse("cache: {quota: 3 kB}\n").agent().agent().cacheCapacityBytes())
        .isEqualTo(3_000L);
    assertThat(parse("tasks: {stderr-tail-bytes: 4KiB}\n").agent().tasks().stderrTailBytes()
        .bytes()).isEqualTo(4096);
  }

  @Test
  void negativeSizesAndNumbersOutOfRangeAreRefused() {
    refused("cache: {quota: -5MB}\n")
        .hasMessage("line 4: cache.quota: a size must not be negative, got '-5MB'");
    refused("cache: {quota: -5}\n")
        .hasMessage("line 4: cache.quota: a size must not be negative, got '-5'");
    refused("slots: 0\n").hasMessage("line 4: slots: must be >= 1, got 0");
    refused("tasks: {queue-depth: -1}\n")
        .hasMessage("line 4: tasks.queue-depth: must be 0..1024, got -1");
    refused("tasks: {queue-depth: 5000}\n")
        .hasMessage("line 4: tasks.queue-depth: must be 0..1024, got 5000");
    assertThat(parse("tasks: {queue-depth: 3}\n").agent().agent().queueDepth()).isEqualTo(3);
    // not set: as deep as the node has slots (issue 23 item 6: slots stay busy exactly-once)
    assertThat(parse("slots: 2\n").agent().agent().queueDepth()).isEqualTo(2);
    assertThat(parse("slots: 2\ntasks: {queue-depth: 0}\n").agent().agent().queueDepth())
        .isZero();
    refused("work: {keep: -3}\n").hasMessage("line 4: work.keep: must be >= 0, got -3");
    refused("http:\n  bind: 0.0.0.0\n  port: 70000\n")
        .hasMessage("line 6: http.port: must be 0..65535, got 70000");
    refused("storage: {attempts: 0}\n").hasMessage("line 4: storage.attempts: must be >= 1, got 0");
    refused("templates:\n  x:\n    command: [ls]\n    max-args: -1\n")
        .hasMessage("line 7: templates.x.max-args: must be >= 0, got -1");
    refused("tasks: {timeout: PT-5S}\n")
        .hasMessage("line 4: tasks.timeout: must be a positive duration, got PT-5S");
  }

  @Test
  void wrongTypesAreRefusedNotCoerced() {
    refused("slots: many\n").hasMessage("line 4: slots: must be a whole number, not 'many'");
    refused("slots: 2.5\n").hasMessage("line 4: slots: must be a whole number, not 2.5");
    refused("slots: '3'\n").hasMessage("line 4: slots: must be a whole number, not '3'");
    refused("slots: [1]\n").hasMessage("line 4: slots: must be a whole number, not a list");
    refused("tasks: {inherit-env: 'true'}\n")
        .hasMessage("line 4: tasks.inherit-env: must be true or false, not 'true'");
    refused("kafka: {start-from: never}\n")
        .hasMessage("line 4: kafka.start-from: must be one of [latest, earliest], not 'never'");
    refused("storage: {allowed-locations: file:///x/}\n")
        .hasMessage("line 4: storage.allowed-locations: must be a list, e.g. [a, b],"
            + " not 'file:///x/'");
    refused("heartbeat: 5M\n").hasMessageStartingWith(
        "line 4: heartbeat: not a duration: '5M': 'M' is not a unit; units are ms, s, m, h, d,"
            + " case-sensitive");
    refused("tasks: {env: {A: }}\n").hasMessage("line 4: tasks.env.A: needs a value");
  }

  @Test
  void unknownKeysAreNamedWithTheKeysKnownThere() {
    refused("slotz: 3\n").hasMessageStartingWith("line 4: unknown key [slotz]; known here: [cache,"
        + " data-dir, dedupe-window,");
    refused("storage:\n  root: /x\n  atempts: 3\n")
        .hasMessage("line 6: unknown key [storage.atempts]; known here: [allowed-locations,"
            + " attempts, max-concurrent-transfers, request-timeout, root, transfer-timeout]");
    // A misspelt key is reported before what it leaves missing.
    assertThatThrownBy(() -> AgentConfigFile.parse("pol: p\nnode-id: n\n", tmp, null))
        .hasMessageStartingWith("line 1: unknown key [pol]");
  }

  @Test
  void brokenYamlAndAFileOfTheWrongShapeAreSaidSo() {
    refused("  bad: indent\n")
        .hasMessage("line 4: not valid YAML: mapping values are not allowed here");
    refused("---\npool: q\n").hasMessageContaining("a second YAML document (---)");
    assertThatThrownBy(() -> AgentConfigFile.parse("- a\n- b\n", tmp, null))
        .hasMessage("line 1: the config must be a mapping of keys to values");
    assertThatThrownBy(() -> AgentConfigFile.parse("\n", tmp, null))
        .hasMessageStartingWith("the config is empty");
  }

  @Test
  void aFilesErrorsStartWithItsNameAndLine() throws Exception {
    Path file = Files.writeString(tmp.resolve("agent.yaml"), HEAD + "cache: {quota: 12Mb}\n");
    assertThatThrownBy(() -> AgentConfigFile.load(file, null))
        .hasMessageStartingWith(file + ":4: cache.quota: not a size: '12Mb'")
        .satisfies(e -> {
          ConfigException c = (ConfigException) e;
          assertThat(c.key()).isEqualTo("cache.quota");
          assertThat(c.line()).isEqualTo(4);
        });
    Path secretless = Files.writeString(tmp.resolve("b.yaml"),
        HEAD + "security: {secret-file: none.secret}\n");
    assertThatThrownBy(() -> AgentConfigFile.load(secretless, null))
        .hasMessageStartingWith(secretless + ":4: security.secret-file: cannot read the secret"
            + " file " + tmp.resolve("none.secret"));
  }
}
