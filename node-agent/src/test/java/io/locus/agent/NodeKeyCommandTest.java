package io.locus.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.auth.Secrets;
import io.locus.schemas.auth.NodeKeys;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code locus agent node-key}: the key an agent signs with is the one the scheduler derives. */
@Timeout(30)
class NodeKeyCommandTest {
  @TempDir
  Path tmp;

  @Test
  void writesAndPrintsTheNodesDerivedKey() throws Exception {
    Path secret = Files.writeString(tmp.resolve("cluster.secret"), "cluster secret\n");
    byte[] expected = new NodeKeys("cluster secret".getBytes(StandardCharsets.UTF_8)).key("n7");

    Path out = tmp.resolve("n7.key");
    int rc = new CommandLine(new AgentCli()).execute("node-key", "--node", "n7",
        "--cluster-secret-file", secret.toString(), "--out", out.toString());
    assertThat(rc).isZero();
    assertThat(Files.readAllBytes(out)).isEqualTo(expected);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out)))
        .isEqualTo("rw-------");
    assertThat(Secrets.readKey(out)).isEqualTo(expected);

    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    PrintStream old = System.out;
    System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
    try {
      rc = new CommandLine(new AgentCli()).execute("node-key", "--node", "n7",
          "--cluster-secret-file", secret.toString());
    } finally {
      System.setOut(old);
    }
    assertThat(rc).isZero();
    String hex = printed.toString(StandardCharsets.UTF_8).strip();
    assertThat(hex).isEqualTo(HexFormat.of().formatHex(expected));
    // The printed form, saved to a file, is a node key file too.
    assertThat(Secrets.readKey(Files.writeString(tmp.resolve("hex.key"), hex + "\n")))
        .isEqualTo(expected);
  }

  @Test
  void aMissingSecretOrAWrongSizedKeyFileIsAnError() throws Exception {
    int rc = new CommandLine(new AgentCli()).execute("node-key", "--node", "n7",
        "--cluster-secret-file", tmp.resolve("nope").toString());
    assertThat(rc).isEqualTo(2);
    Path bad = Files.writeString(tmp.resolve("bad.key"), "short");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Secrets.readKey(bad))
        .hasMessageContaining("32 raw bytes");
  }
}
