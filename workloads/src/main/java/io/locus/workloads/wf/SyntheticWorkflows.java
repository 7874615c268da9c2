package io.locus.workloads.wf;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Small workflows shaped like published WfCommons instances, made by the project itself (no
 * instance is copied from elsewhere). {@link WfInstanceWriter} writes them as WfFormat instances
 * of any version, which is how the tests and {@code locus experiment wfcommons} get their inputs.
 * Every size and runtime is a fixed function of the parameters: the same parameters give the same
 * workflow.
 */
public final class SyntheticWorkflows {
  private static final long MB = 1_000_000L;

  private SyntheticWorkflows() {}

  /**
   * BLAST-like: {@code split_fasta} cuts the query into {@code n} chunks; {@code n} {@code
   * blastall} tasks each read the one large database {@code nt} plus their own chunk and write a
   * result; {@code cat_blast} merges the results. The database is the data every task shares.
   */
  public static WfWorkflow blast(int n, long databaseBytes) {
    if (n < 1 || databaseBytes < 0) {
      throw new IllegalArgumentException("blast needs n >= 1 and a database size >= 0");
    }
    Map<String, Long> sizes = new LinkedHashMap<>();
    List<WfTask> tasks = new ArrayList<>();
    sizes.put("query.fasta", 2 * MB + 1234L * n);
    sizes.put("nt", databaseBytes);
    String split = id("split_fasta", 1);
    List<String> chunks = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      chunks.add("query.fasta." + i);
      sizes.put("query.fasta." + i, 50_000L + 997L * i);
    }
    tasks.add(new WfTask(split, split, "split_fasta", "compute", 2.5, List.of(),
        List.of("query.fasta"), chunks));
    List<String> blasts = new ArrayList<>();
    List<String> results = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String t = id("blastall", i + 2);
      String out = "query.fasta." + i + ".out";
      sizes.put(out, 200_000L + 3_001L * (i % 11));
      blasts.add(t);
      results.add(out);
      tasks.add(new WfTask(t, t, "blastall", "compute", 30.0 + 1.25 * (i % 7), List.of(split),
          List.of("nt", chunks.get(i)), List.of(out)));
    }
    String cat = id("cat_blast", n + 2);
    sizes.put("blast-result.out", 200_000L * n);
    tasks.add(new WfTask(cat, cat, "cat_blast", "compute", 4.75, blasts, results,
        List.of("blast-result.out")));
    return new WfWorkflow("blast-" + n, "BLAST-like synthetic workflow: " + n
        + " blastall tasks reading one " + databaseBytes + "-byte database", tasks, sizes);
  }

  /**
   * 1000Genome-like, multi-level with fan-in and fan-out and intermediate files. Per chromosome:
   * {@code individuals} tasks each read a chunk of the chromosome's data and the shared {@code
   * columns.txt} (level 0); {@code individuals_merge} gathers their outputs (fan-in, level 1);
   * {@code sifting} reads the chromosome's annotation (level 0); per population, {@code
   * mutation_overlap} and {@code frequency} read the merged file, the sifted file and the
   * population file (fan-out, level 2).
   */
  public static WfWorkflow genome(int chromosomes, int individuals, int populations) {
    if (chromosomes < 1 || individuals < 1 || populations < 1) {
      throw new IllegalArgumentException("genome needs at least one chromosome, individual task "
          + "and population");
    }
    Map<String, Long> sizes = new LinkedHashMap<>();
    List<WfTask> tasks = new ArrayList<>();
    int seq = 1;
    sizes.put("columns.txt", 20_000L);
    for (int p = 0; p < populations; p++) {
      sizes.put(pop(p), 2_000L + 100L * p);
    }
    for (int c = 1; c <= chromosomes; c++) {
      String data = "ALL.chr" + c + ".250000.vcf";
      sizes.put(data, 300 * MB + c * 7L * MB);
      List<String> parts = new ArrayList<>();
      List<String> indiv = new ArrayList<>();
      for (int j = 0; j < individuals; j++) {
        String t = id("individuals", seq++);
        String out = "chr" + c + "n-" + j + ".tar.gz";
        sizes.put(out, 15 * MB + 10_007L * j);
        tasks.add(new WfTask(t, t, "individuals", "compute", 120.0 + 3.5 * j + c,
            List.of(), List.of(data, "columns.txt"), List.of(out)));
        parts.add(out);
        indiv.add(t);
      }
      String merge = id("individuals_merge", seq++);
      String merged = "chr" + c + "n.tar.gz";
      sizes.put(merged, 15 * MB * individuals);
      tasks.add(new WfTask(merge, merge, "individuals_merge", "compute", 40.25 + c, indiv, parts,
          List.of(merged)));
      String annotation = "ALL.chr" + c + ".annotation.vcf";
      sizes.put(annotation, 80 * MB + c * MB);
      String sift = id("sifting", seq++);
      String sifted = "sifted.SIFT.chr" + c + ".txt";
      sizes.put(sifted, 2 * MB + c * 1_000L);
      tasks.add(new WfTask(sift, sift, "sifting", "compute", 15.5, List.of(),
          List.of(annotation), List.of(sifted)));
      for (int p = 0; p < populations; p++) {
        String overlap = id("mutation_overlap", seq++);
        String ov = "chr" + c + "-" + pop(p) + ".tar.gz";
        sizes.put(ov, 500_000L + p * 1_000L);
        tasks.add(new WfTask(overlap, overlap, "mutation_overlap", "compute", 33.0 + p,
            List.of(merge, sift), List.of(merged, sifted, pop(p)), List.of(ov)));
        String freq = id("frequency", seq++);
        String fr = "chr" + c + "-" + pop(p) + "-freq.tar.gz";
        sizes.put(fr, 700_000L + p * 1_000L);
        tasks.add(new WfTask(freq, freq, "frequency", "compute", 85.125 + p,
            List.of(merge, sift), List.of(merged, sifted, pop(p)), List.of(fr)));
      }
    }
    return new WfWorkflow("genome-" + chromosomes + "x" + individuals + "x" + populations,
        "1000Genome-like synthetic workflow: " + chromosomes + " chromosomes, " + individuals
            + " individuals tasks each, " + populations + " populations", tasks, sizes);
  }

  private static String pop(int p) {
    String[] names = {"AFR", "ALL", "AMR", "EAS", "EUR", "GBR", "SAS"};
    return p < names.length ? names[p] : "POP" + p;
  }

  private static String id(String category, int seq) {
    return String.format("%s_ID%07d", category, seq);
  }
}
