package io.locus.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.core.model.InputFile;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code tenants} generator (issue 24): determinism, the flood, counts, shared data. */
class TenantsTest {
  @TempDir
  Path dir;

  private static List<TraceJob> tenants(Map<String, String> params, long seed) {
    return Workloads.create("tenants", params, seed).toList();
  }

  private static String workflow(TraceJob j) {
    return j.jobId().substring(0, j.jobId().indexOf('/'));
  }

  @Test
  void sameSeedSameTraceAnotherSeedOtherArrivals() {
    List<TraceJob> a = tenants(Map.of(), 5);
    assertThat(tenants(Map.of(), 5)).isEqualTo(a);
    List<TraceJob> b = tenants(Map.of(), 6);
    assertThat(b).isNotEqualTo(a);
    // the flood does not depend on the seed: tenant-1's 100 workflows at t = 0 either way (the
    // seed draws their shapes, so not their task counts)
    for (List<TraceJob> jobs : List.of(a, b)) {
      assertThat(jobs.stream().filter(j -> j.arrival() == 0).map(TenantsTest::workflow)
          .distinct()).hasSize(100).allMatch(w -> w.startsWith("tenant-1-w"));
    }
  }

  @Test
  void theFloodingTenantSubmitsFloodTimesItsShareAtZeroAndTheOthersLater() {
    List<TraceJob> jobs = tenants(Map.of("tenants", "3", "workflows", "5", "flood", "4",
        "shape", "blast", "width", "2", "start", "100", "rate", "0.05"), 9);
    Map<String, Long> perQueue = jobs.stream().collect(Collectors.groupingBy(TraceJob::queue,
        TreeMap::new, Collectors.counting()));
    // BLAST of width 2: split, 2 blastall, merge = 4 tasks a workflow
    assertThat(perQueue).containsExactlyEntriesOf(new TreeMap<>(Map.of(
        "tenant-1", 4L * 5 * 4, "tenant-2", 5L * 4, "tenant-3", 5L * 4)));
    Map<String, Set<String>> workflows = new TreeMap<>();
    jobs.forEach(j -> workflows.computeIfAbsent(j.queue(), q -> new TreeSet<>()).add(workflow(j)));
    assertThat(workflows.get("tenant-1")).hasSize(20).first().isEqualTo("tenant-1-w1");
    assertThat(workflows.get("tenant-2")).hasSize(5);
    // the burst: every job at t = 0 is tenant-1's, and all of tenant-1 is at t = 0, first
    assertThat(jobs.subList(0, 80)).allSatisfy(j -> {
      assertThat(j.queue()).isEqualTo("tenant-1");
      assertThat(j.arrival()).isZero();
    });
    assertThat(jobs.subList(80, jobs.size())).allSatisfy(j -> {
      assertThat(j.queue()).isNotEqualTo("tenant-1");
      assertThat(j.arrival()).isGreaterThan(100);
    });
    // every job names its tenant three ways: queue, attribute, id
    assertThat(jobs).allSatisfy(j -> {
      assertThat(j.attributes()).containsEntry("tenant", j.queue());
      assertThat(j.jobId()).startsWith(j.queue() + "-w");
      assertThat(j.pool()).isNull();
    });
    // a workflow's tasks arrive together; a steady tenant's workflows one after another
    Map<String, Double> arrivalOf = new LinkedHashMap<>();
    jobs.forEach(j -> assertThat(arrivalOf.computeIfAbsent(workflow(j), w -> j.arrival()))
        .isEqualTo(j.arrival()));
    List<Double> t2 = arrivalOf.entrySet().stream().filter(e -> e.getKey().startsWith("tenant-2-"))
        .map(Map.Entry::getValue).toList();
    assertThat(t2).hasSize(5).isSorted().doesNotHaveDuplicates();
    TraceDag.check(jobs, "tenants");
  }

  @Test
  void rateZeroSubmitsTheOthersAllAtStart() {
    List<TraceJob> jobs = tenants(Map.of("tenants", "2", "workflows", "2", "flood", "3",
        "rate", "0", "start", "30", "shape", "genome", "width", "1"), 1);
    // 1000Genome with one individuals task: individuals, merge, sifting, 2 x 2 per population
    assertThat(jobs).hasSize((3 * 2 + 2) * 7);
    assertThat(jobs.stream().filter(j -> j.queue().equals("tenant-2")).map(TraceJob::arrival))
        .containsOnly(30.0);
  }

  @Test
  void aTenantsWorkflowsShareItsReferenceDataAndOverlapSharesItAcrossTenants() {
    Map<String, String> p = new HashMap<>(Map.of("tenants", "3", "workflows", "4", "flood", "2",
        "shape", "blast", "width", "3", "database", "2GB"));
    List<TraceJob> disjoint = tenants(p, 3);
    assertThat(ids(disjoint, "tenant-2")).contains("tenant-2/nt")
        .contains("tenant-2-w1/query.fasta", "tenant-2-w4/query.fasta.2")
        .noneMatch(id -> id.startsWith("shared/") || id.startsWith("tenant-3"));
    // the database is read by every blastall task of the tenant, one file of 2 GB
    assertThat(disjoint.stream().filter(j -> j.queue().equals("tenant-3"))
        .flatMap(j -> j.inputs().stream()).filter(f -> f.id().endsWith("/nt")))
        .hasSize(4 * 3).containsOnly(InputFile.of("tenant-3/nt", 2_000_000_000L));

    p.put("overlap", "1");
    List<TraceJob> same = tenants(p, 3);
    for (String t : List.of("tenant-1", "tenant-2", "tenant-3")) {
      assertThat(ids(same, t)).contains("shared/nt").noneMatch(id -> id.equals(t + "/nt"));
    }
    p.put("overlap", "0.5");
    p.put("workflows", "20");
    Set<String> databases = new TreeSet<>();
    tenants(p, 3).forEach(j -> j.inputs().stream().map(InputFile::id)
        .filter(id -> id.endsWith("/nt")).forEach(databases::add));
    assertThat(databases).containsExactly("shared/nt", "tenant-1/nt", "tenant-2/nt",
        "tenant-3/nt");
  }

  @Test
  void genomeReferenceDataIsTheFilesSeveralTasksRead() {
    List<TraceJob> jobs = tenants(Map.of("tenants", "2", "workflows", "2", "flood", "1",
        "shape", "genome", "width", "3"), 2);
    assertThat(ids(jobs, "tenant-2")).contains("tenant-2/ALL.chr1.250000.vcf",
        "tenant-2/columns.txt", "tenant-2/AFR", "tenant-2/ALL",
        // read by one task (sifting): the workflow's own
        "tenant-2-w1/ALL.chr1.annotation.vcf", "tenant-2-w2/ALL.chr1.annotation.vcf");
    // one id, one size, whoever reads it
    Map<String, Long> sizes = new HashMap<>();
    jobs.forEach(j -> j.inputs().forEach(f -> assertThat(sizes.computeIfAbsent(f.id(),
        k -> f.bytes())).as(f.id()).isEqualTo(f.bytes())));
  }

  @Test
  void mixDrawsBothShapesAndTheTraceRoundTrips() throws Exception {
    Workload w = Workloads.create("tenants", Map.of(), 4);
    assertThat(w.size()).isEqualTo(w.toList().size());
    assertThat(w.toList().stream().map(j -> j.attributes().get("workflow")).distinct())
        .containsExactlyInAnyOrder("blast-8", "genome-1x8x2");
    assertThat(w.description()).contains("4 tenants' mix workflows", "tenant-1 floods with 100");
    Path out = dir.resolve("tenants.jsonl.gz");
    TraceWriter.write(out, w);
    assertThat(TraceReader.readAll(out).toList()).isEqualTo(w.toList());
  }

  @Test
  void badParametersAreRefusedWithTheReason() {
    assertThatThrownBy(() -> tenants(Map.of("tenants", "1"), 1))
        .hasMessageContaining("tenants must be >= 2 (one floods), got 1")
        .hasMessageContaining("Parameters of tenants: tenants=4");
    assertThatThrownBy(() -> tenants(Map.of("overlap", "1.5"), 1))
        .hasMessageContaining("overlap must be in [0, 1], got 1.5");
    assertThatThrownBy(() -> tenants(Map.of("shape", "montage"), 1))
        .hasMessageContaining("parameter 'shape' must be one of");
    assertThatThrownBy(() -> tenants(Map.of("rate", "-1"), 1))
        .hasMessageContaining("rate must be a finite number >= 0 workflows/s, got -1.0");
  }

  private static List<String> ids(List<TraceJob> jobs, String queue) {
    return jobs.stream().filter(j -> j.queue().equals(queue)).flatMap(j -> j.inputs().stream())
        .map(InputFile::id).distinct().toList();
  }
}
