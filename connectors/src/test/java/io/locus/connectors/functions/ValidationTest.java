package io.locus.connectors.functions;

import static io.locus.connectors.Fixtures.control;
import static io.locus.connectors.Fixtures.delta;
import static io.locus.connectors.Fixtures.job;
import static io.locus.connectors.Fixtures.register;
import static io.locus.connectors.Fixtures.taskEvent;
import static io.locus.connectors.Fixtures.unit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.schemas.CachedFile;
import io.locus.schemas.EventRange;
import io.locus.schemas.ControlType;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.ResourceProfile;
import io.locus.schemas.TaskEventType;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** One test per rule: the valid fixture passes, the same fixture with one field broken fails. */
class ValidationTest {
  private static final String POOL = "pool-a";

  private static void assertViolation(Optional<String> result, String... fragments) {
    assertThat(result).isPresent();
    assertThat(result.get()).contains(fragments);
  }

  @Nested
  class Common {
    @Test
    void poolMustBeNonBlank() {
      assertThat(Validation.pool(POOL, null)).isNull();
      assertThat(Validation.pool(" ", null)).isEqualTo("pool is blank");
      assertThat(Validation.pool(null, null)).isEqualTo("pool is missing");
    }

    @Test
    void poolMustEqualKeyWhenKeyPresent() {
      assertThat(Validation.pool(POOL, POOL)).isNull();
      assertThat(Validation.pool(POOL, null)).isNull();
      assertThat(Validation.pool(POOL, "pool-b"))
          .isEqualTo("pool 'pool-a' does not match the record key 'pool-b'");
    }

    @Test
    void idsMustBeNonBlank() {
      assertThat(Validation.id("jobId", "j-1")).isNull();
      assertThat(Validation.id("jobId", "")).isEqualTo("jobId is blank");
      assertThat(Validation.id("jobId", "\t ")).isEqualTo("jobId is blank");
      assertThat(Validation.id("jobId", null)).isEqualTo("jobId is missing");
    }

    @Test
    void idsMustNotContainControlCharacters() {
      assertThat(Validation.id("jobId", "j-1 with spaces/and ünïcode")).isNull();
      assertThat(Validation.id("jobId", "j\n1"))
          .isEqualTo("jobId contains a control character at index 1");
      assertThat(Validation.id("jobId", "j1\u0000")).contains("control character at index 2");
    }

    @Test
    void quoteEscapesControlCharactersAndTruncates() {
      assertThat(Validation.quote("a\nb")).isEqualTo("'a\\u000ab'");
      assertThat(Validation.quote("x".repeat(200))).hasSize(80 + 5).endsWith("...'");
    }

    @Test
    void checkDispatchesAndRejectsNonInputs() {
      assertThat(Validation.check(job(POOL, "j-1").build(), POOL)).isEmpty();
      assertThat(Validation.check(job(POOL, "").build(), POOL)).contains("jobId is blank");
      assertThatThrownBy(() -> Validation.check("text", null))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Nested
  class JobSubmittedRules {
    private Optional<String> check(JobSubmitted.Builder b) {
      return Validation.jobSubmitted(b.build(), POOL);
    }

    @Test
    void validJobPasses() {
      assertThat(check(job(POOL, "j-1"))).isEmpty();
      assertThat(Validation.jobSubmitted(job(POOL, "j-1").build(), null)).isEmpty();
    }

    @Test
    void poolMustMatchKey() {
      assertViolation(check(job("pool-b", "j-1")), "does not match the record key");
    }

    @Test
    void jobIdMustBeAnId() {
      assertViolation(check(job(POOL, " ")), "jobId is blank");
      assertViolation(check(job(POOL, "j\u0007")), "jobId contains a control character");
    }

    @Test
    void needsAtLeastOneInput() {
      assertViolation(check(job(POOL, "j-1").setInputs(List.of())), "job has no inputs");
      assertThat(check(job(POOL, "j-1").setInputs(List.of(unit("a", 1))))).isEmpty();
    }

    @Test
    void inputIdMustBeNonBlank() {
      assertViolation(check(job(POOL, "j-1").setInputs(List.of(unit("a", 1), unit("", 1)))),
          "inputs[1].id is blank");
    }

    @ParameterizedTest
    @ValueSource(strings = {"../etc/passwd", "a/../../b", "a..b"})
    void inputIdMustNotContainDotDot(String id) {
      assertViolation(check(job(POOL, "j-1").setInputs(List.of(unit(id, 1)))),
          "inputs[0].id", "contains '..'");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/etc/passwd", "\\\\server\\share"})
    void inputIdMustNotStartWithSeparator(String id) {
      assertViolation(check(job(POOL, "j-1").setInputs(List.of(unit(id, 1)))),
          "inputs[0].id", "starts with a path separator");
    }

    @Test
    void inputIdMayContainInnerSeparatorsAndDots() {
      assertThat(check(job(POOL, "j-1").setInputs(List.of(unit("dir/sub.dir/file.v1.csv", 1)))))
          .isEmpty();
    }

    @Test
    void inputBytesMustBeNonNegative() {
      assertThat(check(job(POOL, "j-1").setInputs(List.of(unit("a", 0))))).isEmpty();
      assertViolation(check(job(POOL, "j-1").setInputs(List.of(unit("a", -1)))),
          "inputs[0].bytes is negative (-1)");
    }

    @ParameterizedTest
    @ValueSource(doubles = {-0.5, Double.NaN, Double.POSITIVE_INFINITY})
    void inputComputeSecondsMustBeFiniteAndNonNegative(double seconds) {
      var u = unit("a", 1);
      u.setComputeSeconds(seconds);
      assertViolation(check(job(POOL, "j-1").setInputs(List.of(u))), "inputs[0].computeSeconds");
    }

    @ParameterizedTest
    @ValueSource(doubles = {-1.0, Double.NaN, Double.NEGATIVE_INFINITY})
    void jobComputeSecondsMustBeFiniteAndNonNegative(double seconds) {
      assertThat(check(job(POOL, "j-1").setComputeSeconds(2.5))).isEmpty();
      assertViolation(check(job(POOL, "j-1").setComputeSeconds(seconds)), "computeSeconds");
    }

    @Test
    void inputIdsMustBeUnique() {
      assertViolation(check(job(POOL, "j-1").setInputs(List.of(unit("a", 1), unit("a", 2)))),
          "duplicate input id 'a'");
    }

    @Test
    void profileSharesMustBeWithinZeroAndOne() {
      assertThat(check(job(POOL, "j-1").setProfile(new ResourceProfile(1.0, 0.0, 0.5, 0.0)))).isEmpty();
      assertViolation(check(job(POOL, "j-1").setProfile(new ResourceProfile(1.5, 0.0, 0.0, 0.0))),
          "profile.cpu must be a share in [0, 1]");
      assertViolation(check(job(POOL, "j-1").setProfile(new ResourceProfile(0.0, 0.0, -0.1, 0.0))),
          "profile.mem");
      assertThat(check(job(POOL, "j-1").setProfile(new ResourceProfile(0.5, 0.5, 0.0, 1.0))))
          .isEmpty();
      assertViolation(check(job(POOL, "j-1").setProfile(new ResourceProfile(0.5, 0.5, 0.0, 1.2))),
          "profile.net must be a share in [0, 1]");
    }

    @Test
    void templateWhenPresentMustBeAnId() {
      assertThat(check(job(POOL, "j-1").setTemplate("wordcount"))).isEmpty();
      assertViolation(check(job(POOL, "j-1").setTemplate(" ")), "template is blank");
    }
  }

  @Nested
  class EventRangeJobRules {
    private Optional<String> check(JobSubmitted.Builder b) {
      return Validation.jobSubmitted(b.build(), POOL);
    }

    private JobSubmitted.Builder eventJob(long start, long end) {
      return job(POOL, "cern-1").setInputs(List.of()).setSplittable(true)
          .setEvents(new EventRange("lhcb", start, end));
    }

    @Test
    void aSplittableEventRangeJobNeedsNoFileInputs() {
      assertThat(check(eventJob(0, 40_000))).isEmpty();
      assertThat(check(eventJob(1_000, 1_001))).isEmpty();
    }

    @Test
    void fileInputsOfAnEventRangeJobFollowTheUsualRules() {
      assertThat(check(eventJob(0, 10).setInputs(List.of(unit("calib/run-1", 5))))).isEmpty();
      assertViolation(check(eventJob(0, 10).setInputs(List.of(unit("../x", 5)))),
          "inputs[0].id", "contains '..'");
    }

    @Test
    void eventsWithoutSplittableIsRejected() {
      assertViolation(check(eventJob(0, 10).setSplittable(false)),
          "events is set but splittable is false");
    }

    @Test
    void theRangeMustBeNonEmptyAndNonNegative() {
      assertViolation(check(eventJob(10, 10)), "events [10, 10) is empty: start must be < end");
      assertViolation(check(eventJob(10, 5)), "events [10, 5) is empty");
      assertViolation(check(eventJob(-1, 5)), "events.start is negative (-1)");
    }

    @Test
    void theDatasetMustBeAnId() {
      assertViolation(check(eventJob(0, 10).setEvents(new EventRange(" ", 0L, 10L))),
          "events.dataset is blank");
      assertViolation(check(eventJob(0, 10).setEvents(new EventRange("a\nb", 0L, 10L))),
          "events.dataset contains a control character");
    }

    @Test
    void aSplittableJobWithoutEventsStaysAFileJob() {
      assertThat(check(job(POOL, "j-1").setSplittable(true))).isEmpty();
      // ... which needs inputs, as before
      assertViolation(check(job(POOL, "j-1").setSplittable(true).setInputs(List.of())),
          "job has no inputs");
    }
  }

  @Nested
  class EventRangeTaskEventRules {
    @Test
    void shrunkAndSuspendedNeedStopAt() {
      assertViolation(Validation.taskEvent(taskEvent(POOL).setType(TaskEventType.SHRUNK).build(),
          POOL), "SHRUNK needs stopAt");
      assertViolation(Validation.taskEvent(taskEvent(POOL).setType(TaskEventType.SUSPENDED)
          .setEvents(new EventRange("lhcb", 0L, 7L)).build(), POOL), "SUSPENDED needs stopAt");
      assertThat(Validation.taskEvent(taskEvent(POOL).setType(TaskEventType.SHRUNK)
          .setStopAt(120L).build(), POOL)).isEmpty();
      assertThat(Validation.taskEvent(taskEvent(POOL).setType(TaskEventType.SUSPENDED)
          .setStopAt(7L).setEvents(new EventRange("lhcb", 0L, 7L)).build(), POOL)).isEmpty();
    }

    @Test
    void stopAtIsNonNegativeAndEndsTheSuspendedRange() {
      assertViolation(Validation.taskEvent(taskEvent(POOL).setType(TaskEventType.SHRUNK)
          .setStopAt(-3L).build(), POOL), "stopAt is negative (-3)");
      assertViolation(Validation.taskEvent(taskEvent(POOL).setType(TaskEventType.SUSPENDED)
          .setStopAt(9L).setEvents(new EventRange("lhcb", 0L, 7L)).build(), POOL),
          "SUSPENDED stopAt 9 is not the end of the processed range 7");
    }

    @Test
    void aProcessedRangeMayBeEmptyButNotReversed() {
      // suspended before its first event
      assertThat(Validation.taskEvent(taskEvent(POOL).setType(TaskEventType.SUSPENDED)
          .setStopAt(5L).setEvents(new EventRange("lhcb", 5L, 5L)).build(), POOL)).isEmpty();
      assertViolation(Validation.taskEvent(taskEvent(POOL).setEvents(new EventRange("lhcb", 5L,
          4L)).build(), POOL), "events [5, 4) ends before it starts");
    }

    @Test
    void otherTypesNeedNoStopAt() {
      assertThat(Validation.taskEvent(taskEvent(POOL).setEvents(new EventRange("lhcb", 0L, 40L))
          .build(), POOL)).isEmpty();
    }
  }

  @Nested
  class TaskEventRules {
    @Test
    void validEventPasses() {
      assertThat(Validation.taskEvent(taskEvent(POOL).build(), POOL)).isEmpty();
    }

    @Test
    void poolMustMatchKey() {
      assertViolation(Validation.taskEvent(taskEvent(POOL).build(), "other"),
          "does not match the record key 'other'");
    }

    @Test
    void idsMustBeIds() {
      assertViolation(Validation.taskEvent(taskEvent(POOL).setTaskId("").build(), POOL),
          "taskId is blank");
      assertViolation(Validation.taskEvent(taskEvent(POOL).setJobId("\u001b").build(), POOL),
          "jobId contains a control character");
    }

    @Test
    void attemptMustBeNonNegative() {
      assertViolation(Validation.taskEvent(taskEvent(POOL).setAttempt(-1).build(), POOL),
          "attempt is negative (-1)");
    }

    @Test
    void nodeMustBeNonBlank() {
      assertViolation(Validation.taskEvent(taskEvent(POOL).setNode(" ").build(), POOL),
          "node is blank");
    }

    @Test
    void byteCountersMustBeNonNegative() {
      assertViolation(Validation.taskEvent(taskEvent(POOL).setBytesLocal(-1).build(), POOL),
          "bytesLocal is negative");
      assertViolation(Validation.taskEvent(taskEvent(POOL).setBytesPeer(-2).build(), POOL),
          "bytesPeer is negative");
      assertViolation(Validation.taskEvent(taskEvent(POOL).setBytesStorage(-3).build(), POOL),
          "bytesStorage is negative");
    }
  }

  @Nested
  class NodeReportRules {
    @Test
    void validReportsPass() {
      assertThat(Validation.nodeReport(register(POOL, "n-1").build(), POOL)).isEmpty();
      assertThat(Validation.nodeReport(delta(POOL, "n-1").build(), POOL)).isEmpty();
    }

    @Test
    void poolAndNodeMustBeIds() {
      assertViolation(Validation.nodeReport(register("", "n-1").build(), null), "pool is blank");
      assertViolation(Validation.nodeReport(register(POOL, "").build(), POOL), "node is blank");
    }

    @Test
    void registerNeedsAtLeastOneSlot() {
      assertViolation(Validation.nodeReport(register(POOL, "n-1").setSlots(0).build(), POOL),
          "REGISTER needs slots >= 1 (got 0)");
    }

    @Test
    void slotsAreOnlyCheckedOnRegister() {
      var heartbeat = register(POOL, "n-1").setType(NodeReportType.HEARTBEAT).setSlots(0).build();
      assertThat(Validation.nodeReport(heartbeat, POOL)).isEmpty();
    }

    @Test
    void registerNeedsNonNegativeCacheCapacity() {
      assertThat(Validation.nodeReport(
          register(POOL, "n-1").setCacheCapacityBytes(0).build(), POOL)).isEmpty();
      assertViolation(Validation.nodeReport(
          register(POOL, "n-1").setCacheCapacityBytes(-1).build(), POOL),
          "REGISTER needs cacheCapacityBytes >= 0");
    }

    @Test
    void addedFileBytesMustBeNonNegative() {
      var bad = delta(POOL, "n-1").setAdded(List.of(new CachedFile("f", -5L))).build();
      assertViolation(Validation.nodeReport(bad, POOL), "added[0].bytes is negative (-5)");
    }

    @Test
    void addedFileIdsFollowTheInputIdRules() {
      var bad = delta(POOL, "n-1").setAdded(List.of(new CachedFile("../x", 1L))).build();
      assertViolation(Validation.nodeReport(bad, POOL), "added[0].fileId", "contains '..'");
    }

    @Test
    void removedFileIdsMustBeNonBlank() {
      var bad = delta(POOL, "n-1").setRemoved(List.of("ok", "")).build();
      assertViolation(Validation.nodeReport(bad, POOL), "removed[1] is blank");
    }
  }

  @Nested
  class ControlRules {
    @Test
    void setPolicyNeedsAPolicy() {
      assertThat(Validation.control(
          control(POOL, ControlType.SET_POLICY).setPolicy("gcc").build(), POOL)).isEmpty();
      assertViolation(Validation.control(control(POOL, ControlType.SET_POLICY).build(), POOL),
          "SET_POLICY needs a policy");
      assertViolation(Validation.control(
          control(POOL, ControlType.SET_POLICY).setPolicy(" ").build(), POOL),
          "SET_POLICY needs a policy");
    }

    @Test
    void drainNeedsANode() {
      assertThat(Validation.control(
          control(POOL, ControlType.DRAIN_NODE).setNode("n-1").build(), POOL)).isEmpty();
      assertViolation(Validation.control(control(POOL, ControlType.DRAIN_NODE).build(), POOL),
          "DRAIN_NODE needs a node");
    }

    @Test
    void resumeNeedsANode() {
      assertThat(Validation.control(
          control(POOL, ControlType.RESUME_NODE).setNode("n-1").build(), POOL)).isEmpty();
      assertViolation(Validation.control(
          control(POOL, ControlType.RESUME_NODE).setNode("").build(), POOL),
          "RESUME_NODE needs a node");
    }

    @Test
    void poolMustMatchKey() {
      assertViolation(Validation.control(
          control(POOL, ControlType.SET_POLICY).setPolicy("gcc").build(), "x"),
          "does not match the record key 'x'");
    }
  }
}
