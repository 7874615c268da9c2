package io.locus.connectors;

import static io.locus.connectors.KafkaJobTests.hugeStringRecord;
import static io.locus.connectors.KafkaJobTests.send;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.connectors.KafkaJobTests.Coordinates;
import io.locus.connectors.functions.ParseAndValidate;
import io.locus.connectors.records.LocusTypes;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.codec.DeadLetterCodes;
import io.locus.schemas.internal.SchedulerInput;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue 12, findings 1 and 2, end to end on a real broker and a MiniCluster (RocksDB, restarts
 * disabled so any failure fails the test): the hostile records on the input topics each
 * land in dead-letters with the right code, an output record too large for Kafka is
 * dead-lettered as {@code unwritable} instead of failing the job, and the valid records sent
 * after all of them are decided, exactly once, in both delivery modes.
 */
@Tag("integration")
class HostileInputWithKafkaTest {
  private static final Duration DEADLINE = Duration.ofSeconds(90);
  /** A job with this template makes the stand-in scheduler emit a 1.2 MB decision. */
  private static final String HUGE_OUTPUT = "huge-output";

  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder()
          .setNumberTaskManagers(1)
          .setNumberSlotsPerTaskManager(2)
          .build());

  /** What a hostile record must become: its code and a fragment of its reason. */
  private record Expected(String code, String reason) {}

  @ParameterizedTest
  @EnumSource(DeliveryMode.class)
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void hostileRecordsAreDeadLetteredWithTheirCodeAndTheJobGoesOn(DeliveryMode mode,
      @TempDir Path tmp) throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      String bootstrap = kafka.bootstrapServers();
      TopicAdmin.ensureTopics(bootstrap, Topics.ALL);

      Map<Coordinates, Expected> expectedDead = new HashMap<>();
      List<String> validJobIds = new ArrayList<>();
      try (KafkaProducer<byte[], byte[]> producer =
               new KafkaProducer<>(ClientConfigs.producer(bootstrap))) {
        validJobIds.add(sendJob(producer, Fixtures.job("pool-0", "before-0").build()));

        // 1. a 1,000,000-character job id (the record is still under 1 MiB)
        expectedDead.put(sendJobRecord(producer, Fixtures.job("pool-0", "j".repeat(1_000_000))
            .build()), new Expected(DeadLetterCodes.TOO_LARGE,
                "jobId is 1000000 chars long, more than the limit of 256"));
        // 2. 18 bytes declaring a 2,147,483,000-byte string
        expectedDead.put(send(producer, Topics.JOB_ARRIVALS, "pool-1", hugeStringRecord()),
            new Expected(DeadLetterCodes.CORRUPT,
                "declares a string of 2147483000 bytes but only 3 remain"));
        // 3. compute that is NaN, infinite or absurd
        expectedDead.put(sendJobRecord(producer, Fixtures.job("pool-1", "nan")
            .setComputeSeconds(Double.NaN).build()),
            new Expected(DeadLetterCodes.INVALID, "computeSeconds is not finite (NaN)"));
        expectedDead.put(sendJobRecord(producer, Fixtures.job("pool-2", "inf")
            .setComputeSeconds(Double.POSITIVE_INFINITY).build()),
            new Expected(DeadLetterCodes.INVALID, "computeSeconds is not finite (Infinity)"));
        expectedDead.put(sendJobRecord(producer, Fixtures.job("pool-0", "forever")
            .setComputeSeconds(1e300).build()), new Expected(DeadLetterCodes.INVALID,
                "computeSeconds 1.0E300 is more than the limit of 1.0E7 s"));
        // 4. 1e18 bytes in one file
        expectedDead.put(sendJobRecord(producer, Fixtures.job("pool-1", "exabyte")
            .setInputs(List.of(Fixtures.unit("data/big", 1_000_000_000_000_000_000L))).build()),
            new Expected(DeadLetterCodes.INVALID,
                "inputs[0].bytes 1000000000000000000 is more than the limit"));
        // 5. a 10 KB pool name
        String pool10k = "p".repeat(10_000);
        expectedDead.put(send(producer, Topics.NODE_REPORTS, pool10k,
            Topics.NODE_REPORTS.value(Fixtures.register(pool10k, "n-1").build())),
            new Expected(DeadLetterCodes.TOO_LARGE, "more than the limit of 256"));
        // 6. timeMs = Long.MAX_VALUE
        expectedDead.put(send(producer, Topics.TASK_EVENTS, "pool-2", Topics.TASK_EVENTS.value(
            Fixtures.taskEvent("pool-2").setTimeMs(Long.MAX_VALUE).build())),
            new Expected(DeadLetterCodes.INVALID, "timeMs 9223372036854775807 is out of range"));

        // a valid job whose decision is too large for Kafka
        sendJob(producer, Fixtures.job("pool-2", "huge").setTemplate(HUGE_OUTPUT).build());
        // valid work after all of it, in the same partitions: the job must go on
        for (int i = 0; i < 6; i++) {
          validJobIds.add(sendJob(producer, Fixtures.job("pool-" + (i % 3), "after-" + i)
              .build()));
        }
      }

      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(
          jobConfig());
      env.setParallelism(2);
      String runId = "hostile-" + mode.cliName() + "-" + UUID.randomUUID();
      SingleOutputStreamOperator<SchedulerInput> parsed = env
          .fromSource(LocusSources.inputs(bootstrap, null, runId),
              WatermarkStrategy.noWatermarks(), "inputs")
          .process(new ParseAndValidate())
          .returns(LocusTypes.SCHEDULER_INPUT)
          .name("parse-and-validate");
      parsed
          .flatMap(HostileInputWithKafkaTest::decide)
          .returns(LocusTypes.DECISION)
          .name("decide")
          .sinkTo(LocusSinks.decisions(bootstrap, null, mode, runId))
          .name("decisions");
      parsed.getSideOutput(ParseAndValidate.DEAD_LETTERS)
          .sinkTo(LocusSinks.deadLetters(bootstrap, null, mode, runId))
          .name("dead-letters");
      JobClient job = env.executeAsync(runId);

      List<Decision> decisions = new ArrayList<>();
      List<DeadLetter> deadLetters = new ArrayList<>();
      int expectedDeadCount = expectedDead.size() + 1; // + the unwritable decision
      try (TopicReader<Decision> decisionReader = new TopicReader<>(bootstrap, Topics.DECISIONS);
           TopicReader<DeadLetter> deadReader =
               new TopicReader<>(bootstrap, Topics.DEAD_LETTERS)) {
        KafkaJobTests.awaitOrFail(() -> {
          decisions.addAll(decisionReader.poll());
          deadLetters.addAll(deadReader.poll());
          return decisions.size() >= validJobIds.size()
              && deadLetters.size() >= expectedDeadCount;
        }, job, "all decisions and dead letters", DEADLINE);
        // Drain: a final checkpoint commits everything; late duplicates would show up below.
        job.stopWithSavepoint(true, tmp.resolve("savepoints").toUri().toString(),
            SavepointFormatType.CANONICAL).get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        decisions.addAll(decisionReader.readToEnd());
        deadLetters.addAll(deadReader.readToEnd());
      }

      assertThat(decisions).extracting(Decision::getDecisionId)
          .containsExactlyInAnyOrderElementsOf(validJobIds.stream().map(id -> "d-" + id).toList());
      assertThat(deadLetters).hasSize(expectedDeadCount);
      List<DeadLetter> unwritable = new ArrayList<>();
      for (DeadLetter dl : deadLetters) {
        if (dl.getSourceTopic().equals(Topics.DECISIONS.name())) {
          unwritable.add(dl);
          continue;
        }
        Coordinates at = Coordinates.sourceOf(dl);
        assertThat(expectedDead).as("dead letter %s: %s", at, dl.getReason()).containsKey(at);
        Expected e = expectedDead.get(at);
        assertThat(dl.getCode()).as("code of %s: %s", at, dl.getReason()).isEqualTo(e.code());
        assertThat(dl.getReason()).contains(e.reason());
        assertThat(dl.getValue().remaining())
            .isLessThanOrEqualTo(ParseAndValidate.MAX_DEAD_VALUE_BYTES);
      }
      assertThat(unwritable).singleElement().satisfies(dl -> {
        assertThat(dl.getCode()).isEqualTo(DeadLetterCodes.UNWRITABLE);
        assertThat(dl.getReason()).startsWith("output record to decisions with key 'node-")
            .contains("more than the limit of 1000000 bytes; not written");
      });
    }
  }

  private static Configuration jobConfig() {
    Configuration conf = new Configuration();
    conf.set(StateBackendOptions.STATE_BACKEND, "rocksdb");
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(500));
    // No restarts: before the fix one unwritable decision failed the job for good.
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    conf.set(PipelineOptions.GENERIC_TYPES, false);
    return conf;
  }

  /** A stand-in scheduler: one decision per job; a {@link #HUGE_OUTPUT} job's is 1.2 MB. */
  private static void decide(SchedulerInput in, Collector<Decision> out) {
    if (in.getEvent() instanceof JobSubmitted job) {
      Decision d = Fixtures.decisionFor(job, "node-" + Math.floorMod(job.getJobId().hashCode(), 4));
      if (HUGE_OUTPUT.equals(job.getTemplate())) {
        ((PlaceTask) d.getAction()).setTaskId("t".repeat(1_200_000));
      }
      out.collect(d);
    }
  }

  private static String sendJob(KafkaProducer<byte[], byte[]> producer, JobSubmitted job)
      throws Exception {
    sendJobRecord(producer, job);
    return job.getJobId();
  }

  private static Coordinates sendJobRecord(KafkaProducer<byte[], byte[]> producer,
      JobSubmitted job) throws Exception {
    return send(producer, Topics.JOB_ARRIVALS, job.getPool(), Topics.JOB_ARRIVALS.value(job));
  }
}
