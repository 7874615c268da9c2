package io.locus.workflows;

import io.locus.schemas.JobStatus;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.WorkflowStatus;
import io.locus.schemas.WorkflowSubmitted;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.formats.avro.typeutils.AvroTypeInfo;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;

/**
 * Flink type information of the runner's records and state: Avro records through Flink's Avro
 * serializer, the two state classes as POJOs; never Kryo (the job runs with generic types off).
 */
public final class WorkflowTypes {
  public static final TypeInformation<JobSubmitted> JOB_SUBMITTED =
      new AvroTypeInfo<>(JobSubmitted.class);
  public static final TypeInformation<JobStatus> JOB_STATUS = new AvroTypeInfo<>(JobStatus.class);
  public static final TypeInformation<WorkflowSubmitted> WORKFLOW_SUBMITTED =
      new AvroTypeInfo<>(WorkflowSubmitted.class);
  public static final TypeInformation<WorkflowStatus> WORKFLOW_STATUS =
      new AvroTypeInfo<>(WorkflowStatus.class);
  public static final TypeInformation<WorkflowMeta> META = pojo(WorkflowMeta.class);
  public static final TypeInformation<JobNode> NODE = pojo(JobNode.class);

  private WorkflowTypes() {}

  /** The POJO type of {@code c}; fails at class load if Flink would not treat it as one. */
  private static <T> TypeInformation<T> pojo(Class<T> c) {
    TypeInformation<T> t = TypeInformation.of(c);
    if (!(t instanceof PojoTypeInfo)) {
      throw new IllegalStateException(c.getName() + " is not a Flink POJO: " + t);
    }
    return t;
  }
}
