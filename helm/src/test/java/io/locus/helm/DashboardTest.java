package io.locus.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Grafana dashboard queries exactly the metric names the scheduler registers (the contract in
 * the shared facts) and the agents serve, and is shipped as a labelled ConfigMap.
 */
@Timeout(60)
class DashboardTest {
  static final String FLINK_PREFIX = "flink_taskmanager_job_task_operator_locus_";
  /**
   * The scheduler's metric names as Flink's Prometheus reporter writes them: the key of a
   * key-value group joins the name (group locus / pool POOL → {@code locus_pool_NAME{pool=...}};
   * locus / deadLetters / reason REASON → {@code locus_deadLetters_reason_count{reason=...}}), as
   * MetricsScrapeTest sees on a real scrape.
   */
  static final Set<String> SCHEDULER_METRICS = Stream.concat(Stream.of("placements",
      "placementsPerSecond", "completions", "failures", "queueLength", "runningTasks",
      "registeredNodes", "drainingNodes", "lostNodes", "decisionLatencyMs", "bytesLocal",
      "bytesPeer", "bytesStorage", "hitRatioLocal", "hitRatioPeer", "hitRatioStorage",
      "bytesToMove", "paused").map(n -> "pool_" + n), Stream.of("deadLetters_reason_count"))
      .collect(Collectors.toSet());

  @TempDir Path tmp;

  static List<String> expressions(JsonNode dashboard) {
    List<String> out = new ArrayList<>();
    dashboard.findValues("expr").forEach(e -> out.add(e.asText()));
    dashboard.findValues("query").forEach(e -> out.add(e.asText()));
    return out;
  }

  static Set<String> matches(List<String> exprs, Pattern p) {
    Set<String> out = new TreeSet<>();
    for (String e : exprs) {
      Matcher m = p.matcher(e);
      while (m.find()) {
        out.add(m.group(1));
      }
    }
    return out;
  }

  @Test
  void dashboardQueriesOnlyKnownMetricsAndCoversTheOperatorsQuestions() throws IOException {
    JsonNode dashboard = Chart.JSON.readTree(Chart.dir().resolve("dashboards/locus.json").toFile());
    List<String> exprs = expressions(dashboard);
    Set<String> scheduler = matches(exprs, Pattern.compile(FLINK_PREFIX + "([A-Za-z_]+)"));
    assertThat(SCHEDULER_METRICS).containsAll(scheduler);
    assertThat(scheduler).contains("pool_placements", "pool_queueLength",
        "pool_decisionLatencyMs", "pool_hitRatioLocal", "pool_hitRatioPeer", "pool_hitRatioStorage",
        "pool_bytesToMove", "deadLetters_reason_count", "pool_lostNodes");
    assertThat(exprs).anyMatch(e -> e.contains("decisionLatencyMs") && e.contains("quantile"));
    assertThat(exprs).anyMatch(e -> e.contains("deadLetters_reason_count") && e.contains("by (reason)"));
    assertThat(exprs).noneMatch(e -> e.matches(".*flink_[a-z_]*locus_[A-Za-z]+_total.*"));

    // Agent metrics: the names RealAgent's /metrics writes today.
    Set<String> agent = matches(exprs, Pattern.compile("(locus_agent_[a-z_]+)"));
    assertThat(agent).contains("locus_agent_tasks_running", "locus_agent_slots");
    Path realAgent = Chart.dir().getParent().getParent()
        .resolve("node-agent/src/main/java/io/locus/agent/real/RealAgent.java");
    String source = Files.readString(realAgent);
    for (String name : agent) {
      assertThat(source).as("agent metric %s", name).contains("\"" + name + "\"");
    }

    Set<Object> titles = new TreeSet<>();
    dashboard.path("panels").forEach(p -> titles.add(p.path("title").asText()));
    assertThat(titles).contains("Placements per second", "Queue length", "Decision latency",
        "Hit ratios (fraction of input bytes)", "Bytes to move", "Dead letters by reason", "Nodes",
        "Agent slots in use");
  }

  @Test
  void dashboardIsShippedVerbatimInALabelledConfigMap() throws IOException {
    JsonNode cm = Chart.template(null, tmp).named("ConfigMap", "prod-locus-dashboard");
    assertThat(cm.at("/metadata/labels/grafana_dashboard").asText()).isEqualTo("1");
    JsonNode shipped = Chart.JSON.readTree(cm.at("/data/locus.json").asText());
    assertThat(shipped).isEqualTo(Chart.JSON.readTree(Chart.dir().resolve("dashboards/locus.json").toFile()));
    assertThat(Chart.template(Chart.values("metrics: {dashboard: {enabled: false}}"), tmp)
        .ofKind("ConfigMap")).extracting(d -> d.at("/metadata/name").asText())
        .doesNotContain("prod-locus-dashboard");
  }
}
