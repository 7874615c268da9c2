package io.locus.workloads;

import io.locus.core.model.InputFile;
import io.locus.workloads.wf.SyntheticWorkflows;
import io.locus.workloads.wf.WfJobs;
import io.locus.workloads.wf.WfTask;
import io.locus.workloads.wf.WfWorkflow;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Several tenants submitting WfCommons-shaped workflows to one pool, one of which floods it first:
 * the workload of issue 24's fairness/locality experiment (item 5). Every job carries its tenant
 * as its {@link TraceJob#queue()}.
 *
 * <ul>
 *   <li><b>Tenants</b> {@code tenant-1} … {@code tenant-<tenants>}. {@code tenant-1} floods: its
 *       {@code flood × workflows} workflows all arrive at t = 0, before anyone else. Every other
 *       tenant submits {@code workflows} workflows, arriving as a Poisson process of {@code rate}
 *       workflows per second from {@code start} on (rate 0: all at {@code start}).
 *   <li><b>Workflows</b> are {@link SyntheticWorkflows}' shapes: BLAST ({@code width} blastall
 *       tasks reading one {@code database}-byte database; width + 2 tasks) or 1000Genome (one
 *       chromosome, {@code width} individuals tasks, two populations; width + 6 tasks). {@code
 *       shape} mix draws each workflow's shape from the seed (even odds). Each workflow is the
 *       instance {@code <tenant>-w<k>} (k from 1): job ids {@code <tenant>-w<k>/<task id>}, and
 *       all its tasks arrive with it (its DAG orders them, as WfCommons replays do).
 *   <li><b>Shared data.</b> A workflow's <i>reference data</i> are its inputs that no task writes
 *       and at least two tasks read (BLAST's database; 1000Genome's chromosome data, columns file
 *       and population files). They belong to the tenant, not the workflow: every workflow of
 *       tenant t reads {@code t/<file>}, so a tenant's workflows share them and reward a policy
 *       that keeps them cached. With probability {@code overlap} a workflow instead reads the copy
 *       that every tenant shares, {@code shared/<file>}: overlap 0 = tenants' data disjoint, 1 =
 *       every tenant reads the same data. Its other files (inputs read once, intermediate files)
 *       are its own, {@code <tenant>-w<k>/<file>}.
 * </ul>
 *
 * <p>The seed feeds three independent streams (arrivals, shapes, overlap draws), so changing the
 * rate keeps the same shapes and data choices. The same seed and options give the same trace.
 */
public final class Tenants {
  /** The workflows' shapes. */
  public enum Shape {
    BLAST, GENOME, MIX
  }

  /**
   * The generator's settings (the registry's parameters).
   *
   * @param tenants tenants, ≥ 2 (one floods, the others share what is left)
   * @param workflows workflows of each steady tenant, ≥ 1
   * @param flood the flooding tenant submits this many times {@code workflows}, ≥ 1
   * @param shape the workflows' shape
   * @param width BLAST's blastall tasks, 1000Genome's individuals tasks, ≥ 1
   * @param databaseBytes BLAST's database size, bytes
   * @param rate each steady tenant's workflows per second (Poisson); 0 = all at {@code start}
   * @param start when the steady tenants start submitting, seconds ≥ 0
   * @param overlap probability that a workflow reads the data all tenants share, in [0, 1]
   */
  public record Options(int tenants, int workflows, int flood, Shape shape, int width,
      long databaseBytes, double rate, double start, double overlap) {
    public Options {
      if (tenants < 2) {
        throw new IllegalArgumentException("tenants must be >= 2 (one floods), got " + tenants);
      }
      if (workflows < 1 || flood < 1 || width < 1) {
        throw new IllegalArgumentException("workflows, flood and width must be >= 1, got "
            + workflows + ", " + flood + ", " + width);
      }
      if ((long) flood * workflows > 1_000_000) {
        throw new IllegalArgumentException("flood x workflows must be at most 1,000,000, got "
            + (long) flood * workflows);
      }
      if (shape == null) {
        throw new IllegalArgumentException("shape is required");
      }
      if (databaseBytes < 0) {
        throw new IllegalArgumentException("database must be >= 0 bytes, got " + databaseBytes);
      }
      if (!(rate >= 0) || Double.isInfinite(rate)) {
        throw new IllegalArgumentException("rate must be a finite number >= 0 workflows/s, got "
            + rate);
      }
      if (!(start >= 0) || Double.isInfinite(start)) {
        throw new IllegalArgumentException("start must be finite and >= 0 s, got " + start);
      }
      if (!(overlap >= 0 && overlap <= 1)) {
        throw new IllegalArgumentException("overlap must be in [0, 1], got " + overlap);
      }
    }

    public static Options defaults() {
      return new Options(4, 10, 10, Shape.MIX, 8, 1_000_000_000L, 0.01, 60, 0.0);
    }
  }

  /** The prefix of the data every tenant shares. */
  public static final String SHARED = "shared";

  private Tenants() {}

  /** Tenant {@code i}'s name (and queue), 1-based; {@code tenant(1)} floods. */
  public static String tenant(int i) {
    return "tenant-" + i;
  }

  public static Workload workload(Options o, long seed) {
    SplittableRandom root = new SplittableRandom(seed);
    SplittableRandom arrivals = root.split();
    SplittableRandom shapes = root.split();
    SplittableRandom overlaps = root.split();
    List<TraceJob> jobs = new ArrayList<>();
    for (int t = 1; t <= o.tenants(); t++) {
      String tenant = tenant(t);
      int n = t == 1 ? o.flood() * o.workflows() : o.workflows();
      double at = t == 1 ? 0 : o.start();
      for (int k = 1; k <= n; k++) {
        if (t > 1 && o.rate() > 0) {
          at += -Math.log(1 - arrivals.nextDouble()) / o.rate();
        }
        boolean blast = switch (o.shape()) {
          case BLAST -> true;
          case GENOME -> false;
          case MIX -> shapes.nextBoolean();
        };
        WfWorkflow wf = blast ? SyntheticWorkflows.blast(o.width(), o.databaseBytes())
            : SyntheticWorkflows.genome(1, o.width(), 2);
        String owner = overlaps.nextDouble() < o.overlap() ? SHARED : tenant;
        jobs.addAll(workflow(wf, tenant + "-w" + k, tenant, owner, at));
      }
    }
    jobs.sort(Comparator.comparingDouble(TraceJob::arrival)); // stable: tenant, then DAG order
    String description = String.format(java.util.Locale.ROOT, "%d tenants' %s workflows:"
        + " %s floods with %d at t = 0, the others submit %d each at %s/s from t = %s;"
        + " overlap %s", o.tenants(), o.shape().name().toLowerCase(java.util.Locale.ROOT),
        tenant(1), o.flood() * o.workflows(), o.workflows(), o.rate(), o.start(), o.overlap());
    return Workload.of("tenants", description, jobs);
  }

  /**
   * One workflow's jobs as {@code instance}, in queue {@code tenant}, arriving at {@code at}, its
   * reference data renamed {@code <owner>/<file>}.
   */
  private static List<TraceJob> workflow(WfWorkflow wf, String instance, String tenant,
      String owner, double at) {
    Set<String> reference = reference(wf);
    Map<String, String> rename = new HashMap<>();
    for (String f : reference) {
      rename.put(instance + "/" + f, owner + "/" + f);
    }
    List<TraceJob> out = new ArrayList<>();
    for (TraceJob j : WfJobs.jobs(wf, instance, 1.0)) {
      Map<String, String> attrs = new LinkedHashMap<>(j.attributes());
      attrs.put("tenant", tenant);
      out.add(new TraceJob(j.jobId(), null, at, renamed(j.inputs(), rename), j.computeSeconds(),
          0, attrs, null, j.parents(), j.outputs(), null, List.of(), null, null, tenant));
    }
    return out;
  }

  /** Inputs no task writes and at least two tasks read. */
  static Set<String> reference(WfWorkflow wf) {
    Set<String> written = new HashSet<>();
    Map<String, Integer> readers = new HashMap<>();
    for (WfTask t : wf.tasks()) {
      written.addAll(t.outputs());
      for (String f : new HashSet<>(t.inputs())) {
        readers.merge(f, 1, Integer::sum);
      }
    }
    Set<String> out = new HashSet<>();
    readers.forEach((f, n) -> {
      if (n >= 2 && !written.contains(f)) {
        out.add(f);
      }
    });
    return out;
  }

  private static List<InputFile> renamed(List<InputFile> files, Map<String, String> rename) {
    List<InputFile> out = new ArrayList<>(files.size());
    for (InputFile f : files) {
      String id = rename.get(f.id());
      out.add(id == null ? f : new InputFile(id, f.bytes(), f.computeSeconds(), f.location(),
          f.checksum()));
    }
    return out;
  }
}
