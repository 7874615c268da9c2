package io.locus.agent.real;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class FileIdsTest {
  @Test
  void plainNamesAreSafe() {
    for (String ok : new String[] {"f1", "file-0001.dat", "a b", "x..y", "run_1.fits.gz", "é",
        "a:b", "x".repeat(255)}) {
      assertThat(FileIds.problem(ok)).as(ok).isNull();
    }
  }

  @Test
  void anythingThatCouldEscapeOrCollideIsNot() {
    assertThat(FileIds.problem("..")).contains("escapes the cache directory");
    assertThat(FileIds.problem("../x")).contains("escapes the cache directory");
    assertThat(FileIds.problem("a/../../x")).contains("escapes the cache directory");
    assertThat(FileIds.problem("..\\x")).contains("escapes the cache directory");
    assertThat(FileIds.problem("/etc/passwd")).contains("absolute path");
    assertThat(FileIds.problem("a/b")).contains("path separator");
    assertThat(FileIds.problem("a\\b")).contains("path separator");
    assertThat(FileIds.problem(".")).contains("cache directory itself");
    assertThat(FileIds.problem(".incoming")).contains("starts with a dot");
    assertThat(FileIds.problem("a\nb")).contains("control character").contains("\\x0a");
    assertThat(FileIds.problem("a\0b")).contains("control character");
    assertThat(FileIds.problem("")).isEqualTo("empty file id");
    assertThat(FileIds.problem(null)).isEqualTo("empty file id");
    assertThat(FileIds.problem("é".repeat(128))).contains("longer than 255 bytes");
  }
}
