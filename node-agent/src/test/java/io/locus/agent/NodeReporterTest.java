package io.locus.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.CachedFile;
import io.locus.schemas.NodeReport;
import io.locus.schemas.NodeReportType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeReporterTest {
  private final RecordingOutput out = new RecordingOutput();
  private boolean draining;
  private final NodeReporter reporter = new NodeReporter(
      AgentConfig.builder("p", "n1").slots(3).cacheCapacityBytes(500).build(),
      new ManualScheduler(), out, "sim://n1", () -> draining, "i-1");

  @Test
  void anEmptyCacheRegistersWithoutASnapshot() {
    reporter.register(Map.of());
    assertThat(out.reports).extracting(NodeReport::getType)
        .containsExactly(NodeReportType.REGISTER);
    NodeReport r = out.reports.get(0);
    assertThat(r.getSlots()).isEqualTo(3);
    assertThat(r.getCacheCapacityBytes()).isEqualTo(500);
    assertThat(r.getEndpoint()).isEqualTo("sim://n1");
    assertThat(r.getSeq()).isZero();
  }

  @Test
  void aWarmCacheIsSnapshotInRegisterAtSeqZero() {
    Map<String, Long> files = new LinkedHashMap<>();
    files.put("a", 1L);
    files.put("b", 2L);
    reporter.register(files);
    assertThat(out.reports).extracting(NodeReport::getType)
        .containsExactly(NodeReportType.REGISTER);
    assertThat(out.reports.get(0).getAdded())
        .containsExactly(new CachedFile("a", 1L), new CachedFile("b", 2L));
    assertThat(out.reports.get(0).getSeq()).isZero();
  }

  @Test
  void deltasAreSentOnlyWithAChangeAndTheirSeqHasNoGaps() {
    CacheDelta d = new CacheDelta();
    reporter.send(d);
    assertThat(out.reports).isEmpty();

    d.add("a", 1);
    reporter.send(d);
    assertThat(d.isEmpty()).as("sent changes are not sent again").isTrue();
    reporter.send(d);
    d.remove("a");
    reporter.send(d);
    draining = true;
    reporter.heartbeat();

    List<NodeReport> deltas = out.reports(NodeReportType.CACHE_DELTA);
    assertThat(deltas).extracting(NodeReport::getSeq).containsExactly(1L, 2L);
    assertThat(deltas.get(1).getRemoved()).containsExactly("a");
    NodeReport hb = out.reports(NodeReportType.HEARTBEAT).get(0);
    assertThat(hb.getSeq()).isEqualTo(2);
    assertThat(hb.getDraining()).isTrue();
    assertThat(reporter.seq()).isEqualTo(2);
  }
}
