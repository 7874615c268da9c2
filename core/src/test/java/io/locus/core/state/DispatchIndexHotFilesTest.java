package io.locus.core.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The dispatch index with hot files (one-input readers of a many-holder file kept once, not under
 * every holder): with the threshold at 1 or 2 the 8-node pool of {@link
 * DispatchIndexIncrementalTest} has files turning hot and cold all the time, and that test's
 * checks (every query against the definition and a fresh index, after every step) must hold.
 */
class DispatchIndexHotFilesTest {

  @ParameterizedTest(name = "threshold {0}, seed {1}, queue depth {2}")
  @CsvSource({"1, 1, 0", "1, 2, 0", "1, 3, 2", "2, 4, 0", "2, 5, 1", "2, 6, 3"})
  void theIndexWithHotFilesAnswersAsTheDefinitionAfterEveryStep(int threshold, long seed,
      int depth) {
    HotFiles.with(threshold, () -> new DispatchIndexIncrementalTest()
        .theIncrementalIndexEqualsOneRebuiltFromScratchAfterEveryStep(seed, depth));
  }

  /**
   * The same with wide nodes (more than 0 or 1 files held: not counted per file while free, looked
   * up at the query): wide and narrow nodes mix as caches fill and empty.
   */
  @ParameterizedTest(name = "threshold {0}, wide {1}, seed {2}, queue depth {3}")
  @CsvSource({"1, 0, 7, 0", "1, 1, 8, 2", "2, 1, 9, 0", "1, 2, 10, 1"})
  void wideNodesAnswerAsTheDefinitionAfterEveryStep(int threshold, int wide, long seed,
      int depth) {
    HotFiles.with(threshold, wide, () -> new DispatchIndexIncrementalTest()
        .theIncrementalIndexEqualsOneRebuiltFromScratchAfterEveryStep(seed, depth));
  }

  /** The hot path is taken: a file on 3 nodes turns hot at threshold 1, cold when it has none. */
  @Test
  void aFileTurnsHotWithManyHoldersAndColdWithoutThem() {
    HotFiles.with(1, () -> {
      PoolState s = new PoolState(StateJournal.NONE, 2);
      for (int i = 0; i < 3; i++) {
        s.registerNode("n" + i, 1, 0, 1000, null, 0);
      }
      DispatchIndex ix = s.dispatchIndex();
      Task t = new Task("t1", "t1", 0, 1, List.of(InputFile.of("f", 10)), 1.0, 0, null, List.of(),
          0);
      s.enqueue(t);
      for (int i = 0; i < 3; i++) {
        s.applyCacheDelta("n" + i, 1, Map.of("f", 10L), List.of());
      }
      assertThat(ix.hotTasks()).as("hot after the third holder").isEqualTo(1);
      for (int i = 0; i < 3; i++) {
        assertThat(ix.firstBest(s.node("n" + i))).isSameAs(t);
      }
      assertThat(ix.firstBestOfFree()).isSameAs(t);
      for (int i = 0; i < 3; i++) {
        s.applyCacheDelta("n" + i, 2, Map.of(), List.of("f"));
      }
      assertThat(ix.hotTasks()).as("cold without holders").isZero();
      assertThat(ix.firstUncached()).isSameAs(t);
      List<Task> none = new ArrayList<>();
      ix.best(s.node("n0")).forEachRemaining(none::add);
      assertThat(none).isEmpty();
    });
  }
}
