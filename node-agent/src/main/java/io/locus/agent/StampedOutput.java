package io.locus.agent;

import io.locus.schemas.NodeReport;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.auth.RecordSigner;

/**
 * The one place an agent's task events and node reports get its instance id and, with a node key,
 * their signature ({@link RecordSigner} over the record with every other field final), just before
 * they leave the agent. Records are stamped on a copy: what the agent keeps (e.g. a final event it
 * answers a duplicate decision with) stays unstamped and is re-signed when sent again.
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
    TaskEvent e = TaskEvent.newBuilder(event).setInstanceId(instanceId).setSignature(null).build();
    out.taskEvent(signer == null ? e : signer.sign(e));
  }

  @Override
  public void nodeReport(NodeReport report) {
    NodeReport r = NodeReport.newBuilder(report).setInstanceId(instanceId).setSignature(null)
        .build();
    out.nodeReport(signer == null ? r : signer.sign(r));
  }
}
