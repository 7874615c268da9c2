package io.locus.agent.real;

import io.locus.agent.ExecutorAgentScheduler;
import io.locus.schemas.Decision;
import io.locus.schemas.EvictFiles;
import io.locus.schemas.FetchSource;
import io.locus.schemas.InputPlan;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.PlacementReason;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** Temporary storage, real agents on threads, and decisions for them. Close after each test. */
final class Fixture implements AutoCloseable {
  static final String POOL = "p";

  final Path dir;
  final Path storage;
  final ScheduledThreadPoolExecutor threads = new ScheduledThreadPoolExecutor(2, r -> {
    Thread t = new Thread(r, "test-agent-sched");
    t.setDaemon(true);
    return t;
  });
  final ExecutorAgentScheduler clock = new ExecutorAgentScheduler(threads);
  private final List<RealAgent> agents = new ArrayList<>();
  private final AtomicInteger ids = new AtomicInteger();
  private final Random random = new Random(42);
  long epoch = 1;

  Fixture(Path dir) {
    this.dir = dir;
    this.storage = dir.resolve("storage");
    try {
      Files.createDirectories(storage);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    threads.setRemoveOnCancelPolicy(true);
  }

  /** A file of {@code size} random bytes in storage. */
  byte[] storageFile(String name, int size) {
    byte[] b = new byte[size];
    random.nextBytes(b);
    try {
      Files.write(storage.resolve(name), b);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return b;
  }

  static String sha256(byte[] b) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** An agent's settings: 2 slots, 1 MB cache, the test templates, storage in this fixture. */
  TestAgentConfig config(String node) {
    return new TestAgentConfig(POOL, dir)
        .nodeId(node)
        .heartbeatMs(3_600_000)
        .cacheCapacityBytes(1_000_000)
        .dataDir(dir.resolve(node))
        .storageRoot(storage.toUri())
        .killGrace(Duration.ofSeconds(2))
        .template("sum", "sha256sum", "{inputs}")
        .template("ls", "ls", "{arg:0}")
        .template("echo", "printf", "%s\\n", "{args}")
        // Runs until a file "go" appears in its work dir: the test decides when it ends.
        .template("wait", "sh", "-c", "while [ ! -e go ]; do sleep 0.02; done", "wait",
            "{inputs}")
        .template("tree", "sh", "-c", "sleep 300 & echo $! > child.pid; wait")
        // Leaves a partial output and a scratch file, then runs until stopped.
        .template("partial", "sh", "-c", "echo half > out/result; echo s > tmp/scratch; "
            + "sleep 300 & echo $! > child.pid; wait")
        .template(TaskTemplate.of("slow", List.of("sleep", "30"))
            .withTimeout(Duration.ofMillis(300)));
  }

  RealAgent agent(RealAgentConfig cfg, AwaitingOutput out, PeerEndpoints peers) {
    RealAgent a = RealAgent.create(cfg, clock, out, peers, null);
    agents.add(a);
    return a;
  }

  RealAgent started(RealAgentConfig cfg, AwaitingOutput out) {
    RealAgent a = agent(cfg, out, new PeerEndpoints());
    a.start();
    return a;
  }

  static InputPlan input(String file, long bytes, FetchSource source, String peer,
      String location, String checksum, boolean cache) {
    return InputPlan.newBuilder().setFileId(file).setBytes(bytes).setSource(source)
        .setPeerNode(peer).setLocation(location).setChecksum(checksum).setCache(cache).build();
  }

  static InputPlan storage(String file, long bytes) {
    return input(file, bytes, FetchSource.STORAGE, null, null, null, true);
  }

  static InputPlan peer(String file, long bytes, String node) {
    return input(file, bytes, FetchSource.PEER, node, null, null, true);
  }

  static InputPlan local(String file, long bytes) {
    return input(file, bytes, FetchSource.LOCAL, null, null, null, true);
  }

  static PlaceTask task(String taskId, String template, List<String> args, InputPlan... inputs) {
    return PlaceTask.newBuilder()
        .setTaskId(taskId)
        .setJobId("job-" + taskId)
        .setAttempt(0)
        .setInputs(List.of(inputs))
        .setTemplate(template)
        .setArgs(args)
        .setReason(PlacementReason.newBuilder().setPolicy("TEST").build())
        .build();
  }

  Decision decision(String node, Object action) {
    return Decision.newBuilder()
        .setDecisionId("d" + ids.getAndIncrement())
        .setEpoch(epoch)
        .setPool(POOL)
        .setNode(node)
        .setTimeMs(System.currentTimeMillis())
        .setAction(action)
        .build();
  }

  static EvictFiles evict(String... files) {
    return EvictFiles.newBuilder().setFiles(List.of(files)).setReason("test").build();
  }

  @Override
  public void close() {
    for (RealAgent a : agents) {
      a.close();
    }
    threads.shutdownNow();
    try {
      threads.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
