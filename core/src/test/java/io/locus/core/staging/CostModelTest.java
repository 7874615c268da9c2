package io.locus.core.staging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.locus.core.model.InputFile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CostModelTest {
  private static final long MIB = 1L << 20;

  @Test
  void defaultsAreTheCalibratedConstants() {
    assertThat(CostModel.DEFAULT).isEqualTo(new CostModel(117, 150, 0.001, 4)); // D26
    assertThat(CostModel.fromParams(Map.of())).isEqualTo(CostModel.DEFAULT);
    assertThat(CostModel.fromParams(Map.of("rbw", "1", "storageNodes", "2")))
        .isEqualTo(new CostModel(1, 150, 0.001, 2));
  }

  /** Hypergraph spec §8 T4: Eq. 5 closed form, Tr·RBW. */
  @Test
  void t4TransferCostPerFile() {
    CostModel c = new CostModel(1, 150, 0.001, 4); // RBW = 1 reads Tr·RBW directly
    assertThat(c.trPerMiB(1, 4)).isCloseTo(1.000, within(1e-4));
    assertThat(c.trPerMiB(2, 4)).isCloseTo(0.875, within(1e-4));
    assertThat(c.trPerMiB(6, 4)).isCloseTo(0.7917, within(1e-4));
    assertThat(c.trPerMiB(20, 4)).isCloseTo(0.7625, within(1e-4));
    assertThat(c.trPerMiB(100, 4)).isCloseTo(0.7525, within(1e-4));
    assertThat(c.trPerMiB(1, 2)).isCloseTo(1.0, within(1e-4));
    assertThat(c.trPerMiB(2, 2)).isCloseTo(0.75, within(1e-4));
  }

  /** T5: a 64 MiB file with s = 1 and a 4 MiB file with s = 2, P = 4 → 1.09826 s. */
  @Test
  void t5EstimatedExec() {
    List<InputFile> files = List.of(InputFile.of("big", 64 * MIB), InputFile.of("small", 4 * MIB));
    double e = CostModel.DEFAULT.estimatedExec(files, f -> f.equals("big") ? 1 : 2, 4);
    assertThat(e).isCloseTo(1.09826, within(1e-5));
  }

  @Test
  void execIsStagingPlusReadPlusCompute() {
    CostModel u = new CostModel(1, 1 / 0.3, 0.2, 4); // spec setting U with 1 unit = 1 MiB
    assertThat(u.exec(MIB, 2 * MIB)).isCloseTo(2.0, within(1e-12)); // T8's Exec_1
    assertThat(u.exec(2 * MIB, 2 * MIB)).isCloseTo(3.0, within(1e-12)); // T8's Exec_2
  }

  @Test
  void storageNodeComesFromTheLocation() {
    CostModel c = CostModel.DEFAULT;
    assertThat(c.storageOf(new InputFile("f", 1, 0, "SN3", null))).isEqualTo(3);
    assertThat(c.storageOf(new InputFile("f", 1, 0, "12", null))).isEqualTo(12);
    int s = c.storageOf(InputFile.of("no-location", 1));
    assertThat(s).isBetween(0, 3).isEqualTo(c.storageOf(InputFile.of("no-location", 1)));
    assertThatThrownBy(() -> c.storageOf(new InputFile("f", 1, 0, "s3://bucket", null)))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
