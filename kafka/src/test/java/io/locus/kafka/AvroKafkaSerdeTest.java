package io.locus.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.schemas.JobSubmitted;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class AvroKafkaSerdeTest {
  private final AvroKafkaSerde<JobSubmitted> serde = AvroKafkaSerde.of(Topics.JOB_ARRIVALS);

  @Test
  void roundTripsInTheRegistryEncoding() {
    JobSubmitted job = TestSupport.job("j-1");
    byte[] bytes = serde.serialize("job-arrivals", job);
    assertThat(bytes).isEqualTo(Topics.JOB_ARRIVALS.value(job));
    assertThat(serde.deserialize("job-arrivals", bytes)).isEqualTo(job);
  }

  @Test
  void nullIsATombstoneBothWays() {
    assertThat(serde.serialize("t", null)).isNull();
    assertThat(serde.deserialize("t", null)).isNull();
  }

  @Test
  void garbageIsASerializationExceptionNamingTheTopic() {
    assertThatThrownBy(() -> serde.deserialize("job-arrivals", new byte[] {1, 2, 3}))
        .isInstanceOf(SerializationException.class)
        .hasMessageContaining("job-arrivals")
        .hasMessageContaining("JobSubmitted");
  }
}
