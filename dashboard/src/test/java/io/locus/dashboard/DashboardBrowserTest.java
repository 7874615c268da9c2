package io.locus.dashboard;

import static io.locus.dashboard.Records.cacheDelta;
import static io.locus.dashboard.Records.completed;
import static io.locus.dashboard.Records.deadLetter;
import static io.locus.dashboard.Records.file;
import static io.locus.dashboard.Records.metrics;
import static io.locus.dashboard.Records.place;
import static io.locus.dashboard.Records.register;
import static io.locus.dashboard.Records.report;
import static io.locus.dashboard.Records.started;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.testkit.EmbeddedKafka;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import io.locus.schemas.NodeStatus;
import io.locus.schemas.NodeStatusType;
import io.locus.schemas.SchedulerMetrics;
import io.locus.testkit.Await;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard in a real headless Chromium (Debian's chromium and chromium-driver, driven by
 * Selenium; the test installs them when missing, see HeadlessChromium), against a real broker:
 * records written to the topics show on the page, change while more arrive, survive a reload and a
 * restarted server; a task id that is markup shows as text. Saves target/screenshots/dashboard.png.
 * Fails (not skips) without Chromium.
 */
@Tag("integration")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DashboardBrowserTest {
  static final Path CHROMIUM = HeadlessChromium.CHROMIUM;
  static final Path CHROMEDRIVER = HeadlessChromium.CHROMEDRIVER;
  static final Duration WAIT = Duration.ofSeconds(30);
  static final String POOL = "batch";
  static final String XSS = "<img src=x onerror=alert(1)>";
  static final String XSS2 = "<img src=y onerror=\"document.body.dataset.pwned='yes'\">";

  static EmbeddedKafka kafka;
  static KafkaProducer<byte[], byte[]> producer;
  static Dashboard dashboard;
  static WebDriver browser;
  static Path profile;
  static final long T = System.currentTimeMillis();

  @BeforeAll
  static void start() throws Exception {
    // Install first (apt-get as root or through sudo -n, when either is missing), so that
    // `mvn -B verify` works on a fresh machine; then fail, do not skip, if they are still missing.
    HeadlessChromium.ensureInstalled();
    assertThat(CHROMIUM).as("Chromium (apt-get install chromium chromium-driver)").isExecutable();
    assertThat(CHROMEDRIVER).as("chromedriver (apt-get install chromium-driver)").isExecutable();
    kafka = EmbeddedKafka.start();
    TopicAdmin.ensureTopics(kafka.bootstrapServers(), Topics.ALL);
    producer = new KafkaProducer<>(ClientConfigs.producer(kafka.bootstrapServers()));
    dashboard = Dashboard.start(ClientConfigs.base(kafka.bootstrapServers()),
        Dashboard.Options.defaults());
    profile = Files.createTempDirectory("locus-chromium-");
    browser = HeadlessChromium.start(profile, 1400, 2000);
    browser.manage().timeouts().pageLoadTimeout(WAIT);
  }

  @AfterAll
  static void stop() throws Exception {
    if (browser != null) {
      browser.quit();
    }
    if (dashboard != null) {
      dashboard.close();
    }
    if (producer != null) {
      producer.close();
    }
    if (kafka != null) {
      kafka.close();
    }
    if (profile != null) {
      try (var s = Files.walk(profile)) {
        s.sorted(java.util.Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
      }
    }
  }

  static void verdict(NodeStatus v) {
    send(Topics.NODE_STATUS, Topics.nodeStatusKey(v.getPool(), v.getNode()), v);
  }

  static <V extends SpecificRecord> void send(TopicSpec<V> topic, String key, V value) {
    producer.send(new ProducerRecord<>(topic.name(), topic.key(key), topic.value(value)));
  }

  /**
   * The text of an element, read in one script: the page re-renders its tables every second, so
   * an element found by one WebDriver call may be gone by the next.
   */
  static String text(String id) {
    return (String) js("const e = document.getElementById(arguments[0]);"
        + " return e ? e.textContent : null;", id);
  }

  static Object js(String script, Object... args) {
    return ((JavascriptExecutor) browser).executeScript(script, args);
  }

  static void await(String what, java.util.function.Supplier<Boolean> condition) {
    new WebDriverWait(browser, WAIT).withMessage(() -> what + "; the server's snapshot: "
        + snapshotJson(dashboard)).until(d -> condition.get());
  }

  static String snapshotJson(Dashboard d) {
    try {
      return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(d.url()
          + "api/snapshot")).build(), HttpResponse.BodyHandlers.ofString()).body();
    } catch (Exception e) {
      return "(unavailable: " + e + ")";
    }
  }

  static void awaitText(String id, String expected) {
    await("#" + id + " shows " + expected, () -> expected.equals(text(id)));
  }

  /** The text of cell {@code td.cls} of the row of {@code table} whose {@code attr} is {@code value}. */
  static String cell(String table, String attr, String value, String cls) {
    return (String) js("for (const r of document.querySelectorAll('#' + arguments[0] + ' tbody tr')) {"
        + " if (r.getAttribute(arguments[1]) === arguments[2]) {"
        + "  const c = r.querySelector('td.' + arguments[3]); return c ? c.textContent : null; } }"
        + " return null;", table, attr, value, cls);
  }

  /** The first records: two nodes, three placements (one of a task named as markup), a completion. */
  static void firstRecords() {
    verdict(Records.verdict(POOL, "n1", "i1", NodeStatusType.REGISTERED, T, 2));
    verdict(Records.verdict(POOL, "n2", "i2", NodeStatusType.REGISTERED, T, 2));
    send(Topics.NODE_REPORTS, POOL, register(POOL, "n1", T, 2, 1_000_000_000L));
    send(Topics.NODE_REPORTS, POOL, register(POOL, "n2", T, 2, 1_000_000_000L));
    send(Topics.NODE_REPORTS, POOL, cacheDelta(POOL, "n1", T + 1,
        List.of(file("f1", 300_000_000L), file("f2", 200_000_000L)), List.of()));
    send(Topics.DECISIONS, "n1", place(POOL, "n1", "t1", T + 2, "MCH", 300_000_000L, 0, 0));
    send(Topics.DECISIONS, "n2", place(POOL, "n2", "t2", T + 2, "MCH", 0, 100_000_000L,
        300_000_000L));
    // XSS and XSS2 run on n1 with t1; XSS2 is placed and not yet STARTED: running all the same, as
    // the scheduler counts it
    send(Topics.DECISIONS, "n1", place(POOL, "n1", XSS, T + 3, "MCH", 0, 0, 0));
    send(Topics.DECISIONS, "n1", place(POOL, "n1", XSS2, T + 3, "MCH", 0, 0, 0));
    send(Topics.TASK_EVENTS, POOL, started(POOL, "n1", "t1", T + 4));
    send(Topics.TASK_EVENTS, POOL, started(POOL, "n2", "t2", T + 4));
    send(Topics.TASK_EVENTS, POOL, completed(POOL, "n1", "t1", T + 5, 600_000_000L,
        100_000_000L, 300_000_000L));
    send(Topics.TASK_EVENTS, POOL, started(POOL, "n1", XSS, T + 6));
    // the scheduler's counts per pending reason (issue 23): MCH holds two for their data holder
    // ... and its queues (issue 24): eng floods first and borrows, ml waits under its guarantee
    send(Topics.SCHEDULER_METRICS, POOL, SchedulerMetrics.newBuilder(metrics(POOL, T + 6, "MCH",
        3, 4)).setPendingByCode(Map.of("no-free-slot", 1L, "locality-wait", 2L))
        .setQueueUsage(List.of(queue("eng", 3, 0, 1, 0.75, 2, 2, 0),
            queue("ml", 0, 3, 2, 0, 2, 0, 0), queue("default", 0, 0, 0, 0, 0, 0, 0))).build());
    send(Topics.DEAD_LETTERS, "x", deadLetter("invalid", "timeMs <b>negative</b>", T + 7));
    producer.flush();
  }

  /**
   * While the page is open: another completion, eleven placements (ten of them beyond n2's two
   * slots: late binding, they wait in its local queue; one of EFT with 5.1 GB local and 6 B to
   * move), a lost node, an impostor of n2 (a copy of its agent, another instance) that the
   * scheduler refuses and whose LEAVE it refuses too, a dead letter.
   */
  static void moreRecords() {
    send(Topics.TASK_EVENTS, POOL, completed(POOL, "n2", "t2", T + 1000, 0, 0, 1_000_000_000L));
    for (int i = 3; i < 13; i++) {
      send(Topics.DECISIONS, "n2", place(POOL, "n2", "t" + i, T + 1000 + i, "MCH", 0, 0, 0));
    }
    send(Topics.DECISIONS, "n2", place(POOL, "n2", "eft", T + 1020, "EFT", 5_100_000_000L, 6,
        0));
    send(Topics.NODE_REPORTS, POOL, report(POOL, "n2", NodeReportType.HEARTBEAT, T + 20_000));
    // the scheduler declares n1 lost (its verdict; the page does not guess from silence)
    verdict(Records.verdict(POOL, "n1", "i1", NodeStatusType.LOST, T + 31_000, 0));
    // the impostor: its REGISTER and LEAVE are on node-reports, the scheduler refused it
    send(Topics.NODE_REPORTS, POOL, NodeReport.newBuilder(register(POOL, "n2", T + 32_000, 8,
        1_000_000_000L)).setInstanceId("copy").build());
    verdict(Records.verdict(POOL, "n2", "copy", NodeStatusType.REFUSED, T + 32_000, 0));
    verdict(Records.verdict(POOL, "n2", "i2", NodeStatusType.REGISTERED, T + 32_000, 2));
    send(Topics.NODE_REPORTS, POOL, NodeReport.newBuilder(report(POOL, "n2",
        NodeReportType.LEAVE, T + 33_000)).setInstanceId("copy").build());
    send(Topics.NODE_REPORTS, POOL, report(POOL, "n2", NodeReportType.HEARTBEAT, T + 40_000));
    // ml has reclaimed its guarantee (one eng attempt preempted)
    send(Topics.SCHEDULER_METRICS, POOL, SchedulerMetrics.newBuilder(metrics(POOL, T + 40_000,
        "MCH", 9, 14)).setPendingByCode(Map.of("paused", 9L))
        .setQueueUsage(List.of(queue("eng", 2, 5, 1, 0.5, 2, 1, 1),
            queue("ml", 2, 4, 2, 0.5, 2, 0, 0), queue("default", 0, 0, 0, 0, 0, 0, 0)))
        .setPendingReason("pool " + POOL + " is paused (PAUSE_POOL): 9 queued task(s) wait for "
            + "RESUME_POOL").build());
    send(Topics.DEAD_LETTERS, "x", deadLetter("forged", "bad signature", T + 40_001));
    producer.flush();
  }

  /** A top-level leaf queue's usage in a metrics record (limit 3 for eng, none otherwise). */
  static io.locus.schemas.QueueUsage queue(String name, int running, int pending,
      double guarantee, double share, double fairShare, double borrowed, long preempted) {
    return io.locus.schemas.QueueUsage.newBuilder().setQueue(name).setWeight(1)
        .setGuarantee(guarantee).setLimit("eng".equals(name) ? 3 : null).setRunning(running)
        .setPending(pending).setShare(share).setFairShare(fairShare).setBorrowed(borrowed)
        .setPreempted(preempted).build();
  }

  /** The queues chart's datasets: label → the y of each point, oldest first. */
  @SuppressWarnings("unchecked")
  static Map<String, List<Number>> queueLines() {
    return (Map<String, List<Number>>) js("const c = Chart.getChart('queues-chart');"
        + " const out = {}; if (!c) return out;"
        + " for (const d of c.data.datasets) out[d.label] = d.data.map(p => p.y);"
        + " return out;");
  }

  @Test
  void showsTheTopicsLiveSurvivesReloadAndRestartAndRendersMarkupAsText() throws Exception {
    firstRecords();
    browser.get(dashboard.url());
    awaitText("completed", "1");
    // Data is drawn, so the badge no longer says it is waiting (it said "connecting…" until the
    // first streamed event, issue 26); then the stream opens.
    assertThat(text("status")).isNotIn("loading…", "connecting…");
    awaitText("status", "live");
    awaitText("placements-total", "4");
    assertThat(text("hit-local")).isEqualTo("60.0%");
    assertThat(text("hit-peer")).isEqualTo("10.0%");
    assertThat(text("hit-storage")).isEqualTo("30.0%");
    assertThat(text("bytes-moved")).isEqualTo("400.0 MB");
    assertThat(text("alive-count")).isEqualTo("2");
    assertThat(text("lost-count")).isEqualTo("0");
    assertThat(text("dead-letters-total")).isEqualTo("1");
    assertThat(cell("pools", "data-pool", POOL, "queue")).isEqualTo("3");
    assertThat(cell("pools", "data-pool", POOL, "policy")).isEqualTo("MCH");
    assertThat(cell("nodes", "data-node", "n1", "slots")).isEqualTo("2 / 2");
    assertThat(cell("nodes", "data-node", "n2", "slots")).isEqualTo("1 / 2");
    assertThat(cell("pools", "data-pool", POOL, "running")).isEqualTo("3");
    assertThat(cell("pools", "data-pool", POOL, "busy")).isEqualTo("3 / 4");
    assertNodesAndPoolsAgree();
    // the scheduler's own figures (its metrics record), with their time
    assertThat(cell("pools", "data-pool", POOL, "scheduler")).startsWith("running 1, busy 1 / 4, 2 nodes at ");
    assertThat(cell("nodes", "data-node", "n1", "cache")).isEqualTo("500.0 MB / 1.0 GB (50.0%)");
    assertThat(cell("dead-codes", "data-code", "invalid", "count")).isEqualTo("1");
    assertThat(cell("dead-codes", "data-code", "invalid", "reason"))
        .isEqualTo("task-events: timeMs <b>negative</b>");
    // "why here": the policy, the local bytes, the bytes to move
    assertThat(cell("placements", "data-task", "t2", "move")).isEqualTo("400.0 MB");
    assertThat(cell("placements", "data-task", "t1", "local")).isEqualTo("300.0 MB");
    assertThat(cell("placements", "data-task", "t1", "policy")).isEqualTo("MCH");
    assertThat(cell("placements", "data-task", "t1", "node")).isEqualTo("n1");
    // the pending view: queued tasks per reason, in the codes' order, with what each means
    assertThat(cell("pending", "data-reason", POOL + "/locality-wait", "count")).isEqualTo("2");
    assertThat(cell("pending", "data-reason", POOL + "/locality-wait", "label"))
        .isEqualTo("waiting for a data holder");
    assertThat(cell("pending", "data-reason", POOL + "/no-free-slot", "count")).isEqualTo("1");
    assertThat(cell("pending", "data-reason", POOL + "/no-free-slot", "label"))
        .isEqualTo("waiting for a free slot");
    assertThat((String) js("return Array.from(document.querySelectorAll('#pending tbody td.code'))"
        + ".map(c => c.textContent).join(',')")).isEqualTo("locality-wait,no-free-slot");
    // the queues view (issue 24): each queue's usage against its guarantee and fair share
    assertThat(cell("queues", "data-queue", POOL + "/eng", "running")).isEqualTo("3");
    assertThat(cell("queues", "data-queue", POOL + "/eng", "limit")).isEqualTo("3");
    assertThat(cell("queues", "data-queue", POOL + "/eng", "guarantee")).isEqualTo("1");
    assertThat(cell("queues", "data-queue", POOL + "/eng", "share")).isEqualTo("75.0%");
    assertThat(cell("queues", "data-queue", POOL + "/eng", "fair")).isEqualTo("2");
    assertThat(cell("queues", "data-queue", POOL + "/eng", "borrowed")).isEqualTo("2");
    assertThat(cell("queues", "data-queue", POOL + "/ml", "running")).isEqualTo("0");
    assertThat(cell("queues", "data-queue", POOL + "/ml", "pending")).isEqualTo("3");
    assertThat(cell("queues", "data-queue", POOL + "/ml", "limit")).isEqualTo("–");
    assertThat((String) js("return document.querySelector('#queues tr[data-queue=\"' + arguments[0]"
        + " + '/ml\"]').className", POOL)).as("ml is owed slots").isEqualTo("owed");
    assertMarkupIsText();
    assertThat(((JavascriptExecutor) browser).executeScript("return typeof Chart"))
        .as("Chart.js from the WebJar").isEqualTo("function");
    await("the queues chart has eng's and ml's lines", () -> queueLines().containsKey(
        POOL + "/ml guarantee"));
    assertThat(queueLines()).containsEntry(POOL + "/eng running", List.of(3L))
        .containsEntry(POOL + "/eng fair share", List.of(2L))
        .containsEntry(POOL + "/ml running", List.of(0L))
        .containsEntry(POOL + "/ml guarantee", List.of(2L))
        .doesNotContainKey(POOL + "/default guarantee");

    // Live: new records change the page without a reload (SSE).
    Object version = ((JavascriptExecutor) browser).executeScript("return document.body.dataset.version");
    moreRecords();
    awaitText("completed", "2");
    awaitText("placements-total", "15");
    awaitText("lost-count", "1");
    await("n2 shows 2 / 2 +9 queued",
        () -> "2 / 2 +9 queued".equals(cell("nodes", "data-node", "n2", "slots")));
    assertNodesAndPoolsAgree();
    assertThat(cell("pools", "data-pool", POOL, "running")).isEqualTo("11");
    assertThat(cell("pools", "data-pool", POOL, "busy")).isEqualTo("2 / 2");
    // 5.1 GB local and 6 B to move: not "100.0%" (issue 26); the bytes to move say how little
    assertThat(cell("placements", "data-task", "eft", "score")).isEqualTo(">99.9%");
    assertThat(cell("placements", "data-task", "eft", "move")).isEqualTo("6 B");
    assertThat(cell("placements", "data-task", "eft", "local")).isEqualTo("5.1 GB");
    assertThat(cell("placements", "data-task", "t3", "score")).isEqualTo("100.0%");
    assertThat(((JavascriptExecutor) browser).executeScript("return document.body.dataset.version"))
        .isNotEqualTo(version);
    Map<String, String> shown = shownNumbers();
    assertThat(shown).containsEntry("hit-local", "30.0%").containsEntry("hit-storage", "65.0%")
        .containsEntry("bytes-moved", "1.4 GB").containsEntry("dead-letters-total", "2")
        .containsEntry("queue", "9").containsEntry("alive-count", "1");
    assertThat(cell("lost", "data-node", "n1", "node")).as("n1 in the lost table").isEqualTo("n1");
    assertThat(cell("nodes", "data-node", "n1", "state")).isEqualTo("lost");
    // issue 22: the impostor's refused LEAVE does not make the live n2 look gone
    assertThat(cell("nodes", "data-node", "n2", "state")).isEqualTo("alive");
    assertThat(cell("dead-codes", "data-code", "forged", "count")).isEqualTo("1");
    // the pending view follows the newest metrics: the pool is paused, with the pool-wide reason
    assertThat(cell("pending", "data-reason", POOL + "/paused", "count")).isEqualTo("9");
    assertThat(cell("pending", "data-reason", POOL + "/paused", "why"))
        .isEqualTo("pool " + POOL + " is paused (PAUSE_POOL): 9 queued task(s) wait for "
            + "RESUME_POOL");
    assertThat(cell("pending", "data-reason", POOL + "/locality-wait", "count")).isNull();
    // the queues follow the newest metrics, and the chart shows them over time
    assertThat(cell("queues", "data-queue", POOL + "/ml", "running")).isEqualTo("2");
    assertThat(cell("queues", "data-queue", POOL + "/eng", "preempted")).isEqualTo("1");
    assertThat(cell("queues", "data-queue", POOL + "/eng", "share")).isEqualTo("50.0%");
    assertThat((String) js("return document.querySelector('#queues tr[data-queue=\"' + arguments[0]"
        + " + '/ml\"]').className", POOL)).as("ml holds its guarantee").isEmpty();
    await("the queues chart has both samples", () -> List.of(0L, 2L).equals(
        queueLines().get(POOL + "/ml running")));
    assertThat(queueLines()).containsEntry(POOL + "/eng running", List.of(3L, 2L));
    screenshot();

    // Reload: the same numbers (the state lives in the server).
    browser.navigate().refresh();
    awaitText("completed", "2");
    assertThat(shownNumbers()).isEqualTo(shown);
    assertMarkupIsText();

    // A restarted dashboard rebuilds the same state from the topics.
    try (Dashboard again = Dashboard.start(ClientConfigs.base(kafka.bootstrapServers()),
        Dashboard.Options.defaults())) {
      assertThat(again.port()).isNotEqualTo(dashboard.port());
      JsonNode a = awaitCaughtUp(again);
      JsonNode b = awaitCaughtUp(dashboard);
      for (String f : List.of("placements", "completed", "bytesLocal", "bytesPeer",
          "bytesStorage", "deadLetters", "lostNodes", "aliveNodes")) {
        assertThat(a.get("totals").get(f)).as(f).isEqualTo(b.get("totals").get(f));
      }
      assertThat(a.get("nodes")).isEqualTo(b.get("nodes"));
      assertThat(a.get("placements")).isEqualTo(b.get("placements"));
    }

    // A drain (locus control ... drain) is the scheduler's verdict, shown as such.
    verdict(Records.verdict(POOL, "n2", "i2", NodeStatusType.DRAINING, T + 41_000, 2));
    producer.flush();
    await("n2 shows draining", () -> "draining".equals(cell("nodes", "data-node", "n2", "state")));
    assertNodesAndPoolsAgree();

    // A page that gets its snapshot but never the stream (blocked here, as a proxy might): the
    // badge says what it shows, the loaded snapshot, and never that it is live.
    org.openqa.selenium.chrome.ChromeDriver chrome = (org.openqa.selenium.chrome.ChromeDriver) browser;
    chrome.executeCdpCommand("Network.enable", Map.of());
    chrome.executeCdpCommand("Network.setBlockedURLs", Map.of("urls", List.of("*api/stream*")));
    try {
      browser.navigate().refresh();
      awaitText("completed", "2");
      await("the badge names the snapshot shown", () -> {
        String badge = text("status");
        return badge.startsWith("snapshot of ") || badge.startsWith("reconnecting… (showing ");
      });
      assertThat(text("status")).isNotEqualTo("live");
    } finally {
      chrome.executeCdpCommand("Network.setBlockedURLs", Map.of("urls", List.of()));
    }
  }

  /**
   * The Nodes panel's slots in use and slots, summed over the pool's members, are the Pools
   * panel's busy / slots, and its running attempts the pool's running: read in one script, so both
   * panels are of the same render.
   */
  @SuppressWarnings("unchecked")
  static void assertNodesAndPoolsAgree() {
    Map<String, Object> m = (Map<String, Object>) js(
        "let inUse = 0, slots = 0, rows = 0;"
        + " for (const r of document.querySelectorAll('#nodes tbody tr')) {"
        + "  if (r.dataset.pool !== arguments[0] || r.className === 'lost' || r.className === 'left') continue;"
        + "  rows++; inUse += Number(r.querySelector('td.slots').dataset.value);"
        + "  slots += Number(r.querySelector('td.slots').textContent.split(' / ')[1].split(' ')[0]); }"
        + " let pool = null;"
        + " for (const r of document.querySelectorAll('#pools tbody tr')) {"
        + "  if (r.dataset.pool === arguments[0]) pool = r; }"
        + " return { inUse: inUse, slots: slots, rows: rows,"
        + "  busy: pool.querySelector('td.busy').textContent,"
        + "  nodes: Number(pool.querySelector('td.nodes').textContent) };", POOL);
    assertThat(m.get("busy")).as("the Pools panel's busy / slots, against the Nodes panel: " + m)
        .isEqualTo(((Number) m.get("inUse")).longValue() + " / "
            + ((Number) m.get("slots")).longValue());
    assertThat(((Number) m.get("nodes")).longValue()).as("members").isEqualTo(
        ((Number) m.get("rows")).longValue());
  }

  static Map<String, String> shownNumbers() {
    Map<String, String> m = new LinkedHashMap<>();
    for (String id : List.of("placements-total", "completed", "failed", "hit-local", "hit-peer",
        "hit-storage", "bytes-moved", "alive-count", "lost-count", "dead-letters-total")) {
      m.put(id, text(id));
    }
    m.put("queue", cell("pools", "data-pool", POOL, "queue"));
    m.put("queues", cell("queues", "data-queue", POOL + "/ml", "running") + " "
        + cell("queues", "data-queue", POOL + "/eng", "preempted"));
    m.put("n1", cell("nodes", "data-node", "n1", "slots") + " " + cell("nodes", "data-node", "n1", "cache"));
    m.put("n2", cell("nodes", "data-node", "n2", "slots") + " " + cell("nodes", "data-node", "n2", "cache"));
    return m;
  }

  /** Task ids that are markup render as text: no element made of them, no script run. */
  static void assertMarkupIsText() {
    assertThat(cell("placements", "data-task", XSS, "task")).isEqualTo(XSS);
    assertThat(cell("placements", "data-task", XSS2, "task")).isEqualTo(XSS2);
    assertThat(browser.findElements(By.cssSelector("img"))).isEmpty();
    assertThat(browser.findElements(By.cssSelector("b"))).isEmpty();
    assertThat(((JavascriptExecutor) browser).executeScript("return document.body.dataset.pwned"))
        .isNull();
    // an alert(1) that ran would be open now
    assertThat(((JavascriptExecutor) browser).executeScript("return 1")).isEqualTo(1L);
  }

  static void screenshot() throws Exception {
    Path dir = Path.of("target", "screenshots");
    Files.createDirectories(dir);
    byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
    Files.write(dir.resolve("dashboard.png"), png);
    assertThat(png.length).isGreaterThan(10_000);
  }

  static JsonNode awaitCaughtUp(Dashboard d) throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    return Await.atMost(WAIT).pollEvery(Duration.ofMillis(100)).until(
        "the dashboard at " + d.url() + " to catch up", () -> {
          HttpResponse<String> r = http.send(HttpRequest.newBuilder(
              URI.create(d.url() + "api/snapshot")).build(), HttpResponse.BodyHandlers.ofString());
          assertThat(r.statusCode()).isEqualTo(200);
          return new ObjectMapper().readTree(r.body());
        }, s -> s.get("topics").get("caughtUp").asBoolean()
            && s.get("totals").get("completed").asLong() == 2);
  }

  @Test
  void servesOnLoopbackReadOnlyWithASecurityPolicy() throws Exception {
    assertThat(dashboard.url()).startsWith("http://127.0.0.1:");
    HttpClient http = HttpClient.newHttpClient();
    for (String path : List.of("", "api/snapshot", "dashboard.js")) {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(dashboard.url() + path))
          .build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(path).isEqualTo(200);
      assertThat(r.headers().firstValue("Content-Security-Policy")).as(path)
          .hasValue(DashboardServer.CSP);
      assertThat(r.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    }
    HttpResponse<String> lib = http.send(HttpRequest.newBuilder(URI.create(dashboard.url()
        + "lib/chart.umd.min.js")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(lib.statusCode()).isEqualTo(200);
    assertThat(lib.body()).contains("Chart");
    for (String method : List.of("POST", "PUT", "DELETE")) {
      HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(dashboard.url()
          + "api/snapshot")).method(method, HttpRequest.BodyPublishers.ofString("{}")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).as(method).isIn(404, 405);
    }
  }
}
