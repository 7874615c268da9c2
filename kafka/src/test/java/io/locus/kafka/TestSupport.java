package io.locus.kafka;

import io.locus.schemas.DataUnit;
import io.locus.schemas.JobSubmitted;
import java.util.List;

/** Sample records for the tests of this module and of kafka-testkit (through the test-jar). */
public final class TestSupport {
  private TestSupport() {}

  public static JobSubmitted job(String jobId) {
    return JobSubmitted.newBuilder()
        .setJobId(jobId)
        .setPool("pool-a")
        .setSubmitTimeMs(1_700_000_000_000L)
        .setInputs(List.of(
            DataUnit.newBuilder().setId("file-1").setBytes(1 << 20).setLocation("file:///data/1")
                .build(),
            DataUnit.newBuilder().setId("file-2").setBytes(42).build()))
        .setComputeSeconds(1.5)
        .setPriority(3)
        .setTemplate("wordcount")
        .setArgs(List.of("--fast"))
        .build();
  }
}
