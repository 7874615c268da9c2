package io.locus.core.state;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A set served from its front (placements take the first tasks of a queue) must not leave its
 * walks stepping over the cleared slots: issue 25 found MCH on a many-holder pool placing 10 times
 * fewer tasks per CPU second at 100,000 queued than at 10,000, every walk of the hot-task list
 * crossing up to three holes per live task before the set compacted.
 */
class SeqListWalkTest {

  @Test
  void removingTheFirstEntriesMovesTheWalkStartPastThem() {
    SeqList set = new SeqList();
    List<IndexEntry> es = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      Task t = new Task("t" + i, "t" + i, 0, i, List.of(InputFile.of("f", 1)), 1.0, 0, null,
          List.of(), 0);
      IndexEntry e = new SingleEntry(t, t.inputs().get(0));
      es.add(e);
      set.add(e);
    }
    for (int i = 0; i < 700; i++) {
      set.remove(es.get(i));
    }
    assertThat(set.walkStart()).as("the walk starts at the first live entry").isEqualTo(700);
    Iterator<Task> it = set.iterator();
    assertThat(it.next()).isSameAs(es.get(700).task);
    // a removal in the middle leaves the start alone; removing the first then skips the hole too
    set.remove(es.get(701));
    set.remove(es.get(700));
    assertThat(set.walkStart()).isEqualTo(702);
    assertThat(set.first()).isSameAs(es.get(702));
    // an earlier position coming back moves the start back to it
    set.add(es.get(701));
    assertThat(set.first()).isSameAs(es.get(701));
    int n = 0;
    for (Iterator<Task> all = set.iterator(); all.hasNext(); all.next()) {
      n++;
    }
    assertThat(n).isEqualTo(299);
  }
}
