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
import io.locus.schemas.JobCommand;
import io.locus.schemas.JobCommandType;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.ResourceProfile;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.limits.Limits;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** One test per rule: the valid fixture passes, the same fixture with one field broken fails. */
class ValidationTest {
  private static final String POOL = "pool-a";

  private static void assertViolation(Optional<Violation> result, String... fragments) {
    assertThat(result).isPresent();
    assertThat(result.get().reason()).contains(fragments);
    assertThat(result.get().code()).isEqualTo(DeadLetterCodes.INVALID);
  }

  private static void assertTooLarge(Optional<Violation> result, String... fragments) {
    assertThat(result).isPresent();
    assertThat(result.get().reason()).contains(fragments);
    assertThat(result.get().code()).isEqualTo(DeadLetterCodes.TOO_LARGE);
  }

  /** The reason of a building block's violation, or null when the value passes. */
  private static String reason(Violation v) {
    return v == null ? null : v.reason();
  }

  @Nested
  class Common {
    @Test
    void poolMustBeNonBlank() {
      assertThat(reason(Validation.pool(POOL, null))).isNull();
      assertThat(reason(Validation.pool(" ", null))).isEqualTo("pool is blank");
      assertThat(reason(Validation.pool(null, null))).isEqualTo("pool is missing");
    }

    @Test
    void poolMustEqualKeyWhenKeyPresent() {
      assertThat(reason(Validation.pool(POOL, POOL))).isNull();
      assertThat(reason(Validation.pool(POOL, null))).isNull();
      assertThat(reason(Validation.pool(POOL, "pool-b")))
          .isEqualTo("pool 'pool-a' does not match the record key 'pool-b'");
    }

    @Test
    void idsMustBeNonBlank() {
      assertThat(reason(Validation.id("jobId", "j-1"))).isNull();
      assertThat(reason(Validation.id("jobId", ""))).isEqualTo("jobId is blank");
      assertThat(reason(Validation.id("jobId", "\t "))).isEqualTo("jobId is blank");
      assertThat(reason(Validation.id("jobId", null))).isEqualTo("jobId is missing");
    }

    @Test
    void idsMustNotContainControlCharacters() {
      assertThat(reason(Validation.id("jobId", "j-1 with spaces/and ünïcode"))).isNull();
      assertThat(reason(Validation.id("jobId", "j\n1")))
          .isEqualTo("jobId contains a control character at index 1");
      assertThat(reason(Validation.id("jobId", "j1\u0000"))).contains("control character at index 2");
    }

    @Test
    void quoteEscapesControlCharactersAndTruncates() {
      assertThat(Validation.quote("a\nb")).isEqualTo("'a\\u000ab'");
      assertThat(Validation.quote("x".repeat(200))).hasSize(80 + 5).endsWith("...'");
    }

    @Test
    void checkDispatchesAndRejectsNonInputs() {
      assertThat(Validation.check(job(POOL, "j-1").build(), POOL)).isEmpty();
      assertViolation(Validation.check(job(POOL, "").build(), POOL), "jobId is blank");
      assertThatThrownBy(() -> Validation.check("text", null))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Nested
  class JobSubmittedRules {
    private Optional<Violation> check(JobSubmitted.Builder b) {
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
    void priorityMustBeInRange() {
      assertThat(check(job(POOL, "j-1").setPriority(1000))).isEmpty();
      assertThat(check(job(POOL, "j-1").setPriority(-1000))).isEmpty();
      assertViolation(check(job(POOL, "j-1").setPriority(1001)),
          "priority 1001 is out of range [-1000, 1000]");
      assertViolation(check(job(POOL, "j-1").setPriority(Integer.MIN_VALUE)),
          "priority -2147483648 is out of range");
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
    @ValueSource(strings = {"../etc/passwd", "a/../../b", "..", "a\\..\\b"})
    void inputIdMustNotClimbOutOfTheCache(String id) {
      assertViolation(check(job(POOL, "j-1").setInputs(List.of(unit(id, 1)))),
          "inputs[0].id", "escapes the cache directory");
    }

    @Test
    void inputIdMustNotBeAbsoluteNorHoldABackslash() {
      assertViolation(check(job(POOL, "j-1").setInputs(List.of(unit("/etc/passwd", 1)))),
          "inputs[0].id '/etc/passwd' is an absolute path");
      assertViolation(check(job(POOL, "j-1").setInputs(List.of(unit("\\\\server\\share", 1)))),
          "inputs[0].id", "contains a path separator (a backslash)");
    }

    /** Issue 22: the agents' rules (FileIds), which the scheduler used to differ from. */
    @Test
    void inputIdFollowsTheAgentsRules() {
      assertViolation(check(job(POOL, "j-1").setInputs(List.of(unit(".incoming", 1)))),
          "inputs[0].id '.incoming' starts with a dot");
      assertViolation(check(job(POOL, "j-1").setInputs(List.of(unit("a//b", 1)))),
          "inputs[0].id 'a//b' has an empty or '.' path component");
      assertViolation(check(job(POOL, "j-1").setInputs(List.of(unit("a\u0085b", 1)))),
          "inputs[0].id", "control character at index 1");
    }

    @Test
    void inputIdMayContainInnerSeparatorsAndDots() {
      assertThat(check(job(POOL, "j-1").setInputs(List.of(unit("dir/sub.dir/file.v1.csv", 1)))))
          .isEmpty();
      // ".." inside a name climbs nowhere; the agents have always accepted it.
      assertThat(check(job(POOL, "j-1").setInputs(List.of(unit("x..y", 1))))).isEmpty();
    }

    @Test
    void outputsFollowTheInputRules() {
      assertThat(check(job(POOL, "j-1").setOutputs(List.of(unit("wf/out.dat", 1))))).isEmpty();
      assertViolation(check(job(POOL, "j-1").setOutputs(List.of(unit("../out", 1)))),
          "outputs[0].id '../out' escapes the cache directory");
      assertViolation(check(job(POOL, "j-1").setOutputs(List.of(unit("o", -1)))),
          "outputs[0].bytes is negative");
      assertTooLarge(check(job(POOL, "j-1").setOutputs(List.of(unit("o".repeat(300), 1)))),
          "outputs[0].id", "300 bytes as a file name");
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
    private Optional<Violation> check(JobSubmitted.Builder b) {
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
          "inputs[0].id", "escapes the cache directory");
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
      assertViolation(Validation.nodeReport(bad, POOL), "added[0].fileId",
          "escapes the cache directory");
      var removed = delta(POOL, "n-1").setRemoved(List.of("/etc/passwd")).build();
      assertViolation(Validation.nodeReport(removed, POOL), "removed[0] '/etc/passwd' is an"
          + " absolute path");
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

  /** PROTOCOL-12 "Input bounds": every limit, just at it (passes) and just over it (fails). */
  @Nested
  class Bounds {
    private Optional<Violation> check(JobSubmitted.Builder b) {
      return Validation.jobSubmitted(b.build(), POOL);
    }

    private String chars(int n) {
      return "x".repeat(n);
    }

    @Test
    void everyIdIsAtMost256Chars() {
      assertThat(check(job(POOL, chars(256)))).isEmpty();
      assertTooLarge(check(job(POOL, chars(1_000_000))),
          "jobId is 1000000 chars long, more than the limit of 256: 'xxxx", "...'");
      assertTooLarge(Validation.jobSubmitted(job(chars(257), "j").build(), null),
          "pool is 257 chars long");
      assertTooLarge(check(job(POOL, "j").setTemplate(chars(257))), "template is 257 chars");
      assertTooLarge(Validation.taskEvent(taskEvent(POOL).setTaskId(chars(257)).build(), POOL),
          "taskId is 257 chars");
      assertTooLarge(Validation.taskEvent(taskEvent(POOL).setNode(chars(257)).build(), POOL),
          "node is 257 chars");
      assertTooLarge(Validation.taskEvent(taskEvent(POOL).setDecisionId(chars(257)).build(),
          POOL), "decisionId is 257 chars");
      assertTooLarge(Validation.taskEvent(taskEvent(POOL).setInstanceId(chars(257)).build(),
          POOL), "instanceId is 257 chars");
      assertTooLarge(Validation.nodeReport(register(POOL, chars(257)).build(), POOL),
          "node is 257 chars");
      assertTooLarge(Validation.nodeReport(register(POOL, "n").setInstanceId(chars(257)).build(),
          POOL), "instanceId is 257 chars");
      assertTooLarge(Validation.control(control(POOL, ControlType.SET_POLICY)
          .setPolicy(chars(257)).build(), POOL), "policy is 257 chars");
      assertTooLarge(Validation.control(control(POOL, ControlType.DRAIN_NODE)
          .setNode(chars(257)).build(), POOL), "node is 257 chars");
      assertTooLarge(check(job(POOL, "j").setSplittable(true).setInputs(List.of())
          .setEvents(new EventRange(chars(257), 0L, 1L))), "events.dataset is 257 chars");
    }

    @Test
    void aTenKilobytePoolNameIsTooLarge() {
      String pool = chars(10_000);
      assertTooLarge(Validation.nodeReport(register(pool, "n").build(), pool),
          "pool is 10000 chars long, more than the limit of 256");
    }

    @Test
    void fileIdsAreAtMost255BytesAsAFileNameAndUrls2048() {
      assertThat(check(job(POOL, "j").setInputs(List.of(unit(chars(255), 1))))).isEmpty();
      // Issue 22: 300 bytes used to be accepted (limit 1,024 chars), then refused by every agent.
      assertTooLarge(check(job(POOL, "j").setInputs(List.of(unit(chars(300), 1)))),
          "inputs[0].id '" + chars(80) + "...' is 300 bytes as a file name, more than the limit"
              + " of " + Limits.MAX_FILE_ID_BYTES + " (agents name cached files by it)");
      // Bytes of the agent's file name: 'é' is two bytes, each '/' three (written %2F).
      assertTooLarge(check(job(POOL, "j").setInputs(List.of(unit("é".repeat(128), 1)))),
          "inputs[0].id", "256 bytes as a file name");
      assertTooLarge(check(job(POOL, "j").setInputs(List.of(unit(chars(253) + "/y", 1)))),
          "inputs[0].id", "257 bytes as a file name");
      var located = unit("a", 1);
      located.setLocation("file:///" + chars(2048));
      assertTooLarge(check(job(POOL, "j").setInputs(List.of(located))),
          "inputs[0].location is 2056 chars long, more than the limit of 2048");
      var summed = unit("a", 1);
      summed.setChecksum(chars(257));
      assertTooLarge(check(job(POOL, "j").setInputs(List.of(summed))), "inputs[0].checksum");
      assertTooLarge(Validation.nodeReport(delta(POOL, "n").setAdded(
          List.of(new CachedFile(chars(256), 1L))).build(), POOL), "added[0].fileId '",
          "256 bytes");
      assertTooLarge(Validation.nodeReport(delta(POOL, "n").setRemoved(List.of(chars(256)))
          .build(), POOL), "removed[0] '", "256 bytes");
      assertThat(Validation.nodeReport(register(POOL, "n").setEndpoint("http://h:1").build(),
          POOL)).isEmpty();
      assertTooLarge(Validation.nodeReport(register(POOL, "n").setEndpoint(chars(2049)).build(),
          POOL), "endpoint is 2049 chars long, more than the limit of 2048");
    }

    @Test
    void messagesAreAtMost4096Chars() {
      assertThat(Validation.taskEvent(taskEvent(POOL).setMessage("line 1\nline 2").build(),
          POOL)).isEmpty();
      assertTooLarge(Validation.taskEvent(taskEvent(POOL).setMessage(chars(4097)).build(), POOL),
          "message is 4097 chars long, more than the limit of 4096");
    }

    @Test
    void listsAreBounded() {
      List<io.locus.schemas.DataUnit> many = new java.util.ArrayList<>();
      for (int i = 0; i <= Limits.MAX_INPUTS_PER_JOB; i++) {
        many.add(unit("f" + i, 1));
      }
      assertTooLarge(check(job(POOL, "j").setInputs(many)),
          "inputs has 10001 entries, more than the limit of 10000");
      assertThat(check(job(POOL, "j").setInputs(many.subList(0, 10_000)))).isEmpty();

      List<String> removed = java.util.Collections.nCopies(100_001, "f");
      assertTooLarge(Validation.nodeReport(delta(POOL, "n").setRemoved(removed).build(), POOL),
          "removed has 100001 entries, more than the limit of 100000");
      List<CachedFile> added = java.util.Collections.nCopies(100_001, new CachedFile("f", 1L));
      assertTooLarge(Validation.nodeReport(delta(POOL, "n").setAdded(added).build(), POOL),
          "added has 100001 entries, more than the limit of 100000");
    }

    @Test
    void argsAreAtMost256OfAtMost4096Chars() {
      assertThat(check(job(POOL, "j").setArgs(java.util.Collections.nCopies(256, chars(4096)))))
          .isEmpty();
      assertTooLarge(check(job(POOL, "j").setArgs(java.util.Collections.nCopies(257, "a"))),
          "args has 257 entries, more than the limit of 256");
      assertTooLarge(check(job(POOL, "j").setArgs(List.of("ok", chars(4097)))),
          "args[1] is 4097 chars long, more than the limit of 4096");
    }

    @Test
    void controlParamsAreBounded() {
      assertThat(Validation.control(control(POOL, ControlType.SET_POLICY).setPolicy("gcc")
          .setParams(java.util.Map.of("theta", "0.8")).build(), POOL)).isEmpty();
      java.util.Map<String, String> many = new java.util.HashMap<>();
      for (int i = 0; i <= Limits.MAX_PARAMS; i++) {
        many.put("k" + i, "v");
      }
      assertTooLarge(Validation.control(control(POOL, ControlType.SET_POLICY).setPolicy("gcc")
          .setParams(many).build(), POOL), "params has 65 entries, more than the limit of 64");
      assertTooLarge(Validation.control(control(POOL, ControlType.SET_POLICY).setPolicy("gcc")
          .setParams(java.util.Map.of(chars(257), "v")).build(), POOL),
          "params key 'xxx", "is 257 chars long, more than the limit of 256");
      assertTooLarge(Validation.control(control(POOL, ControlType.SET_POLICY).setPolicy("gcc")
          .setParams(java.util.Map.of("theta", chars(4097))).build(), POOL),
          "params['theta'] is 4097 chars long, more than the limit of 4096");
      assertViolation(Validation.control(control(POOL, ControlType.SET_POLICY).setPolicy("gcc")
          .setParams(java.util.Map.of(" ", "v")).build(), POOL), "params key ' ' is blank");
    }

    @Test
    void bytesPerFileAreAtMostOnePebibyte() {
      assertThat(check(job(POOL, "j").setInputs(List.of(unit("a", 1L << 50))))).isEmpty();
      assertViolation(check(job(POOL, "j").setInputs(List.of(unit("a", 1_000_000_000_000_000_000L)))),
          "inputs[0].bytes 1000000000000000000 is more than the limit of 1125899906842624 bytes");
      assertViolation(Validation.nodeReport(delta(POOL, "n").setAdded(
          List.of(new CachedFile("f", (1L << 50) + 1))).build(), POOL), "added[0].bytes");
      assertViolation(Validation.taskEvent(taskEvent(POOL).setBytesPeer(Long.MAX_VALUE).build(),
          POOL), "bytesPeer 9223372036854775807 is more than the limit");
    }

    @ParameterizedTest
    @ValueSource(doubles = {1e300, 1e7 + 1, Double.MAX_VALUE})
    void computeSecondsAreAtMostTenMillion(double seconds) {
      assertThat(check(job(POOL, "j").setComputeSeconds(1e7))).isEmpty();
      assertViolation(check(job(POOL, "j").setComputeSeconds(seconds)),
          "computeSeconds " + seconds + " is more than the limit of 1.0E7 s");
      var u = unit("a", 1);
      u.setComputeSeconds(seconds);
      assertViolation(check(job(POOL, "j").setInputs(List.of(u))), "inputs[0].computeSeconds");
    }

    @Test
    void nanAndInfinityAreNotFinite() {
      assertViolation(check(job(POOL, "j").setComputeSeconds(Double.NaN)),
          "computeSeconds is not finite (NaN)");
      assertViolation(check(job(POOL, "j").setComputeSeconds(Double.POSITIVE_INFINITY)),
          "computeSeconds is not finite (Infinity)");
    }

    @Test
    void slotsAndCacheCapacityAreBounded() {
      assertThat(Validation.nodeReport(register(POOL, "n").setSlots(4096)
          .setCacheCapacityBytes(1L << 60).build(), POOL)).isEmpty();
      assertViolation(Validation.nodeReport(register(POOL, "n").setSlots(4097).build(), POOL),
          "slots 4097 is out of range [0, 4096]");
      assertViolation(Validation.nodeReport(register(POOL, "n").setType(NodeReportType.HEARTBEAT)
          .setSlots(-1).build(), POOL), "slots -1 is out of range");
      assertThat(Validation.nodeReport(register(POOL, "n").setQueueDepth(4096).build(), POOL))
          .isEmpty();
      assertViolation(Validation.nodeReport(register(POOL, "n").setQueueDepth(-1).build(), POOL),
          "queueDepth -1 is out of range [0, 4096]");
      assertViolation(Validation.nodeReport(register(POOL, "n").setType(NodeReportType.HEARTBEAT)
          .setQueueDepth(4097).build(), POOL), "queueDepth 4097 is out of range [0, 4096]");
      assertViolation(Validation.nodeReport(register(POOL, "n")
          .setCacheCapacityBytes((1L << 60) + 1).build(), POOL),
          "cacheCapacityBytes 1152921504606846977 is more than the limit of 1152921504606846976");
    }

    @Test
    void timesAreWithinZeroAnd2To42() {
      assertThat(check(job(POOL, "j").setSubmitTimeMs(1L << 42))).isEmpty();
      assertViolation(check(job(POOL, "j").setSubmitTimeMs(-1)),
          "submitTimeMs -1 is out of range [0, 4398046511104]");
      assertViolation(Validation.taskEvent(taskEvent(POOL).setTimeMs(Long.MAX_VALUE).build(), POOL),
          "timeMs 9223372036854775807 is out of range");
      assertViolation(Validation.taskEvent(taskEvent(POOL).setEndTimeMs(Long.MIN_VALUE).build(),
          POOL), "endTimeMs");
      assertViolation(Validation.taskEvent(taskEvent(POOL).setStartTimeMs((1L << 42) + 1)
          .build(), POOL), "startTimeMs");
      assertViolation(Validation.nodeReport(register(POOL, "n").setTimeMs(Long.MAX_VALUE).build(),
          POOL), "timeMs 9223372036854775807 is out of range");
      assertViolation(Validation.control(control(POOL, ControlType.SET_POLICY).setPolicy("g")
          .setTimeMs(-5).build(), POOL), "timeMs -5 is out of range");
    }

    @Test
    void eventIndicesAndEpochsAreBounded() {
      assertViolation(check(job(POOL, "j").setSplittable(true).setInputs(List.of())
          .setEvents(new EventRange("d", 0L, Long.MAX_VALUE))),
          "events.end 9223372036854775807 is more than the limit of 9007199254740992");
      assertViolation(Validation.taskEvent(taskEvent(POOL).setType(TaskEventType.SHRUNK)
          .setStopAt(Long.MAX_VALUE).build(), POOL), "stopAt 9223372036854775807 is more than");
      assertViolation(Validation.taskEvent(taskEvent(POOL).setEpoch(-1).build(), POOL),
          "epoch is negative (-1)");
    }

    @Test
    void aSignatureWhenPresentIs64LowercaseHex() {
      String good = "0123456789abcdef".repeat(4);
      assertThat(Validation.taskEvent(taskEvent(POOL).setSignature(good).build(), POOL)).isEmpty();
      assertThat(Validation.nodeReport(register(POOL, "n").setSignature(good).build(), POOL))
          .isEmpty();
      assertViolation(Validation.taskEvent(taskEvent(POOL).setSignature(good.toUpperCase())
          .build(), POOL), "is not 64 lowercase hex chars");
      assertViolation(Validation.nodeReport(register(POOL, "n").setSignature("abc").build(),
          POOL), "signature 'abc' is not 64 lowercase hex chars");
      assertTooLarge(Validation.nodeReport(register(POOL, "n").setSignature(good + "0").build(),
          POOL), "signature is 65 chars long");
    }

    @Test
    void aPlacementProofWhenPresentIs64LowercaseHex() {
      String good = "0123456789abcdef".repeat(4);
      assertThat(Validation.taskEvent(taskEvent(POOL).setPlacementProof(good).build(), POOL))
          .isEmpty();
      assertViolation(Validation.taskEvent(taskEvent(POOL).setPlacementProof("xyz").build(),
          POOL), "placementProof 'xyz' is not 64 lowercase hex chars");
      assertTooLarge(Validation.taskEvent(taskEvent(POOL).setPlacementProof("a".repeat(100_000))
          .build(), POOL), "placementProof is 100000 chars long");
    }
  }

  @Nested
  class JobCommandRules {
    private JobCommand.Builder cancel() {
      return JobCommand.newBuilder().setPool(POOL).setJobId("j-1").setType(JobCommandType.CANCEL)
          .setTimeMs(1_000).setReason("not needed").setRequestId("r-1");
    }

    @Test
    void validCancelPasses() {
      assertThat(Validation.check(cancel().build(), POOL)).isEmpty();
      assertThat(Validation.check(cancel().setRequestId(null).setReason("").build(), null))
          .isEmpty();
    }

    @Test
    void unknownTypeIsRefusedNamingIt() {
      assertViolation(Validation.check(cancel().setType(JobCommandType.UNKNOWN).build(), POOL),
          "type UNKNOWN is not a command this scheduler knows (known: CANCEL)");
    }

    @Test
    void poolMustMatchKeyAndJobIdBeAnId() {
      assertViolation(Validation.check(cancel().build(), "other"), "does not match the record key");
      assertViolation(Validation.check(cancel().setJobId(" ").build(), POOL), "jobId is blank");
      assertTooLarge(Validation.check(cancel().setJobId("j".repeat(Limits.MAX_ID_CHARS + 1))
          .build(), POOL), "jobId is " + (Limits.MAX_ID_CHARS + 1) + " chars long");
    }

    @Test
    void timeIsBoundedLikeEveryInput() {
      assertViolation(Validation.check(cancel().setTimeMs(-1).build(), POOL), "timeMs");
      assertViolation(Validation.check(cancel().setTimeMs(Limits.MAX_TIME_MS + 1).build(), POOL),
          "timeMs");
    }

    @Test
    void reasonAndRequestIdAreBounded() {
      assertTooLarge(Validation.check(cancel().setReason("x".repeat(Limits.MAX_TEXT_CHARS + 1))
          .build(), POOL), "reason is " + (Limits.MAX_TEXT_CHARS + 1) + " chars long");
      assertTooLarge(Validation.check(cancel().setRequestId("r".repeat(Limits.MAX_ID_CHARS + 1))
          .build(), POOL), "requestId is");
      assertViolation(Validation.check(cancel().setRequestId("a\nb").build(), POOL),
          "requestId contains a control character");
    }
  }

  /** Queue names (issue 24): the queue tree's own rule, io.locus.core.share.QueueNames. */
  @Nested
  class Queues {
    private io.locus.schemas.QueueConfig queue(String name, String parent) {
      return io.locus.schemas.QueueConfig.newBuilder().setName(name).setParent(parent).build();
    }

    @Test
    void aJobsQueueIsAQueueName() {
      assertThat(Validation.check(job(POOL, "j").setQueue("team-a_1").build(), POOL)).isEmpty();
      assertThat(Validation.check(job(POOL, "j").setQueue(null).build(), POOL)).isEmpty();
      assertViolation(Validation.check(job(POOL, "j").setQueue("eng.ml").build(), POOL),
          "queue: queue name 'eng.ml' has a character outside [A-Za-z0-9_-] at index 3");
      assertViolation(Validation.check(job(POOL, "j").setQueue("").build(), POOL),
          "queue: a queue has no name");
      assertTooLarge(Validation.check(job(POOL, "j").setQueue("q".repeat(64)).build(), POOL),
          "is 64 characters long (at most 63)");
    }

    @Test
    void setQueuesNamesItsQueuesAndParentsAndOnlyItCarriesQueues() {
      assertThat(Validation.check(control(POOL, ControlType.SET_QUEUES)
          .setQueues(List.of(queue("eng", null), queue("ml", "eng"))).build(), POOL)).isEmpty();
      assertThat(Validation.check(control(POOL, ControlType.SET_QUEUES).build(), POOL))
          .as("an empty tree: the default queue alone").isEmpty();
      assertViolation(Validation.check(control(POOL, ControlType.SET_QUEUES)
          .setQueues(List.of(queue("eng", null), queue("ml", "-eng"))).build(), POOL),
          "queues[1].parent: queue name '-eng' must start with a letter or a digit");
      assertViolation(Validation.check(control(POOL, ControlType.PAUSE_POOL)
          .setQueues(List.of(queue("eng", null))).build(), POOL),
          "queues are set on a PAUSE_POOL control (SET_QUEUES only)");
      List<io.locus.schemas.QueueConfig> many = new java.util.ArrayList<>();
      for (int i = 0; i <= io.locus.schemas.limits.Limits.MAX_QUEUES; i++) {
        many.add(queue("q" + i, null));
      }
      assertTooLarge(Validation.check(control(POOL, ControlType.SET_QUEUES).setQueues(many)
          .build(), POOL), "queues has 257 entries, more than the limit of 256");
    }
  }
}
