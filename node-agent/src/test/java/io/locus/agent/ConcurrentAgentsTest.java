package io.locus.agent;

import static io.locus.agent.TestDecisions.MB;
import static io.locus.agent.TestDecisions.cancel;
import static io.locus.agent.TestDecisions.decision;
import static io.locus.agent.TestDecisions.peer;
import static io.locus.agent.TestDecisions.storage;
import static io.locus.agent.TestDecisions.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.sim.LocalPeerDirectory;
import io.locus.agent.sim.SimulatedAgents;
import io.locus.schemas.CachedFile;
import io.locus.schemas.InputPlan;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The real thread model without Kafka: a driver thread (as the consumer thread) and a 2-thread
 * scheduled pool running many agents that read from each other. Checks the invariants that a race
 * would break: every accepted task ends exactly once, no refusals, caches within quota, and each
 * node's deltas are contiguous and rebuild exactly its cache.
 */
@Timeout(60)
class ConcurrentAgentsTest {
  private static final String POOL = "stress";
  private final ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(2);

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  @Test
  void manyAgentsOnASharedPoolStayConsistent() throws Exception {
    int nodes = 8;
    int tasks = 2000;
    int slots = 2;
    long cap = 40 * MB;
    AgentScheduler scheduler = new ExecutorAgentScheduler(pool);
    LocalPeerDirectory peers = new LocalPeerDirectory();
    CountDownLatch ended = new CountDownLatch(tasks);
    AtomicLong refused = new AtomicLong();
    Map<String, NodeAgent> agents = new LinkedHashMap<>();
    Map<String, RecordingOutput> outputs = new HashMap<>();
    Map<String, Semaphore> freeSlots = new HashMap<>();
    for (String node : HostConfig.nodeIds("s-", nodes)) {
      Semaphore free = new Semaphore(slots);
      RecordingOutput out = new RecordingOutput() {
        @Override
        public synchronized void taskEvent(TaskEvent e) {
          super.taskEvent(e);
          switch (e.getType()) {
            case COMPLETED, FAILED -> {
              free.release();
              ended.countDown();
            }
            case REFUSED -> refused.incrementAndGet();
            default -> { }
          }
        }
      };
      AgentConfig cfg = AgentConfig.builder(POOL, node).slots(slots).cacheCapacityBytes(cap)
          .timeScale(0.001).heartbeatMs(5).build();
      NodeAgent a = SimulatedAgents.create(cfg, scheduler, out, peers);
      peers.register(a);
      agents.put(node, a);
      outputs.put(node, out);
      freeSlots.put(node, free);
    }
    agents.values().forEach(NodeAgent::start);

    // The driver plays the consumer thread: it only places where a slot is free, as a correct
    // scheduler would, and now and then cancels what it just placed.
    Random rnd = new Random(7);
    List<String> ids = new ArrayList<>(agents.keySet());
    long inputBytes = 0;
    for (int i = 0; i < tasks; i++) {
      String node = ids.get(rnd.nextInt(nodes));
      assertThat(freeSlots.get(node).tryAcquire(20, TimeUnit.SECONDS)).isTrue();
      InputPlan[] in = new InputPlan[1 + rnd.nextInt(2)];
      for (int k = 0; k < in.length; k++) {
        String f = "f" + rnd.nextInt(30);
        long bytes = (5 + f.hashCode() % 5) * MB;
        in[k] = rnd.nextBoolean() ? storage(f, bytes) : peer(f, bytes, ids.get(rnd.nextInt(nodes)));
        inputBytes += bytes;
      }
      NodeAgent a = agents.get(node);
      a.onDecision(decision("d" + i, 1, POOL, node, task("t" + i, rnd.nextDouble() * 0.05, in)));
      if (rnd.nextInt(20) == 0) {
        a.onDecision(decision("c" + i, 1, POOL, node, cancel("t" + i)));
      }
    }
    assertThat(ended.await(30, TimeUnit.SECONDS)).isTrue();

    AgentStats total = AgentStats.ZERO;
    for (NodeAgent a : agents.values()) {
      a.close();
      total = total.plus(a.stats());
    }
    assertThat(refused).hasValue(0);
    assertThat(total.tasksStarted()).isEqualTo(tasks);
    assertThat(total.tasksCompleted() + total.tasksFailed()).isEqualTo(tasks);
    assertThat(total.tasksFailed()).isPositive();
    assertThat(total.bytesPeer()).isPositive();
    assertThat(total.bytesLocal()).isPositive();
    // Cancelled tasks read only part of their inputs.
    assertThat(total.bytesTotal()).isLessThanOrEqualTo(inputBytes);

    for (Map.Entry<String, NodeAgent> e : agents.entrySet()) {
      NodeAgent a = e.getValue();
      RecordingOutput out = outputs.get(e.getKey());
      assertThat(a.stats().cacheUsedBytes()).isLessThanOrEqualTo(cap);
      List<NodeReport> deltas = out.reports(NodeReportType.CACHE_DELTA);
      Map<String, Long> index = new HashMap<>();
      for (int i = 0; i < deltas.size(); i++) {
        NodeReport d = deltas.get(i);
        assertThat(d.getSeq()).isEqualTo(i + 1);
        d.getRemoved().forEach(index::remove);
        for (CachedFile c : d.getAdded()) {
          index.put(c.getFileId(), c.getBytes());
        }
      }
      assertThat(index).as("index of %s", e.getKey()).isEqualTo(a.cacheContents());
      // Per task: STARTED first, then exactly one end.
      Map<String, List<TaskEventType>> byTask = new HashMap<>();
      out.events.forEach(ev -> byTask.computeIfAbsent(ev.getTaskId(), k -> new ArrayList<>())
          .add(ev.getType()));
      assertThat(byTask.values()).allSatisfy(types -> {
        assertThat(types).hasSize(2);
        assertThat(types.get(0)).isEqualTo(TaskEventType.STARTED);
      });
      List<NodeReport> reports = out.reports;
      assertThat(reports.get(reports.size() - 1).getType()).isEqualTo(NodeReportType.LEAVE);
    }
  }
}
