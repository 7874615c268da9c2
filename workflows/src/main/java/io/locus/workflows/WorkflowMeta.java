package io.locus.workflows;

/**
 * A workflow's own state in the runner: its submission header, where it is, and the counts its
 * {@code WorkflowStatus} carries. Kept after the workflow ends (a few hundred bytes), so a second
 * submission under the same id is refused. A Flink POJO (no Kryo).
 */
public class WorkflowMeta {
  /** Parts are still arriving. */
  public static final String ASSEMBLING = "ASSEMBLING";
  public static final String RUNNING = "RUNNING";
  public static final String SUCCEEDED = "SUCCEEDED";
  public static final String FAILED = "FAILED";
  public static final String REFUSED = "REFUSED";

  public String workflowId;
  public String state;
  public int parts;
  public int partsReceived;
  public String onFailure;
  public long submitTimeMs;
  public String requestId;
  /** The refusal, or the first failure's reason. */
  public String reason;
  public int jobs;
  public int waiting;
  public int released;
  public int completed;
  public int failed;
  /** The latest record time seen: every output's time (never the wall clock). */
  public long timeMs;

  public WorkflowMeta() {}

  boolean finished() {
    return SUCCEEDED.equals(state) || FAILED.equals(state) || REFUSED.equals(state);
  }
}
