package io.locus.operators;

import io.locus.core.state.NodeView;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.NodeStatus;
import io.locus.schemas.NodeStatusType;

/**
 * The scheduler's verdicts about nodes ({@link NodeStatus}, topic node-status): what it did with
 * a registration, a departure, a drain or a silence, and which agent instance it refused and why.
 * Operators' views and the agents read these instead of the raw node reports, which any writer of
 * node-reports may have sent (an impostor's LEAVE that the scheduler refused must not make a live
 * node look gone).
 *
 * <p>Every verdict is made while an input is processed, from the pool's state after it, and
 * stamped with the pool's record clock: a replay after a restore makes the same verdicts, and the
 * transactional sink writes them exactly once with the rest of the input's output.
 *
 * <p>A REFUSED verdict is about the refused instance only. The topic is compacted by pool/node,
 * so when the node has an owner a REFUSED verdict is followed by the node's standing verdict: a
 * reader starting late still finds the node's true state as the latest record of its key.
 */
final class NodeVerdicts {
  private NodeVerdicts() {}

  /** A node as the pool had it before an input: whether it was registered, and draining. */
  record Before(boolean registered, boolean draining) {
    static Before of(ScheduledPool p, String node) {
      NodeView v = p.state.node(node);
      return new Before(v != null, v != null && v.draining());
    }
  }

  /**
   * The verdicts a node report leads to, added to {@code o}: a refused REGISTER is REFUSED (with
   * the refusal's code and reason, addressed to the reporting instance) followed by the node's
   * standing; an accepted REGISTER is the node's standing; an accepted LEAVE is LEFT; another
   * accepted report that started or ended the node's drain is its standing. Other reports change
   * no verdict and emit none (a heartbeat is not news).
   */
  static void afterReport(ScheduledPool p, NodeReport r, Before before, PoolOutput o) {
    String node = r.getNode();
    boolean register = r.getType() == NodeReportType.REGISTER;
    if (!o.rejections().isEmpty()) {
      if (register) {
        PoolOutput.Rejection why = o.rejections().get(0);
        o.verdict(refused(p.name, node, r.getInstanceId(), why.code(), why.reason(),
            p.meta.getClockMs(), p.meta.getEpoch()));
        NodeStatus standing = standing(p, node, "still owned by instance "
            + p.registry.owner(node) + " (another instance's registration was refused)");
        if (standing != null && p.registry.owner(node) != null) {
          o.verdict(standing);
        }
      }
      return;
    }
    NodeView now = p.state.node(node);
    if (register && now != null) {
      o.verdict(NodeStatus.newBuilder(standing(p, node, "registered with " + now.slots()
          + " slot(s)")).setRegistration(true).build());
    } else if (before.registered() && now == null) {
      o.verdict(status(p, node, r.getInstanceId(), NodeStatusType.LEFT,
          r.getType() == NodeReportType.LEAVE ? "the agent left (LEAVE)"
              : "the scheduler let the node go", 0));
    } else if (now != null && before.registered() && before.draining() != now.draining()) {
      o.verdict(standing(p, node, now.draining() ? "the agent reports draining"
          : "the agent takes work again"));
    }
  }

  /**
   * The node's standing as the pool has it now: REGISTERED or DRAINING with its owner and slots,
   * or null when the pool does not have the node.
   */
  static NodeStatus standing(ScheduledPool p, String node, String reason) {
    NodeView v = p.state.node(node);
    if (v == null) {
      return null;
    }
    return status(p, node, p.registry.owner(node),
        v.draining() ? NodeStatusType.DRAINING : NodeStatusType.REGISTERED, reason, v.slots());
  }

  /** The node was declared lost: not heard from for longer than the node timeout. */
  static NodeStatus lost(ScheduledPool p, String node, String owner, String reason) {
    return status(p, node, owner, NodeStatusType.LOST, reason, 0);
  }

  /** A registration from {@code instance} was refused ({@code code}: its dead letter's). */
  static NodeStatus refused(String pool, String node, String instance, String code,
      String reason, long clockMs, long epoch) {
    return NodeStatus.newBuilder()
        .setPool(pool)
        .setNode(node)
        .setInstanceId(instance)
        .setState(NodeStatusType.REFUSED)
        .setReason(reason)
        .setCode(code)
        .setSlots(0)
        .setTimeMs(clockMs)
        .setEpoch(epoch)
        .build();
  }

  private static NodeStatus status(ScheduledPool p, String node, String instance,
      NodeStatusType state, String reason, int slots) {
    return NodeStatus.newBuilder()
        .setPool(p.name)
        .setNode(node)
        .setInstanceId(instance)
        .setState(state)
        .setReason(reason)
        .setCode("")
        .setSlots(slots)
        .setTimeMs(p.meta.getClockMs())
        .setEpoch(p.meta.getEpoch())
        .build();
  }
}
