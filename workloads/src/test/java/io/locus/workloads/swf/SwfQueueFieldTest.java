package io.locus.workloads.swf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.workloads.TraceFiles;
import io.locus.workloads.TraceFiles.Format;
import io.locus.workloads.TraceFiles.Options;
import io.locus.workloads.TraceJob;
import io.locus.workloads.TraceReader;
import io.locus.workloads.TraceWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 24: which of SWF fields 12–16 names each job's queue, on the hand-written log
 * {@code src/test/resources/swf/users-sample.swf} (24 jobs of 5 users in 3 groups, 3 queues and
 * 2 partitions; job 9 without a user, job 14 without group, queue and partition; jobs 6 and 19
 * never ran and are skipped).
 */
class SwfQueueFieldTest {
  @TempDir
  Path dir;

  private static Path sample() throws Exception {
    return Path.of(SwfQueueFieldTest.class.getResource("/swf/users-sample.swf").toURI());
  }

  private static Map<String, String> queues(SwfQueueField field) throws Exception {
    List<TraceJob> jobs = TraceFiles.open(List.of(sample()), Format.SWF,
        new Options(1, List.of(), false, 1, field, List.of())).toList();
    Map<String, String> out = new LinkedHashMap<>();
    jobs.forEach(j -> out.put(j.jobId(), j.queue()));
    return out;
  }

  @Test
  void eachFieldNamesTheQueueWithItsLetterAndMissingNamesNone() throws Exception {
    Map<String, String> user = queues(SwfQueueField.USER);
    assertThat(user).hasSize(22).containsEntry("users-sample/1", "u1")
        .containsEntry("users-sample/2", "u2").containsEntry("users-sample/9", null)
        .doesNotContainKeys("users-sample/6", "users-sample/19");
    // the users' shares of the log, as an experiment on it sees them
    Map<String, Long> perUser = user.values().stream()
        .collect(Collectors.groupingBy(q -> String.valueOf(q), TreeMap::new,
            Collectors.counting()));
    assertThat(perUser).containsExactlyEntriesOf(new TreeMap<>(Map.of("u1", 5L, "u2", 6L,
        "u3", 5L, "u4", 2L, "u5", 3L, "null", 1L)));

    assertThat(queues(SwfQueueField.GROUP)).containsEntry("users-sample/3", "g2")
        .containsEntry("users-sample/14", null).containsEntry("users-sample/9", "g1");
    assertThat(queues(SwfQueueField.EXECUTABLE)).containsEntry("users-sample/2", "x3")
        .containsEntry("users-sample/9", "x6");
    assertThat(queues(SwfQueueField.QUEUE)).containsEntry("users-sample/4", "q3")
        .containsEntry("users-sample/8", "q2").containsEntry("users-sample/14", null);
    assertThat(queues(SwfQueueField.PARTITION)).containsEntry("users-sample/7", "p2")
        .containsEntry("users-sample/1", "p1").containsEntry("users-sample/14", null);
    // the default: no queue at all, as SWF logs were read before issue 24
    assertThat(queues(SwfQueueField.NONE).values()).hasSize(22).containsOnlyNulls();
    assertThat(TraceFiles.open(List.of(sample()), Format.SWF, Options.defaults()).toList())
        .allSatisfy(j -> assertThat(j.queue()).isNull());
  }

  @Test
  void theChoiceIsInTheDescriptionAndTheQueuesSurviveTheLocusFormat() throws Exception {
    var w = TraceFiles.open(List.of(sample()), Format.SWF,
        new Options(1, List.of(), true, 5, SwfQueueField.GROUP, List.of()));
    assertThat(w.description()).contains("queue = group (field 13)", "MaxQueues: 3");
    Path out = dir.resolve("converted.jsonl");
    TraceWriter.write(out, w);
    assertThat(TraceReader.readAll(out).toList()).isEqualTo(w.toList());
  }

  @Test
  void queuesGivenByFileOverrideTheField() throws Exception {
    List<TraceJob> jobs = TraceFiles.open(List.of(sample()), Format.SWF,
        new Options(1, List.of(), false, 1, SwfQueueField.USER, List.of("whole-log"))).toList();
    assertThat(jobs).extracting(TraceJob::queue).containsOnly("whole-log");
  }

  @Test
  void fieldNamesParseAndAnUnknownOneIsRefusedWithTheList() {
    Function<String, SwfQueueField> parse = SwfQueueField::parse;
    assertThat(parse.apply("user")).isEqualTo(SwfQueueField.USER);
    assertThat(parse.apply("Partition")).isEqualTo(SwfQueueField.PARTITION);
    assertThat(SwfQueueField.USER.field()).isEqualTo(12);
    assertThat(SwfQueueField.PARTITION.field()).isEqualTo(16);
    assertThatThrownBy(() -> SwfQueueField.parse("account"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown SWF queue field 'account'; valid: none, user, group, executable,"
            + " queue, partition");
  }
}
