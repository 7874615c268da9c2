package io.locus.kafka.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationTextTest {
  @Test
  void unitsAndIso() {
    assertThat(DurationText.parse("250ms")).isEqualTo(Duration.ofMillis(250));
    assertThat(DurationText.parse("30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(DurationText.parse("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(DurationText.parse("1.5h")).isEqualTo(Duration.ofMinutes(90));
    assertThat(DurationText.parse("1d")).isEqualTo(Duration.ofDays(1));
    assertThat(DurationText.parse("PT2M")).isEqualTo(Duration.ofMinutes(2));
    assertThat(DurationText.parse("pt2m")).isEqualTo(Duration.ofMinutes(2));
  }

  @Test
  void unitsAreCaseSensitiveAndRequired() {
    assertThatThrownBy(() -> DurationText.parse("5M"))
        .hasMessageStartingWith("not a duration: '5M': 'M' is not a unit");
    assertThatThrownBy(() -> DurationText.parse("30S")).hasMessageContaining("'S' is not a unit");
    assertThatThrownBy(() -> DurationText.parse("5")).hasMessageStartingWith("not a duration: '5'");
    assertThatThrownBy(() -> DurationText.parse("PTX")).hasMessageStartingWith("not a duration");
  }
}
