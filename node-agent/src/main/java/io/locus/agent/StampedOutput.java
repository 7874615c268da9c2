package io.locus.agent;

import io.locus.schemas.NodeReport;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.auth.RecordSigner;

/**
 * The one place an agent's task events and node reports get its instance id and, with a node key,
 * their signature ({@link RecordSigner} over the record with every other field final), just before
 * they leave the agent. Signed records are stamped on a copy: what the agent keeps (e.g. a final
 * event it answers a duplicate decision with) stays unsigned and is re-signed when sent again. The
 * writers set the instance id themselves, so an unsigned record already stamped goes out as it is.
 */
final class StampedOutput implements AgentOutput {
  private final AgentOutput out;
  private final String instanceId;
  private final RecordSigner signer;

  StampedOutput(AgentOutput out, AgentIdentity identity) {
    this.out = out;
    this.instanceId = identity.instanceId();
    this.signer = identity.nodeSigner();
  }

  @Override
  public void taskEvent(TaskEvent event) {
    if (signer == null && event.getSignature() == null
        && instanceId.equals(event.getInstanceId())) {
      // Already stamped by its writer, nothing to sign: a copy (a deep one) per event is most of
      // what a sim host spends per task beyond encoding it.
      out.taskEvent(event);
      return;
    }
    TaskEvent e = TaskEvent.newBuilder(event).setInstanceId(instanceId).setSignature(null).build();
    out.taskEvent(signer == null ? e : signer.sign(e));
  }

  @Override
  public void nodeReport(NodeReport report) {
    if (signer == null && report.getSignature() == null
        && instanceId.equals(report.getInstanceId())) {
      out.nodeReport(report);
      return;
    }
    NodeReport r = NodeReport.newBuilder(report).setInstanceId(instanceId).setSignature(null)
        .build();
    out.nodeReport(signer == null ? r : signer.sign(r));
  }

  @Override
  public void flush() {
    out.flush();
  }
}
