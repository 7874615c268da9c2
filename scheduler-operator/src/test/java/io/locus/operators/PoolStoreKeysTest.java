package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Both directions of the composite-key encoding that {@link PoolStore} owns. */
class PoolStoreKeysTest {
  @Test
  void aPairKeySplitsBackIntoItsNodeAndFileWhateverTheFileIdHolds() {
    for (String file : new String[] {"f1", "a/b/c", "with space", "n1", "", "x\u0001y", "éé"}) {
      String k = PoolStore.pairKey("node-7", file);
      assertThat(PoolStore.first(k)).isEqualTo("node-7");
      assertThat(PoolStore.second(k)).isEqualTo(file);
    }
  }

  @Test
  void aGanttKeyKeepsTheExactStartOfTheReservation() {
    double[] starts = {0.0, -0.0, 0.1 + 0.2, 1e-310, Double.MAX_VALUE, 12_345.678_901_234_5,
        Math.nextUp(1.0)};
    for (int node : new int[] {0, 3, 31, 1024}) {
      for (double s : starts) {
        String k = PoolStore.ganttKey(node, s);
        assertThat(PoolStore.ganttNode(k)).isEqualTo(node);
        // bit-exact: a restored chart must hold the very same interval (0.0 and -0.0 differ)
        assertThat(Double.doubleToRawLongBits(PoolStore.ganttStart(k)))
            .isEqualTo(Double.doubleToRawLongBits(s));
      }
    }
  }

  @Test
  void distinctReservationsNeverShareAKey() {
    assertThat(PoolStore.ganttKey(1, 0.0)).isNotEqualTo(PoolStore.ganttKey(1, -0.0));
    assertThat(PoolStore.ganttKey(1, 10.0)).isNotEqualTo(PoolStore.ganttKey(11, 0.0));
    assertThat(PoolStore.pairKey("n1", "1f")).isNotEqualTo(PoolStore.pairKey("n11", "f"));
  }
}
