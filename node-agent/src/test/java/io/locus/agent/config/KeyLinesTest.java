package io.locus.agent.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class KeyLinesTest {
  @Test
  void keysListsAndValuesHaveTheirLines() {
    KeyLines k = KeyLines.of("""
        pool: p
        cache:
          dir: c
          quota: 12Mb
        storage:
          allowed-locations:
            - file:///a/
            - file:///b/
        templates: {t: {command: [ls]}}
        """);
    assertThat(k.lineOf("pool")).isEqualTo(1);
    assertThat(k.lineOf("cache")).isEqualTo(2);
    assertThat(k.lineOf("cache.quota")).isEqualTo(4);
    assertThat(k.valueOf("cache.quota")).isEqualTo("'12Mb'");
    assertThat(k.lineOf("storage.allowed-locations[1]")).isEqualTo(8);
    assertThat(k.valueOf("storage.allowed-locations")).isEqualTo("a list");
    assertThat(k.lineOf("templates.t.command")).isEqualTo(9);
    assertThat(k.lineOf("cache.missing")).as("the nearest key that is there").isEqualTo(2);
    assertThat(k.lineOf("nowhere")).isZero();
  }

  @Test
  void brokenYamlGivesWhatWasReadBeforeTheBreak() {
    KeyLines k = KeyLines.of("pool: p\n  bad: indent\n");
    assertThat(k.lineOf("pool")).isEqualTo(1);
    assertThat(k.error("pool", "x").getMessage()).isEqualTo("line 1: pool: x");
  }
}
