package io.locus.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.Scheduler;
import io.locus.core.model.Command;
import io.locus.core.model.InputFetch;
import io.locus.core.model.InputFile;
import io.locus.core.model.Task;
import io.locus.core.share.QueueSpec;
import io.locus.core.share.QueueTree;
import io.locus.core.state.PoolState;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A queue's cache limit through the staged policies' commits (docs/policies.md, "Cache bytes per
 * queue"): MET (GanttStaging's commit) and JDPDLL (its START_NEXT) evict the queue's own file, and
 * stream a file that does not fit, telling the agent not to cache it.
 */
class StagedCacheQuotaTest {
  private static final long UNIT = KhannaWorkedExamplesTest.UNIT;

  private long seq;

  private Task job(String id, String queue, InputFile... files) {
    return new Task(id, id, 0, ++seq, List.of(files), 1.0, 0, null, List.of(), 0, null, List.of(),
        queue);
  }

  private static Command.Run run(List<Command> cmds, String taskId) {
    return cmds.stream().filter(c -> c instanceof Command.Run r && r.task().taskId().equals(taskId))
        .map(c -> (Command.Run) c).findFirst().orElseThrow();
  }

  private static List<String> evicted(List<Command> cmds) {
    return cmds.stream().filter(c -> c instanceof Command.Evict).map(c -> (Command.Evict) c)
        .flatMap(e -> e.files().stream()).toList();
  }

  private static boolean cached(Command.Run r, String file) {
    return r.inputs().stream().filter(i -> i.unit().id().equals(file)).findFirst().orElseThrow()
        .cache();
  }

  void atItsLimitAQueueEvictsItsOwnThenStreams(Policy policy) {
    Scheduler s = new Scheduler("k", new PoolState(), policy);
    s.onNodeRegistered("n1", 1, 1000 * UNIT, null, 0);
    s.setQueues(QueueTree.build(List.of(
        QueueSpec.of("a", null, 1, 0, QueueSpec.UNLIMITED).withCache(null, UNIT)), 1));

    List<Command> c1 = s.onJobArrival(job("j1", "a", KhannaWorkedExamplesTest.file("f1", 1)), 0);
    assertThat(cached(run(c1, "j1"), "f1")).isTrue();
    s.onTransferEnd("f1", "n1", 1);
    s.onTaskCompleted("j1", 0, "n1", 0, 0, UNIT, 2);

    // a holds its one unit: f2 takes f1's place though the cache has room for 999 more
    List<Command> c2 = s.onJobArrival(job("j2", "a", KhannaWorkedExamplesTest.file("f2", 1)), 3);
    assertThat(evicted(c2)).containsExactly("f1");
    assertThat(cached(run(c2, "j2"), "f2")).isTrue();
    s.onTransferEnd("f2", "n1", 4);
    s.onTaskCompleted("j2", 0, "n1", 0, 0, UNIT, 5);

    // two more files: one replaces f2, the other cannot fit under the limit and is streamed
    List<Command> c3 = s.onJobArrival(job("j3", "a", KhannaWorkedExamplesTest.file("f3", 1),
        KhannaWorkedExamplesTest.file("f4", 2)), 6);
    Command.Run r3 = run(c3, "j3");
    assertThat(evicted(c3)).containsExactly("f2");
    assertThat(r3.inputs()).filteredOn(InputFetch::cache).hasSize(1);
    assertThat(r3.inputs()).filteredOn(i -> !i.cache()).hasSize(1);
    assertThat(s.state().staging().cache("n1").chargedBytes("a")).isEqualTo(UNIT);
    assertThat(s.state().staging().cache("n1").size()).isEqualTo(1);
  }

  @Test
  void metKeepsAQueueUnderItsCacheLimit() {
    atItsLimitAQueueEvictsItsOwnThenStreams(new Met(KhannaWorkedExamplesTest.U));
  }

  @Test
  void jdpdllKeepsAQueueUnderItsCacheLimit() {
    atItsLimitAQueueEvictsItsOwnThenStreams(new Jdpdll(KhannaWorkedExamplesTest.U, 2));
  }
}
