package io.locus.sim.cern;

import java.util.List;
import picocli.CommandLine.Option;

/** Options of the CERN experiments ({@code locus experiment cern-*}), mixed into the command. */
public final class CernOptions {
  @Option(names = "--policies", split = ",", paramLabel = "VARIANT",
      description = {"cern: policy variants, comma-separated. A variant is a policy name, "
          + "optionally with parameters after ':' (e.g. OUT_OF_ORDER:replication=true, "
          + "DELAYED:period=1d:stripe=2500). Default: the experiment's own set.",
          "wfcommons: file policies (FA, FCA, MCU, MCH, GCC, COMPLEMENTARY_PLACE). Default: the "
              + "data-diffusion five.",
          "fairness: the data-aware policies compared with FIFO and fair share. Default: MCH, EFT."})
  public List<String> policies;

  @Option(names = "--caches-gb", split = ",", paramLabel = "GB",
      description = "cern: per-node cache sizes in GB. Default: the experiment's (50,100,200).")
  public List<Double> cachesGb;

  @Option(names = "--jobs", defaultValue = "20000",
      description = "cern: arrivals per run (spec: >= 20,000). Default: ${DEFAULT-VALUE}.")
  public int jobs;

  @Option(names = "--nodes", defaultValue = "10",
      description = "cern: processing nodes n. Default: ${DEFAULT-VALUE}. wfcommons: nodes of "
          + "the cluster. Default: per instance, its widest DAG level / slots (at most 64).")
  public int nodes;

  // --load-step, beside --load and --max-load: the bench's --step is how long each rate runs.
  @Option(names = "--load-step", defaultValue = "0.05", paramLabel = "JOBS_PER_H",
      description = "cern: load grid step in jobs/h (spec: 0.05). Default: ${DEFAULT-VALUE}.")
  public double step;

  @Option(names = "--max-load", defaultValue = "20",
      description = "cern: stop the scan here even if still sustainable. Default: ${DEFAULT-VALUE}.")
  public double maxLoad;

  @Option(names = "--load", defaultValue = "1.0",
      description = "cern-point: the load (jobs/h) of the single run. Default: ${DEFAULT-VALUE}.")
  public double load;

  @Option(names = "--all-seeds",
      description = "cern: run every seed of a grid point even after its majority is settled.")
  public boolean allSeeds;

  @Option(names = "--threads", defaultValue = "2",
      description = "cern: seeds simulated in parallel. Default: ${DEFAULT-VALUE}.")
  public int threads;

  @Option(names = "--space", defaultValue = "3333333",
      description = "cern: D, events in the data space. Default: ${DEFAULT-VALUE}.")
  public long space;

  @Option(names = "--uniform", description = "cern: uniform job starts (hot spots off).")
  public boolean uniform;

  @Option(names = "--lmax-table", paramLabel = "d:L,...",
      description = "cern-e7: calibrated Lmax of DELAYED per period (from cern-e4), e.g. "
          + "0:1.2,6h:1.5,1d:2.0,2d:2.3")
  public String lmaxTable;

  @Option(names = "--node-counts", split = ",", paramLabel = "N",
      description = "cern-e12: pool sizes n (D30: 10,20,50,100,200,500,1000). Default: "
          + "10,20,50,100,200.")
  public List<Integer> nodeCounts;

  @Option(names = "--measure-cpu",
      description = "cern: measure scheduler CPU time (master load); on by default for e12.")
  public boolean measureCpu;
}
