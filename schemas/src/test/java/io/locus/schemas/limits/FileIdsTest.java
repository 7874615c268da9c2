package io.locus.schemas.limits;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class FileIdsTest {
  @Test
  void plainNamesAreSafe() {
    for (String ok : new String[] {"f1", "file-0001.dat", "a b", "x..y", "run_1.fits.gz", "é",
        "a:b", "x".repeat(255), "a/b", "blast-1/db.fa", "x%2Fy"}) {
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
    // '/' separates the components of an id (issue 15: "<instance>/<file>"), never of a path.
    assertThat(FileIds.problem("a//b")).contains("empty or '.' path component");
    assertThat(FileIds.problem("a/")).contains("empty or '.' path component");
    assertThat(FileIds.problem("a/./b")).contains("empty or '.' path component");
    assertThat(FileIds.problem("a/.b")).isNull();
    assertThat(FileIds.problem("a\\b")).contains("path separator");
    assertThat(FileIds.problem(".")).contains("cache directory itself");
    assertThat(FileIds.problem(".incoming")).contains("starts with a dot");
    assertThat(FileIds.problem("a\nb")).contains("control character").contains("\\x0a");
    assertThat(FileIds.problem("a\0b")).contains("control character");
    assertThat(FileIds.problem("")).isEqualTo("empty file id");
    assertThat(FileIds.problem(null)).isEqualTo("empty file id");
    assertThat(FileIds.problem("é".repeat(128)))
        .endsWith("is 256 bytes as a file name, more than the limit of 255");
    // The scheduler's rules, now the agents' too (issue 22: one set of rules everywhere).
    assertThat(FileIds.problem("   ")).contains("is blank");
    assertThat(FileIds.problem("a\u0085b")).contains("control character at index 1");
    assertThat(FileIds.problem("a\ud800b")).contains("lone surrogate at index 1");
    assertThat(FileIds.problem("a\ud83d\ude00b")).isNull();
  }

  @Test
  void anIdsFileNameIsOnePlainComponentAndMapsBack() {
    assertThat(FileIds.fileName("f1")).isEqualTo("f1");
    assertThat(FileIds.fileName("blast-1/db.fa")).isEqualTo("blast-1%2Fdb.fa");
    assertThat(FileIds.fileName("x%2Fy")).isEqualTo("x%252Fy");
    assertThat(FileIds.fileName("a/b%c/d")).isEqualTo("a%2Fb%25c%2Fd");
    for (String id : new String[] {"f1", "blast-1/db.fa", "x%2Fy", "a/b%c/d", "%", "a/.b"}) {
      String name = FileIds.fileName(id);
      assertThat(FileIds.nameProblem(name)).as(name).isNull();
      assertThat(FileIds.idOf(name)).isEqualTo(id);
    }
    // Two ids never share a name: "a/b" and "a%2Fb" differ once '%' is escaped.
    assertThat(FileIds.fileName("a/b")).isNotEqualTo(FileIds.fileName("a%2Fb"));
    // Names no agent wrote map to no id.
    assertThat(FileIds.idOf("a%2fb")).isNull();
    assertThat(FileIds.idOf("a%zz")).isNull();
    assertThat(FileIds.idOf("%2E%2E")).isNull();
    assertThat(FileIds.idOf("..%2Fx")).isNull();
    assertThat(FileIds.idOf(".incoming")).isNull();
    // The length limit is on the name: each '/' costs three bytes there.
    assertThat(FileIds.problem("x".repeat(253) + "/y")).contains("257 bytes as a file name");
    assertThat(FileIds.problem("x".repeat(251) + "/y")).isNull();
    assertThat(FileIds.lengthProblem("x".repeat(251) + "/y")).isNull();
    assertThat(FileIds.lengthProblem("x".repeat(256))).contains("256 bytes");
  }

  @Test
  void theLimitIsTheSharedOneAndCountsTheFileNamesUtf8Bytes() {
    assertThat(FileIds.MAX_BYTES).isEqualTo(Limits.MAX_FILE_ID_BYTES).isEqualTo(255);
    for (String id : new String[] {"f1", "a/b", "x%y", "é", "€", "a\ud83d\ude00b/%/é€"}) {
      assertThat(FileIds.nameBytes(id)).as(id)
          .isEqualTo(FileIds.fileName(id).getBytes(StandardCharsets.UTF_8).length);
    }
    assertThat(FileIds.problem("x".repeat(Limits.MAX_FILE_ID_BYTES))).isNull();
    assertThat(FileIds.problem("x".repeat(Limits.MAX_FILE_ID_BYTES + 1))).isNotNull();
  }
}
