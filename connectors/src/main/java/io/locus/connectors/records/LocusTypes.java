package io.locus.connectors.records;

import io.locus.schemas.DeadLetter;
import io.locus.schemas.Decision;
import io.locus.schemas.SchedulerMetrics;
import io.locus.schemas.internal.RawRecord;
import io.locus.schemas.internal.SchedulerInput;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.formats.avro.typeutils.AvroTypeInfo;

/**
 * Flink type information for the records that cross operator boundaries. Every one is Avro, so
 * Flink serializes them with its Avro serializer and never falls back to Kryo (jobs run with
 * {@code pipeline.generic-types: false}). Pass these to {@code returns(...)} or side-output tags
 * instead of relying on type extraction.
 */
public final class LocusTypes {
  public static final TypeInformation<RawRecord> RAW_RECORD = new AvroTypeInfo<>(RawRecord.class);
  public static final TypeInformation<SchedulerInput> SCHEDULER_INPUT =
      new AvroTypeInfo<>(SchedulerInput.class);
  public static final TypeInformation<DeadLetter> DEAD_LETTER =
      new AvroTypeInfo<>(DeadLetter.class);
  public static final TypeInformation<Decision> DECISION = new AvroTypeInfo<>(Decision.class);
  public static final TypeInformation<SchedulerMetrics> SCHEDULER_METRICS =
      new AvroTypeInfo<>(SchedulerMetrics.class);

  private LocusTypes() {}
}
