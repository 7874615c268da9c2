package io.locus.core.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.policy.Policies;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * MCH's part 2 (the notified node's tasks) looks at every candidate in the window when none is a
 * full hit; it checked each against maxCached(t) recomputed over every holder of every input, so
 * a decision cost candidates × holders (issue 25: 37 % of the scheduler thread in {@code locus
 * bench} MCH on zipf, whose multi-input tasks read popular files). The index keeps maxCached per
 * queued task; a decision must not sum the holders again. Counted in holders visited, not time.
 */
class DispatchCandidateWorkTest {
  private static final int HOLDERS = 20;

  @Test
  void anMchDecisionDoesNotSumEveryCandidatesHolders() {
    PoolState s = new PoolState(StateJournal.NONE, 2);
    for (int i = 0; i < HOLDERS; i++) {
      s.registerNode("h" + i, 1, 0, 1_000_000, null, 0);
      s.applyCacheDelta("h" + i, 1, Map.of("f", 10L, "g", 10L), List.of());
      if (i > 0) {
        s.setDraining("h" + i, true);
      }
    }
    int queued = 1_000;
    for (int i = 0; i < queued; i++) {
      // f and g cached on every holder, x nowhere: a hit of 2/3 at best, never a full one
      s.enqueue(new Task("t" + i, "t" + i, 0, i + 1, List.of(InputFile.of("f", 10),
          InputFile.of("g", 10), InputFile.of("x", 10)), 1.0, 0, null, List.of(), 0));
    }
    Scheduler mch = new Scheduler("p", s, Policies.create("MCH", Map.of()));
    s.dispatchIndex();
    long before = s.maxCachedVisits();
    List<Command> cmds = mch.dispatch(0);
    assertThat(cmds).hasSize(1);
    assertThat(((Command.Run) cmds.get(0)).task().taskId()).isEqualTo("t0");
    assertThat(s.maxCachedVisits() - before)
        .as("holders summed for maxCached in one decision over %d candidates", queued)
        .isLessThan(queued);
  }

  /**
   * The notified node for a multi-input task is its first free best holder: found from the
   * index's figures, not by re-deriving cached(t, n) for every free holder of every input (2 ×
   * 999 look-ups per decision here before: with several slots per node most holders are free).
   */
  @Test
  void theNotifiedNodeIsFoundWithoutACacheLookUpPerHolder() {
    PoolState s = new PoolState(StateJournal.NONE, 2);
    int holders = 1_000;
    for (int i = 0; i < holders; i++) {
      s.registerNode("h" + i, 1, 0, 1_000_000, null, 0);
      s.applyCacheDelta("h" + i, 1, Map.of("f", 10L, "g", 10L), List.of());
    }
    s.setDraining("h0", true); // the first in free order is h1 then
    s.enqueue(new Task("t", "t", 0, 1, List.of(InputFile.of("f", 10), InputFile.of("g", 10),
        InputFile.of("x", 10)), 1.0, 0, null, List.of(), 0));
    Scheduler mch = new Scheduler("p", s, Policies.create("MCH", Map.of()));
    s.dispatchIndex();
    long before = s.cachedCalls;
    List<Command> cmds = mch.dispatch(0);
    assertThat(cmds).hasSize(1);
    assertThat(((Command.Run) cmds.get(0)).node()).isEqualTo("h1");
    assertThat(s.cachedCalls - before).as("cached(t, n) look-ups in one decision, %d holders",
        holders).isLessThan(10);
  }
}
