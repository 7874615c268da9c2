package io.locus.agent.real;

import static io.locus.agent.real.Fixture.local;
import static io.locus.agent.real.Fixture.storage;
import static io.locus.agent.real.Fixture.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.locus.schemas.CachedFile;
import io.locus.schemas.InputPlan;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.testkit.Await;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The cache directory: quota, restart recovery, eviction on request. */
@Timeout(90)
class RealCacheTest {
  private static final Await WAIT = Await.atMost(AwaitingOutput.DEADLINE);

  @TempDir
  Path tmp;
  private Fixture fx;

  @BeforeEach
  void setUp() {
    fx = new Fixture(tmp);
  }

  @AfterEach
  void tearDown() {
    fx.close();
  }

  @Test
  void underPressureTheCacheDirectoryNeverExceedsItsQuota() throws Exception {
    int files = 14;
    int size = 3_000;
    long quota = 10_000;   // three files fit
    for (int i = 0; i < files; i++) {
      fx.storageFile("f" + i, size);
    }
    AwaitingOutput out = new AwaitingOutput();
    RealAgent a = fx.started(fx.config("a").slots(2).cacheCapacityBytes(quota).build(), out);

    // A watcher measures the directory itself, as often as it can, while tasks churn through it.
    AtomicBoolean stop = new AtomicBoolean();
    AtomicLong maxSeen = new AtomicLong();
    AtomicLong samples = new AtomicLong();
    Thread watcher = new Thread(() -> {
      while (!stop.get()) {
        maxSeen.accumulateAndGet(a.cache().diskBytes(), Math::max);
        samples.incrementAndGet();
      }
    });
    watcher.start();
    Random r = new Random(7);
    List<String> tasks = new ArrayList<>();
    try {
      for (int t = 0; t < 30; t++) {
        String id = "t" + t;
        int x = r.nextInt(files);
        int y = (x + 1 + r.nextInt(files - 1)) % files;
        tasks.add(id);
        // Two slots: wait for a slot before placing (the scheduler's job in production).
        if (t >= 2) {
          out.awaitEnd(tasks.get(t - 2));
        }
        a.agent().onDecision(fx.decision("a", task(id, "sum", List.of(),
            storage("f" + x, size), storage("f" + y, size))));
      }
      for (String id : tasks) {
        TaskEvent e = out.awaitEnd(id);
        assertThat(e.getType()).as(id + ": " + e.getMessage()).isEqualTo(TaskEventType.COMPLETED);
      }
    } finally {
      stop.set(true);
      watcher.join();
    }
    assertThat(samples.get()).isGreaterThan(10);
    assertThat(maxSeen.get()).isLessThanOrEqualTo(quota);
    assertThat(a.stats().cacheUsedBytes()).isLessThanOrEqualTo(quota);
    // The directory holds exactly what the agent accounts for, and the scheduler was told so.
    assertThat(cacheFiles(a)).isEqualTo(a.agent().cacheContents().keySet());
    Set<String> announced = new HashSet<>();
    for (NodeReport d : out.reports(NodeReportType.CACHE_DELTA)) {
      d.getAdded().forEach(f -> announced.add(f.getFileId()));
      announced.removeAll(d.getRemoved());
    }
    assertThat(announced).isEqualTo(a.agent().cacheContents().keySet());
    assertThat(a.cache().incomingFiles()).isZero();
  }

  private static Set<String> cacheFiles(RealAgent a) throws IOException {
    try (Stream<Path> s = Files.list(a.cache().root())) {
      Set<String> names = new HashSet<>();
      s.map(p -> p.getFileName().toString()).filter(n -> !n.equals(DiskCache.INCOMING))
          .forEach(names::add);
      return names;
    }
  }

  @Test
  void aRestartRecoversTheCacheDropsPartialFilesAndReportsASnapshot() throws IOException {
    byte[] f1 = fx.storageFile("f1", 1500);
    fx.storageFile("f2", 2500);
    TestAgentConfig settings = fx.config("a");
    RealAgentConfig cfg = settings.build();
    AwaitingOutput first = new AwaitingOutput();
    RealAgent a = fx.started(cfg, first);
    a.agent().onDecision(fx.decision("a", task("t1", "sum", List.of(),
        storage("f1", 1500), storage("f2", 2500))));
    assertThat(first.awaitEnd("t1").getType()).isEqualTo(TaskEventType.COMPLETED);
    a.close();
    assertThat(first.reports().get(first.reports().size() - 1).getType())
        .isEqualTo(NodeReportType.LEAVE);

    // A crash mid-download leaves a partial file; someone plants a link and a directory.
    Path cache = cfg.cacheDir();
    Files.writeString(cache.resolve(DiskCache.INCOMING).resolve("x.part"), "half a file");
    Files.createSymbolicLink(cache.resolve("evil"), tmp.resolve("storage").resolve("f1"));
    Files.createDirectory(cache.resolve("adir"));

    AwaitingOutput second = new AwaitingOutput();
    RealAgent b = fx.started(cfg, second);
    assertThat(b.recovered().partialsDropped()).isEqualTo(1);
    assertThat(b.recovered().ignored()).containsExactlyInAnyOrder("evil", "adir");
    assertThat(b.cache().incomingFiles()).isZero();
    List<NodeReport> reports = second.reports();
    assertThat(reports).extracting(NodeReport::getType)
        .startsWith(NodeReportType.REGISTER);
    assertThat(reports.get(0).getAdded()).extracting(CachedFile::getFileId, CachedFile::getBytes)
        .containsExactlyInAnyOrder(tuple("f1", 1500L), tuple("f2", 2500L));
    assertThat(reports.get(0).getSeq()).isZero();

    // The recovered copies serve as local hits, no transfer.
    b.agent().onDecision(fx.decision("a", task("t2", "sum", List.of(), local("f1", 1500))));
    TaskEvent done = second.awaitEnd("t2");
    assertThat(done.getType()).isEqualTo(TaskEventType.COMPLETED);
    assertThat(done.getBytesLocal()).isEqualTo(1500);
    assertThat(Files.readAllBytes(cache.resolve("f1"))).isEqualTo(f1);
    assertThat(Files.isSymbolicLink(cache.resolve("evil"))).as("left alone").isTrue();
  }

  @Test
  void aRestartWithASmallerQuotaEvictsTheOldestFilesFromDisk() throws IOException {
    for (String f : List.of("f1", "f2", "f3")) {
      fx.storageFile(f, 1000);
    }
    TestAgentConfig settings = fx.config("a");
    RealAgentConfig cfg = settings.build();
    AwaitingOutput first = new AwaitingOutput();
    RealAgent a = fx.started(cfg, first);
    for (String f : List.of("f1", "f2", "f3")) {
      a.agent().onDecision(fx.decision("a", task("t-" + f, "sum", List.of(), storage(f, 1000))));
      first.awaitEnd("t-" + f);
    }
    a.close();
    // Make the order unambiguous whatever the file system's timestamp resolution.
    long now = System.currentTimeMillis();
    Files.setLastModifiedTime(cfg.cacheDir().resolve("f1"),
        FileTime.fromMillis(now - 30_000));
    Files.setLastModifiedTime(cfg.cacheDir().resolve("f2"),
        FileTime.fromMillis(now - 20_000));
    Files.setLastModifiedTime(cfg.cacheDir().resolve("f3"),
        FileTime.fromMillis(now - 10_000));

    RealAgent b = fx.started(settings.cacheCapacityBytes(2000).build(),
        new AwaitingOutput());
    assertThat(b.agent().cacheContents()).containsOnlyKeys("f2", "f3");
    assertThat(Files.exists(cfg.cacheDir().resolve("f1"))).isFalse();
    assertThat(b.cache().diskBytes()).isEqualTo(2000);
  }

  @Test
  void evictFilesDeletesUnpinnedFilesAndKeepsThoseARunningTaskNeeds() throws IOException {
    fx.storageFile("f1", 100);
    fx.storageFile("f2", 200);
    AwaitingOutput out = new AwaitingOutput();
    RealAgent a = fx.started(fx.config("a").build(), out);
    a.agent().onDecision(fx.decision("a", task("t0", "sum", List.of(),
        storage("f1", 100), storage("f2", 200))));
    assertThat(out.awaitEnd("t0").getType()).isEqualTo(TaskEventType.COMPLETED);

    // t1 holds f1 while it runs (until a "go" file appears in its work dir).
    InputPlan f1 = local("f1", 100);
    a.agent().onDecision(fx.decision("a", task("t1", "wait", List.of(), f1)));
    WAIT.until("t1 running", () -> a.executor().process("t1#0").isPresent());
    a.agent().onDecision(fx.decision("a", Fixture.evict("f1", "f2")));

    Path cache = a.cache().root();
    assertThat(Files.exists(cache.resolve("f2"))).isFalse();
    assertThat(Files.exists(cache.resolve("f1"))).isTrue();
    assertThat(a.stats().evictionsRefused()).isEqualTo(1);
    assertThat(a.stats().filesEvictedOnRequest()).isEqualTo(1);
    assertThat(out.reports(NodeReportType.CACHE_DELTA)).last()
        .satisfies(d -> assertThat(d.getRemoved()).containsExactly("f2"));
    assertThat(a.metrics()).contains("locus_agent_evictions_refused_total{pool=\"p\",node=\"a\"} 1");

    Files.createFile(a.executor().workDir("t1#0").orElseThrow().resolve("go"));
    assertThat(out.awaitEnd("t1").getType()).isEqualTo(TaskEventType.COMPLETED);
    a.agent().onDecision(fx.decision("a", Fixture.evict("f1")));
    assertThat(Files.exists(cache.resolve("f1"))).isFalse();
    assertThat(a.agent().cacheContents()).isEmpty();
  }
}
