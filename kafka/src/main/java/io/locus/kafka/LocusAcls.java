package io.locus.kafka;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The ACLs of Locus' roles on a cluster with an authorizer, where anything not granted is denied.
 *
 * <p>Kafka authorizes per principal and resource (topic, group, cluster, transactional id), never
 * per record key: an agent allowed to write {@code task-events} may write an event naming any
 * node. So ACLs only confine an agent to its role (it cannot submit jobs, forge decisions or send
 * control records); that an event really comes from the node it names is proved by the HMAC with
 * that node's key (see {@code io.locus.schemas.auth.NodeKeys}), which the scheduler checks. The
 * two together: a stolen agent login cannot pose as the scheduler or a submitter, and a stolen
 * node key cannot speak for another node.
 */
public final class LocusAcls {
  private LocusAcls() {}

  /**
   * A node agent: WRITE {@code task-events} and {@code node-reports}, READ {@code decisions} and
   * {@code node-status} (the scheduler's verdict on its registration; it assigns partitions
   * itself, so it needs no consumer group). With {@code readsPeerReports},
   * also READ {@code node-reports}: real agents learn their peers' file-server endpoints there.
   * Nothing else: not {@code job-arrivals}, {@code control}, {@code dead-letters}, no topic
   * creation, no group.
   *
   * @param principal e.g. {@code User:agent-node-1}
   */
  public static List<AclBinding> agent(String principal, boolean readsPeerReports) {
    List<AclBinding> acls = new ArrayList<>();
    acls.add(allow(principal, topic(Topics.TASK_EVENTS), AclOperation.WRITE));
    acls.add(allow(principal, topic(Topics.NODE_REPORTS), AclOperation.WRITE));
    acls.add(allow(principal, topic(Topics.DECISIONS), AclOperation.READ));
    acls.add(allow(principal, topic(Topics.NODE_STATUS), AclOperation.READ));
    if (readsPeerReports) {
      acls.add(allow(principal, topic(Topics.NODE_REPORTS), AclOperation.READ));
    }
    return acls;
  }

  /**
   * The scheduler job ({@code locus run}): READ its inputs ({@link Topics#INPUTS}) with consumer
   * group {@code groupId}; WRITE {@code decisions}, {@code scheduler-metrics}, {@code
   * scale-requests}, {@code dead-letters}, {@code control-acks}, {@code shadow-decisions}, {@code
   * node-status}, {@code job-status} and {@code workflow-status}; READ {@code workflows} and
   * {@code job-status} and WRITE {@code job-arrivals} (its workflow runner releases a workflow's
   * jobs there); WRITE transactional ids starting with {@code
   * transactionalIdPrefix} (its exactly-once sinks name theirs {@code <prefix>-decisions} and so
   * on). Topics are created by an operator (or {@code --create-topics} with an admin login), so
   * no CREATE.
   */
  public static List<AclBinding> scheduler(
      String principal, String groupId, String transactionalIdPrefix) {
    if (groupId == null || groupId.isBlank() || transactionalIdPrefix == null
        || transactionalIdPrefix.isBlank()) {
      throw new IllegalArgumentException("the scheduler's group id and transactional id prefix "
          + "must be given");
    }
    List<AclBinding> acls = new ArrayList<>();
    for (TopicSpec<?> t : Topics.INPUTS) {
      acls.add(allow(principal, topic(t), AclOperation.READ));
    }
    // the workflow runner: reads submissions and the jobs' transitions, releases jobs
    for (TopicSpec<?> t : List.of(Topics.WORKFLOWS, Topics.JOB_STATUS)) {
      acls.add(allow(principal, topic(t), AclOperation.READ));
    }
    for (TopicSpec<?> t : List.of(Topics.DECISIONS, Topics.SCHEDULER_METRICS,
        Topics.SCALE_REQUESTS, Topics.DEAD_LETTERS, Topics.CONTROL_ACKS,
        Topics.SHADOW_DECISIONS, Topics.NODE_STATUS, Topics.JOB_STATUS,
        Topics.WORKFLOW_STATUS, Topics.JOB_ARRIVALS)) {
      acls.add(allow(principal, topic(t), AclOperation.WRITE));
    }
    acls.add(allow(principal,
        new ResourcePattern(ResourceType.GROUP, groupId, PatternType.LITERAL), AclOperation.READ));
    acls.add(allow(principal, new ResourcePattern(ResourceType.TRANSACTIONAL_ID,
        transactionalIdPrefix, PatternType.PREFIXED), AclOperation.WRITE));
    return acls;
  }

  /**
   * An operator's console ({@code locus control}, {@code locus queues}): WRITE {@code control},
   * READ {@code control-acks} and {@code scheduler-metrics} (which carries each pool's queue tree
   * in force: {@code locus queues apply --dry-run} and {@code show} compare with it), assigned
   * partitions, no consumer group.
   */
  public static List<AclBinding> controller(String principal) {
    return List.of(allow(principal, topic(Topics.CONTROL), AclOperation.WRITE),
        allow(principal, topic(Topics.CONTROL_ACKS), AclOperation.READ),
        allow(principal, topic(Topics.SCHEDULER_METRICS), AclOperation.READ));
  }

  /**
   * A job submitter ({@code locus replay}, {@code locus job}, a workflow system): WRITE {@code
   * job-arrivals}, {@code workflows} and {@code job-commands} (cancel); READ (assigned
   * partitions, no consumer group) {@code job-status}, {@code workflow-status} and {@code
   * task-events} to follow its jobs, and {@code dead-letters} to fail fast on a refused
   * submission. Any submitter may cancel any job: Kafka's principal does not reach the records,
   * so per-user ownership is not enforced (docs/operations.md, "Jobs and workflows").
   */
  public static List<AclBinding> submitter(String principal) {
    return List.of(allow(principal, topic(Topics.JOB_ARRIVALS), AclOperation.WRITE),
        allow(principal, topic(Topics.WORKFLOWS), AclOperation.WRITE),
        allow(principal, topic(Topics.JOB_COMMANDS), AclOperation.WRITE),
        allow(principal, topic(Topics.JOB_STATUS), AclOperation.READ),
        allow(principal, topic(Topics.WORKFLOW_STATUS), AclOperation.READ),
        allow(principal, topic(Topics.DEAD_LETTERS), AclOperation.READ),
        allow(principal, topic(Topics.TASK_EVENTS), AclOperation.READ));
  }

  /**
   * A read-only console ({@code locus status}, {@code locus dashboard}): READ on every Locus topic
   * ({@link Topics#ALL}), assigned partitions, no consumer group; no WRITE anywhere. Every topic,
   * not the few each reads today, so that a view that starts reading one more topic keeps working;
   * reading cannot change what the scheduler or the agents do.
   */
  public static List<AclBinding> monitor(String principal) {
    List<AclBinding> acls = new ArrayList<>();
    for (TopicSpec<?> t : Topics.ALL) {
      acls.add(allow(principal, topic(t), AclOperation.READ));
    }
    return acls;
  }

  static ResourcePattern topic(TopicSpec<?> topic) {
    return new ResourcePattern(ResourceType.TOPIC, topic.name(), PatternType.LITERAL);
  }

  public static AclBinding allow(String principal, ResourcePattern resource, AclOperation operation) {
    if (principal == null || !principal.startsWith("User:") || principal.length() == 5) {
      throw new IllegalArgumentException("a principal is User:<name>, got " + principal);
    }
    return new AclBinding(resource,
        new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW));
  }
}
