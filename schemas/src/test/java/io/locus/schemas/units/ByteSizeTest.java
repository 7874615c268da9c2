package io.locus.schemas.units;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ByteSizeTest {
  private static long bytes(String s) {
    return ByteSize.parse(s).bytes();
  }

  @Test
  void decimalAndBinaryUnits() {
    assertThat(bytes("1500")).isEqualTo(1500);
    assertThat(bytes("7B")).isEqualTo(7);
    assertThat(bytes("2kB")).isEqualTo(bytes("2KB")).isEqualTo(2_000);
    assertThat(bytes("2 MB")).isEqualTo(2_000_000);
    assertThat(bytes("3GB")).isEqualTo(3_000_000_000L);
    assertThat(bytes("1TB")).isEqualTo(1_000_000_000_000L);
    assertThat(bytes("1KiB")).isEqualTo(1024);
    assertThat(bytes("1.5GiB")).isEqualTo(1_610_612_736L);
    assertThat(bytes("2TiB")).isEqualTo(2L << 40);
  }

  @Test
  void anythingAmbiguousIsRefused() {
    for (String s : new String[] {"12Mb", "12mb", "12mB", "12kb", "12gib", "12M", "12K", "12 b"}) {
      assertThatThrownBy(() -> ByteSize.parse(s)).as(s)
          .hasMessageStartingWith("not a size: '" + s + "'");
    }
    assertThatThrownBy(() -> ByteSize.parse("12Mb")).hasMessageContaining("did you mean MB?");
    assertThatThrownBy(() -> ByteSize.parse("-1KB")).hasMessageContaining("must not be negative");
    assertThatThrownBy(() -> new ByteSize(-1)).hasMessageContaining("must not be negative");
    assertThatThrownBy(() -> ByteSize.parse("0.1B")).hasMessageContaining("not a whole number");
    assertThatThrownBy(() -> ByteSize.parse("99999999TiB")).hasMessageContaining("more than");
    assertThatThrownBy(() -> ByteSize.parse("MB")).hasMessageStartingWith("not a size: 'MB'");
  }
}
