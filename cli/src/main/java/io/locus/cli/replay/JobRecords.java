package io.locus.cli.replay;

import io.locus.core.model.InputFile;
import io.locus.schemas.DataUnit;
import io.locus.schemas.JobSubmitted;
import io.locus.workloads.HybridMix;
import io.locus.workloads.TraceJob;
import java.util.ArrayList;
import java.util.List;

/** A trace job as the JobSubmitted record the scheduler reads. */
public final class JobRecords {
  private JobRecords() {}

  /**
   * The record of {@code t} in {@code pool}, submitted at {@code submitMs}: its inputs, outputs,
   * compute, task template and arguments, priority, queue, and (hybrid mixes) its resource
   * profile.
   */
  public static JobSubmitted toJob(TraceJob t, String pool, long submitMs) {
    return JobSubmitted.newBuilder()
        .setJobId(t.jobId())
        .setPool(pool)
        .setSubmitTimeMs(submitMs)
        .setInputs(units(t.inputs()))
        .setOutputs(units(t.outputs()))
        .setComputeSeconds(t.computeSeconds())
        .setTemplate(t.template())
        .setArgs(new ArrayList<>(t.args()))
        .setPriority(t.priorityOr(0)) // the trace's, else --priority's (Workload), else 0
        .setQueue(t.queue()) // null: the pool's default queue
        // hybrid mixes carry a resource profile as job attributes (cpu, mem, disk)
        .setProfile(io.locus.operators.Conversions.profile(HybridMix.profile(t)))
        .build();
  }

  private static List<DataUnit> units(List<InputFile> files) {
    List<DataUnit> out = new ArrayList<>(files.size());
    for (InputFile u : files) {
      out.add(DataUnit.newBuilder().setId(u.id()).setBytes(u.bytes())
          .setComputeSeconds(u.computeSeconds()).setLocation(u.location())
          .setChecksum(u.checksum()).build());
    }
    return out;
  }
}
