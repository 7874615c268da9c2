package io.locus.core.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The work of the notify step's query over hot files must not grow with the backlog (issue 25,
 * congestion collapse). The case that collapsed {@code locus bench} (MCH, zipf, 1,000 nodes):
 * popular files are hot (more than 32 holders), every holder of them is busy, and nodes holding
 * none of them are free. Each decision asked for the earliest hot task with a free holder and
 * walked every hot task up to the window's end (W = 2,500), probing the free pool or the holders
 * of each one's file: ~W × holders per input, so a backlog turned a pool placing 7,800/s into one
 * placing ~100/s. Counted here in probes (tasks and holders visited), not time.
 */
class DispatchIndexHotWorkTest {
  private static final int HOLDERS = 40; // > 2 × 16: hot at the default threshold
  private static final int OTHERS = 20;

  @Test
  void theFirstHotTaskWithAFreeHolderIsFoundWithoutWalkingTheBacklog() {
    PoolState s = new PoolState(StateJournal.NONE, 2);
    for (int i = 0; i < HOLDERS; i++) {
      s.registerNode("h" + i, 1, 0, 1_000_000, null, 0);
      s.applyCacheDelta("h" + i, 1, Map.of("f", 10L), List.of());
    }
    for (int i = 0; i < OTHERS; i++) {
      s.registerNode("o" + i, 1, 0, 1_000_000, null, 0);
    }
    for (int i = 0; i < HOLDERS; i++) {
      s.setDraining("h" + i, true); // busy for the pool: out of the free pool
    }
    DispatchIndex ix = s.dispatchIndex();
    int backlog = 5_000;
    for (int i = 0; i < backlog; i++) {
      s.enqueue(task(i));
    }
    assertThat(ix.hotTasks()).as("every queued task reads the hot file").isEqualTo(backlog);

    long before = ix.hotProbes();
    assertThat(ix.firstBestOfFree(ix.windowLast(2500))).as("no hot file has a free holder")
        .isNull();
    long idle = ix.hotProbes() - before;
    assertThat(idle).as("probes to find that no hot task can go, with %d queued", backlog)
        .isLessThanOrEqualTo(4);

    s.setDraining("h7", false); // one holder frees
    before = ix.hotProbes();
    assertThat(ix.firstBestOfFree(ix.windowLast(2500))).isSameAs(s.queued("t0"));
    assertThat(ix.hotProbes() - before).as("probes to find the first hot task that can go")
        .isLessThanOrEqualTo(4);
  }

  /**
   * Part 2 of the decision (the notified node's tasks) must not walk the readers of hot files the
   * node does not hold: a free holder of a rarely read hot file, behind a backlog of readers of a
   * popular one, finds its task at once.
   */
  @Test
  void aNodeFindsItsHotTasksWithoutWalkingOtherFilesReaders() {
    PoolState s = new PoolState(StateJournal.NONE, 2);
    for (int i = 0; i < HOLDERS; i++) {
      s.registerNode("h" + i, 1, 0, 1_000_000, null, 0);
      s.applyCacheDelta("h" + i, 1, Map.of("f", 10L, "g", 10L), List.of());
      s.setDraining("h" + i, true);
    }
    s.registerNode("g0", 1, 0, 1_000_000, null, 0);
    s.applyCacheDelta("g0", 1, Map.of("g", 10L), List.of());
    DispatchIndex ix = s.dispatchIndex();
    int backlog = 2_000;
    for (int i = 0; i < backlog; i++) {
      s.enqueue(task(i));
    }
    Task g = new Task("tg", "tg", 0, backlog + 1, List.of(InputFile.of("g", 10)), 1.0, 0, null,
        List.of(), 0);
    s.enqueue(g);
    assertThat(ix.hotTasks()).isEqualTo(backlog + 1);
    assertThat(ix.firstBestOfFree(ix.windowLast(2500))).isSameAs(g);
    long before = ix.hotProbes();
    Iterator<Task> best = ix.best(s.node("g0"), ix.windowLast(2500));
    assertThat(best.next()).isSameAs(g);
    assertThat(best.hasNext()).isFalse();
    assertThat(ix.hotProbes() - before).as("hot tasks visited for the holder of g alone")
        .isLessThanOrEqualTo(4);
  }

  /**
   * Every slot busy and every node holding every (hot) file, as CoreScaleReport's no-idle case:
   * each placement and completion moves a node out of and into the free pool, and the per-file
   * free-holder counts must not cost an update per file held (1,000 files: ten times the
   * decision's own cost), while the query still finds the node's hot task.
   */
  @Test
  void aNodeHoldingManyHotFilesMovesInAndOutOfTheFreePoolAtNoCostPerFile() {
    PoolState s = new PoolState(StateJournal.NONE, 2);
    int files = 200;
    Map<String, Long> all = new java.util.HashMap<>();
    for (int f = 0; f < files; f++) {
      all.put("f" + f, 10L);
    }
    for (int i = 0; i < HOLDERS; i++) {
      s.registerNode("h" + i, 1, 0, 1_000_000, null, 0);
      s.applyCacheDelta("h" + i, 1, all, List.of());
    }
    DispatchIndex ix = s.dispatchIndex();
    for (int i = 0; i < files; i++) {
      s.enqueue(new Task("t" + i, "t" + i, 0, i + 1, List.of(InputFile.of("f" + i, 10)), 1.0, 0,
          null, List.of(), 0));
    }
    assertThat(ix.hotTasks()).isEqualTo(files);
    for (int i = 0; i < HOLDERS; i++) {
      s.setDraining("h" + i, true); // out of the free pool (free before the index was built)
    }
    long before = ix.hotMoveUpdates();
    for (int i = 0; i < HOLDERS; i++) {
      s.setDraining("h" + i, false); // in again
      s.setDraining("h" + i, true); // and out
    }
    s.setDraining("h5", false); // and one back in
    assertThat(ix.hotMoveUpdates() - before).as("counter updates for %d moves of nodes holding "
        + "%d hot files", 2 * HOLDERS + 1, files).isZero();
    assertThat(ix.firstBestOfFree(ix.windowLast(2500))).isSameAs(s.queued("t0"));
  }

  private static Task task(int i) {
    return new Task("t" + i, "t" + i, 0, i + 1, List.of(InputFile.of("f", 10)), 1.0, 0, null,
        List.of(), 0);
  }
}
