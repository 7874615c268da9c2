package io.locus.workflows;

/**
 * One job's progress in its workflow, as the runner keeps it in state (one map entry per job, so
 * a completion reads and writes a few entries, never the whole DAG). A Flink POJO: public fields
 * and a no-argument constructor, so Flink serializes it without Kryo.
 */
public class JobNode {
  /** Not released: a parent has not completed. */
  public static final String WAITING = "WAITING";
  /** Released to the scheduler (on job-arrivals), not final yet. */
  public static final String RELEASED = "RELEASED";
  public static final String COMPLETED = "COMPLETED";
  /** Failed or cancelled, by the scheduler or because of a parent (failure policy). */
  public static final String FAILED = "FAILED";

  public String pool;
  public String state;
  /** Its position in the submission: outputs that concern several jobs follow it. */
  public int index;
  /** Parents not completed yet. */
  public int missing;
  public String[] parents;
  public String[] children;
  public int priority;
  public long submitTimeMs;

  public JobNode() {}
}
