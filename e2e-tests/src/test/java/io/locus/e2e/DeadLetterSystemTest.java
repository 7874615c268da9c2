package io.locus.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.connectors.DeliveryMode;
import io.locus.cli.EmbeddedLocus;
import io.locus.cli.demo.DemoRun;
import io.locus.cli.demo.TaskEventTracker;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.operators.SchedulerConfig;
import io.locus.schemas.Control;
import io.locus.schemas.ControlType;
import io.locus.schemas.DataUnit;
import io.locus.schemas.DeadLetter;
import io.locus.schemas.JobSubmitted;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Bad input goes to dead-letters with its coordinates and a reason; valid traffic carries on. */
@Tag("integration")
@Timeout(300)
class DeadLetterSystemTest {
  private static final String POOL = "e2e-dlq";

  @Test
  void malformedAndInvalidRecordsAreDeadLetteredWhileValidTrafficCompletes() throws Exception {
    try (EmbeddedLocus locus = EmbeddedLocus.start(SchedulerConfig.defaults("MCH"),
            DeliveryMode.AT_LEAST_ONCE, Duration.ofSeconds(2));
        TaskEventTracker tracker = new TaskEventTracker(locus.bootstrapServers());
        KafkaProducer<byte[], byte[]> producer =
            new KafkaProducer<>(ClientConfigs.producer(locus.bootstrapServers()))) {
      byte[] key = POOL.getBytes(StandardCharsets.UTF_8);
      Map<String, RecordMetadata> bad = new HashMap<>();
      bad.put("garbage", producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(), key,
          "definitely not avro".getBytes(StandardCharsets.UTF_8))).get());
      bad.put("escape", producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(), key,
          Topics.JOB_ARRIVALS.value(job("evil", "../../etc/shadow")))).get());
      bad.put("wrong-type", producer.send(new ProducerRecord<>(Topics.NODE_REPORTS.name(), key,
          Topics.JOB_ARRIVALS.value(job("misplaced", "f")))).get());
      bad.put("policy", producer.send(new ProducerRecord<>(Topics.CONTROL.name(), key,
          Topics.CONTROL.value(Control.newBuilder().setPool(POOL).setType(ControlType.SET_POLICY)
              .setTimeMs(1).setPolicy("NO-SUCH-POLICY").build()))).get());

      // Valid traffic right after the bad records: all of it must complete.
      DemoRun.Result r = WholeSystem.go(locus, tracker, WholeSystem.run(POOL, 300, 60, 4, 5, false));
      assertThat(r.stats().completed).isEqualTo(300);

      List<DeadLetter> letters = readDeadLetters(locus.bootstrapServers(), bad.size());
      assertThat(letters).hasSize(bad.size());
      assertThat(find(letters, bad.get("garbage"))).isNotNull()
          .satisfies(d -> assertThat(d.getReason()).containsIgnoringCase("avro"));
      assertThat(find(letters, bad.get("escape"))).isNotNull()
          .satisfies(d -> assertThat(d.getReason()).contains(".."));
      assertThat(find(letters, bad.get("wrong-type"))).isNotNull()
          .satisfies(d -> assertThat(d.getReason()).isNotBlank());
      assertThat(find(letters, bad.get("policy"))).isNotNull()
          .satisfies(d -> assertThat(d.getReason()).contains("unknown policy 'NO-SUCH-POLICY'"));
      // the raw bytes are kept, so nothing is lost
      assertThat(find(letters, bad.get("garbage")).getValue()).isNotNull();
    }
  }

  private static JobSubmitted job(String id, String file) {
    return JobSubmitted.newBuilder().setJobId(id).setPool(POOL).setSubmitTimeMs(1)
        .setInputs(List.of(DataUnit.newBuilder().setId(file).setBytes(10).build())).build();
  }

  private static DeadLetter find(List<DeadLetter> letters, RecordMetadata m) {
    return letters.stream()
        .filter(d -> d.getSourceTopic().equals(m.topic()) && d.getPartition() == m.partition()
            && d.getOffset() == m.offset())
        .findFirst().orElse(null);
  }

  private static List<DeadLetter> readDeadLetters(String bootstrap, int expected) {
    List<DeadLetter> out = new ArrayList<>();
    try (KafkaConsumer<byte[], byte[]> c =
        new KafkaConsumer<>(ClientConfigs.consumer(bootstrap, "dlq-reader", true))) {
      TopicPartition tp = new TopicPartition(Topics.DEAD_LETTERS.name(), 0);
      c.assign(List.of(tp));
      c.seekToBeginning(List.of(tp));
      // A bounded read, not Await: returns what arrived by the deadline for the caller's
      // assertion to report.
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (out.size() < expected && System.nanoTime() < deadline) {
        for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
          out.add(Topics.DEAD_LETTERS.decode(r.value()));
        }
      }
    }
    return out;
  }
}
