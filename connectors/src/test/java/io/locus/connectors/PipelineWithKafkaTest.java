package io.locus.connectors;

import static io.locus.connectors.KafkaJobTests.send;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.connectors.KafkaJobTests.Coordinates;
import io.locus.connectors.functions.ParseAndValidate;
import io.locus.connectors.records.LocusTypes;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.Topics;
import io.locus.schemas.ControlType;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.internal.SchedulerInput;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
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
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The connectors end to end on a real (in-JVM) Kafka broker and a Flink MiniCluster: input topics
 * → source → ParseAndValidate → decisions sink (valid jobs) and dead-letter sink (everything else),
 * once per delivery mode. Checks that every malformed record is dead-lettered with its
 * coordinates and a reason, that every valid job yields exactly one committed decision, and that
 * an aborted input transaction is never seen.
 */
@Tag("integration")
class PipelineWithKafkaTest {
  private static final Duration DEADLINE = Duration.ofSeconds(60);
  private static final int JOBS = 12;

  @RegisterExtension
  static final MiniClusterExtension FLINK = new MiniClusterExtension(
      new MiniClusterResourceConfiguration.Builder()
          .setNumberTaskManagers(1)
          .setNumberSlotsPerTaskManager(2)
          .build());

  @ParameterizedTest
  @EnumSource(DeliveryMode.class)
  @Timeout(value = 120, unit = TimeUnit.SECONDS)
  void malformedInputIsDeadLetteredAndEachValidJobDecidedOnce(DeliveryMode mode,
      @TempDir Path tmp) throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
      String bootstrap = kafka.bootstrapServers();
      TopicAdmin.ensureTopics(bootstrap, Topics.ALL);

      // ---- inputs: valid records of every type, then malformed ones ----
      Map<Coordinates, String> expectedDead = new HashMap<>();
      List<String> validJobIds = new ArrayList<>();
      try (KafkaProducer<byte[], byte[]> producer =
               new KafkaProducer<>(ClientConfigs.producer(bootstrap))) {
        for (int i = 0; i < JOBS / 2; i++) {
          validJobIds.add(sendJob(producer, "job-" + i));
        }
        send(producer, Topics.TASK_EVENTS, "pool-0",
            Topics.TASK_EVENTS.value(Fixtures.taskEvent("pool-0").build()));
        send(producer, Topics.NODE_REPORTS, "pool-1",
            Topics.NODE_REPORTS.value(Fixtures.register("pool-1", "n-1").build()));
        send(producer, Topics.CONTROL, "pool-2", Topics.CONTROL.value(
            Fixtures.control("pool-2", ControlType.SET_POLICY).setPolicy("gcc").build()));

        expectedDead.put(send(producer, Topics.JOB_ARRIVALS, "pool-0",
            new byte[] {(byte) 0xde, (byte) 0xad, (byte) 0xbe, (byte) 0xef}),
            "not an Avro single-object encoded JobSubmitted");
        JobSubmitted badInput = Fixtures.job("pool-1", "job-bad")
            .setInputs(List.of(Fixtures.unit("../../etc/shadow", 1))).build();
        expectedDead.put(send(producer, Topics.JOB_ARRIVALS, "pool-1",
            Topics.JOB_ARRIVALS.value(badInput)), "invalid JobSubmitted: inputs[0].id");
        // A valid JobSubmitted on the wrong topic: the TaskEvent codec does not know it.
        expectedDead.put(send(producer, Topics.TASK_EVENTS, "pool-2",
            Topics.JOB_ARRIVALS.value(Fixtures.job("pool-2", "job-wrong-topic").build())),
            "unknown schema fingerprint");
        expectedDead.put(send(producer, Topics.CONTROL, "pool-0", null), "empty value");
        // Valid input after the bad records, in the same partitions: the job must go on.
        for (int i = JOBS / 2; i < JOBS; i++) {
          validJobIds.add(sendJob(producer, "job-" + i));
        }
      }
      // A valid job in an aborted transaction: read_committed inputs must never see it.
      Properties tx = ClientConfigs.producer(bootstrap);
      tx.setProperty(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "test-input-" + UUID.randomUUID());
      try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(tx)) {
        producer.initTransactions();
        producer.beginTransaction();
        JobSubmitted aborted = Fixtures.job("pool-0", "job-aborted").build();
        send(producer, Topics.JOB_ARRIVALS, "pool-0", Topics.JOB_ARRIVALS.value(aborted));
        producer.abortTransaction();
      }

      // ---- the job ----
      StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(
          jobConfig());
      env.setParallelism(2);
      String runId = mode.cliName() + "-" + UUID.randomUUID();
      SingleOutputStreamOperator<SchedulerInput> parsed = env
          .fromSource(LocusSources.inputs(bootstrap, null, "locus-test-" + runId),
              WatermarkStrategy.noWatermarks(), "inputs")
          .process(new ParseAndValidate())
          .returns(LocusTypes.SCHEDULER_INPUT)
          .name("parse-and-validate");
      parsed
          .flatMap(PipelineWithKafkaTest::decide)
          .returns(LocusTypes.DECISION)
          .name("decide")
          .sinkTo(LocusSinks.decisions(bootstrap, null, mode, "locus-test-" + runId))
          .name("decisions");
      parsed.getSideOutput(ParseAndValidate.DEAD_LETTERS)
          .sinkTo(LocusSinks.deadLetters(bootstrap, null, mode, "locus-test-" + runId))
          .name("dead-letters");
      JobClient job = env.executeAsync("connectors-" + runId);

      List<Decision> decisions = new ArrayList<>();
      List<DeadLetter> deadLetters = new ArrayList<>();
      try (TopicReader<Decision> decisionReader = new TopicReader<>(bootstrap, Topics.DECISIONS);
           TopicReader<DeadLetter> deadReader = new TopicReader<>(bootstrap, Topics.DEAD_LETTERS)) {
        KafkaJobTests.awaitOrFail(() -> {
          decisions.addAll(decisionReader.poll());
          deadLetters.addAll(deadReader.poll());
          return decisions.size() >= JOBS && deadLetters.size() >= expectedDead.size();
        }, job, "all decisions and dead letters", DEADLINE);

        // Stop with a final checkpoint (drain) so every transaction is committed, then read
        // everything the topics hold: late duplicates would show up here.
        job.stopWithSavepoint(true, tmp.resolve("savepoints").toUri().toString(),
            SavepointFormatType.CANONICAL).get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        decisions.addAll(decisionReader.readToEnd());
        deadLetters.addAll(deadReader.readToEnd());
      }

      assertThat(decisions).extracting(Decision::getDecisionId)
          .containsExactlyInAnyOrderElementsOf(validJobIds.stream().map(id -> "d-" + id).toList());
      assertThat(deadLetters).hasSize(expectedDead.size());
      for (DeadLetter dl : deadLetters) {
        Coordinates at = Coordinates.sourceOf(dl);
        assertThat(expectedDead).as("dead letter %s: %s", at, dl.getReason()).containsKey(at);
        assertThat(dl.getReason()).contains(expectedDead.get(at));
      }
    }
  }

  private static Configuration jobConfig() {
    Configuration conf = new Configuration();
    conf.set(StateBackendOptions.STATE_BACKEND, "rocksdb");
    conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(500));
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    // Any type that would need Kryo fails the job instead of silently being slow and fragile.
    conf.set(PipelineOptions.GENERIC_TYPES, false);
    return conf;
  }

  /** A stand-in for the scheduler: one decision per job, on a node picked from the job id. */
  private static void decide(SchedulerInput in, Collector<Decision> out) {
    if (in.getEvent() instanceof JobSubmitted job) {
      out.collect(Fixtures.decisionFor(job, "node-" + Math.floorMod(job.getJobId().hashCode(), 4)));
    }
  }

  private static String sendJob(KafkaProducer<byte[], byte[]> producer, String jobId)
      throws Exception {
    JobSubmitted job = Fixtures.job("pool-" + Math.floorMod(jobId.hashCode(), 3), jobId).build();
    send(producer, Topics.JOB_ARRIVALS, job.getPool(), Topics.JOB_ARRIVALS.value(job));
    return jobId;
  }
}
