package io.locus.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.LintResult;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code helm lint --strict}: the defaults, non-default value sets, and values the schema refuses. */
@Timeout(60)
class ChartLintTest {
  @TempDir Path tmp;

  @Test
  void defaultsPassStrictLint() {
    LintResult r = Chart.lint(null, tmp);
    assertThat(r.isFailed()).as("%s", r.getMessages()).isFalse();
  }

  @ParameterizedTest
  @ValueSource(strings = {ValueSets.MULTI_POOL, ValueSets.NO_STRIMZI_SECURED, ValueSets.MONITORED_EXISTING_SECRETS})
  void nonDefaultValueSetsPassStrictLint(String yaml) {
    LintResult r = Chart.lint(Chart.values(yaml), tmp);
    assertThat(r.isFailed()).as("%s", r.getMessages()).isFalse();
  }

  @Test
  void aStateUriWithoutSchemeFailsNamingTheKey() {
    LintResult r = Chart.lint(Chart.values("state: {uri: my-bucket/locus}"), tmp);
    assertThat(r.isFailed()).isTrue();
    assertThat(String.join("\n", r.getMessages())).contains("state").contains("uri");
  }

  @Test
  void anUnknownKeyFailsLint() {
    LintResult r = Chart.lint(Chart.values("agent: {slotz: 4}"), tmp);
    assertThat(r.isFailed()).isTrue();
    assertThat(String.join("\n", r.getMessages())).contains("slotz");
  }
}
