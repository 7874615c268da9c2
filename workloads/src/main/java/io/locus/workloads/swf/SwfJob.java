package io.locus.workloads.swf;

/**
 * One line of a Standard Workload Format log (Parallel Workloads Archive, Feitelson et al.): the
 * 18 fields in their order. -1 means "missing" in every field. Times are seconds, memory KB per
 * processor, as the format defines.
 */
public record SwfJob(
    long jobNumber,
    double submitTime,
    double waitTime,
    double runTime,
    long allocatedProcessors,
    double averageCpuTime,
    double usedMemory,
    long requestedProcessors,
    double requestedTime,
    double requestedMemory,
    long status,
    long userId,
    long groupId,
    long executable,
    long queue,
    long partition,
    long precedingJob,
    double thinkTime) {

  /** Names of the 18 fields, 1-based position = index + 1. */
  public static final String[] FIELDS = {"job number", "submit time", "wait time", "run time",
      "allocated processors", "average CPU time", "used memory", "requested processors",
      "requested time", "requested memory", "status", "user id", "group id",
      "executable number", "queue number", "partition number", "preceding job number",
      "think time"};

  /** A job with only the fields Locus uses set (the others -1). */
  public static SwfJob of(long jobNumber, double submit, double runTime, long processors,
      long user, long executable, long precedingJob) {
    return new SwfJob(jobNumber, submit, -1, runTime, processors, -1, -1, -1, -1, -1, 1, user, -1,
        executable, -1, -1, precedingJob, -1);
  }

  /** The 18 values in field order. */
  public double[] values() {
    return new double[] {jobNumber, submitTime, waitTime, runTime, allocatedProcessors,
        averageCpuTime, usedMemory, requestedProcessors, requestedTime, requestedMemory, status,
        userId, groupId, executable, queue, partition, precedingJob, thinkTime};
  }
}
