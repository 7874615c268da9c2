package io.locus.core.policy;

import io.locus.core.state.HotFiles;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link IndexedDispatchEquivalenceTest}'s cases (the indexed MCU, MCH and GCC against the window
 * scan, decision by decision) with the dispatch index's hot-file threshold at 1: files held by
 * more than two nodes keep their one-input readers once instead of under every holder, and the
 * notify step and part 2 find them by a walk bounded by the window. Decisions must not change.
 */
class IndexedDispatchHotFilesEquivalenceTest {

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.locus.core.policy.IndexedDispatchEquivalenceTest#cases")
  void indexedDispatchWithHotFilesDecidesLikeTheWindowScan(
      IndexedDispatchEquivalenceTest.Case c) {
    HotFiles.with(1, () -> new IndexedDispatchEquivalenceTest()
        .indexedDispatchDecidesLikeTheWindowScan(c));
  }

  /** The same with every node holding more than one file wide ({@code HotReaders}). */
  @ParameterizedTest(name = "{0}")
  @MethodSource("io.locus.core.policy.IndexedDispatchEquivalenceTest#cases")
  void indexedDispatchWithWideNodesDecidesLikeTheWindowScan(
      IndexedDispatchEquivalenceTest.Case c) {
    HotFiles.with(1, 1, () -> new IndexedDispatchEquivalenceTest()
        .indexedDispatchDecidesLikeTheWindowScan(c));
  }
}
