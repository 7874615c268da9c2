package io.locus.cli.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.locus.connectors.DeliveryMode;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code locus chaos}: a workload through real processes (a child broker, {@code locus run} as a
 * child JVM, simulated agents in child JVMs) while a seeded schedule of failures is injected; then
 * every task is checked placed, started and effectively completed once (exactly-once: run once),
 * and the injections with a verdict of their own are judged. Exit 0 only when every check holds.
 * docs/reliability.md, "locus chaos".
 */
@Command(name = "chaos", mixinStandardHelpOptions = true,
    description = "Run a workload through a real broker, scheduler and agents while injecting "
        + "failures (scheduler, agent and broker kill -9, node loss, savepoint + rescale, a "
        + "clock-skewed node, a forging node); check every task completed effectively once.")
public final class ChaosCommand implements Callable<Integer> {
  /** Every kind, in the order of the docs. TaskManager loss is not reachable from outside. */
  static final List<FailureKind> ALL = List.of(FailureKind.values());

  @Spec CommandSpec spec;

  @Option(names = "--tasks", defaultValue = "2000",
      description = "Tasks per delivery mode (one task per job). Default: ${DEFAULT-VALUE}.")
  int tasks;

  @Option(names = "--failures", defaultValue = "10",
      description = "Failures injected per delivery mode, spread over 10-85 %% of the tasks' "
          + "completions. Default: ${DEFAULT-VALUE}.")
  int failures;

  @Option(names = "--kinds", split = ",", paramLabel = "KIND[,KIND...]",
      defaultValue = "scheduler-kill,agent-kill,broker-kill,node-lost,rescale,clock-skew,forge",
      description = "Failure kinds, used in turn in a seeded order: scheduler-kill, agent-kill, "
          + "broker-kill, node-lost, rescale, clock-skew, forge. Default: all.")
  List<String> kinds;

  @Option(names = "--seed", defaultValue = "42",
      description = "Seed of the workload and the failure schedule. Default: ${DEFAULT-VALUE}.")
  long seed;

  @Option(names = "--delivery", defaultValue = "both", paramLabel = "MODE",
      description = "at-least-once, exactly-once or both (one after the other). "
          + "Default: ${DEFAULT-VALUE}.")
  String delivery;

  @Option(names = "--nodes", defaultValue = "16",
      description = "Simulated nodes. Default: ${DEFAULT-VALUE}.")
  int nodes;

  @Option(names = "--agent-processes", defaultValue = "4", paramLabel = "N",
      description = "Child JVMs the nodes are spread over (agent-kill and node-lost kill one). "
          + "Default: ${DEFAULT-VALUE}.")
  int agentProcesses;

  @Option(names = "--slots", defaultValue = "2",
      description = "Slots per node. Default: ${DEFAULT-VALUE}.")
  int slots;

  @Option(names = "--time-scale", defaultValue = "0.02",
      description = "Modelled time per real time of the simulated agents. "
          + "Default: ${DEFAULT-VALUE}.")
  double timeScale;

  @Option(names = "--policy", defaultValue = "MCH",
      description = "Scheduling policy. Default: ${DEFAULT-VALUE}.")
  String policy;

  @Option(names = "--rate", defaultValue = "100",
      description = "Jobs published per second. Default: ${DEFAULT-VALUE}.")
  double rate;

  @Option(names = "--node-timeout", defaultValue = "PT15S", paramLabel = "DURATION",
      description = "The scheduler's --node-timeout (a node lost for good is declared lost after "
          + "it). Default: ${DEFAULT-VALUE}.")
  Duration nodeTimeout;

  @Option(names = "--checkpoint-interval", defaultValue = "PT1S", paramLabel = "DURATION",
      description = "The scheduler's checkpoint interval. Default: ${DEFAULT-VALUE}.")
  Duration checkpointInterval;

  @Option(names = "--timeout", defaultValue = "PT20M", paramLabel = "DURATION",
      description = "Give up on a delivery mode after this long. Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  @Option(names = "--scheduler-heap-mb", defaultValue = "1024", paramLabel = "MB",
      description = "Heap of the locus run child. Default: ${DEFAULT-VALUE}.")
  int schedulerHeapMb;

  @Option(names = "--agent-heap-mb", defaultValue = "384", paramLabel = "MB",
      description = "Heap of each agent child. Default: ${DEFAULT-VALUE}.")
  int agentHeapMb;

  @Option(names = "--out", defaultValue = "chaos-out", paramLabel = "DIR",
      description = "Where summary.json, summary.csv, failures.csv, the processes' logs and "
          + "state go. Default: ${DEFAULT-VALUE}.")
  Path out;

  @Override
  public Integer call() throws Exception {
    List<FailureKind> ks = new ArrayList<>();
    try {
      for (String k : kinds) {
        if (!k.isBlank()) {
          ks.add(FailureKind.of(k));
        }
      }
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--kinds: " + e.getMessage());
    }
    List<DeliveryMode> modes = switch (delivery.toLowerCase(Locale.ROOT)) {
      case "both" -> List.of(DeliveryMode.AT_LEAST_ONCE, DeliveryMode.EXACTLY_ONCE);
      case "at-least-once" -> List.of(DeliveryMode.AT_LEAST_ONCE);
      case "exactly-once" -> List.of(DeliveryMode.EXACTLY_ONCE);
      default -> throw new ParameterException(spec.commandLine(),
          "--delivery must be at-least-once, exactly-once or both, not " + delivery);
    };
    if (tasks < 1 || nodes < 1 || slots < 1 || rate <= 0 || agentProcesses < 1
        || agentProcesses > nodes) {
      throw new ParameterException(spec.commandLine(), "--tasks, --nodes, --slots and --rate "
          + "must be positive and --agent-processes between 1 and --nodes");
    }
    List<FailureSchedule.Planned> plan;
    try {
      plan = FailureSchedule.plan(failures, ks, seed);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    long lose = plan.stream().filter(p -> p.kind() == FailureKind.NODE_LOST).count();
    if (lose > agentProcesses - 1) {
      throw new ParameterException(spec.commandLine(), "the schedule loses " + lose
          + " agent process(es) for good (node-lost) but only " + (agentProcesses - 1)
          + " of --agent-processes " + agentProcesses + " may go (one must stay)");
    }
    PrintWriter o = spec.commandLine().getOut();
    o.println("locus chaos: " + tasks + " tasks, " + nodes + " nodes x " + slots + " slots, "
        + policy + ", seed " + seed + "; schedule: " + describe(plan));
    o.println("locus chaos: TaskManager loss is not injected: the scheduler child runs its "
        + "TaskManager in its own JVM (MiniCluster), out of reach of another process "
        + "(FailureInjectionSystemTest covers it in-JVM)");
    o.flush();
    ChaosRun.Settings settings = new ChaosRun.Settings(tasks, nodes, agentProcesses, slots,
        timeScale, policy, rate, nodeTimeout, checkpointInterval, timeout, seed, schedulerHeapMb,
        agentHeapMb);
    long start = System.nanoTime();
    List<ChaosRun.Result> results = new ArrayList<>();
    for (DeliveryMode m : modes) {
      results.add(new ChaosRun(settings, m, plan, out.resolve(ChaosRun.label(m)), o).run());
    }
    double wall = (System.nanoTime() - start) / 1e9;
    write(results, settings, wall);
    boolean passed = results.stream().allMatch(ChaosRun.Result::passed);
    o.println(summary(results, wall));
    o.println("locus chaos: " + (passed ? "PASSED" : "FAILED") + "; wrote "
        + out.resolve("summary.json") + ", summary.csv, failures.csv");
    o.flush();
    return passed ? 0 : 1;
  }

  static String describe(List<FailureSchedule.Planned> plan) {
    List<String> parts = new ArrayList<>();
    for (var p : plan) {
      parts.add(p.kind().label() + String.format(Locale.ROOT, "@%.0f%%", p.at() * 100));
    }
    return parts.isEmpty() ? "no failures" : String.join(", ", parts);
  }

  /** The human summary: one block per delivery mode. */
  static String summary(List<ChaosRun.Result> results, double wall) {
    StringBuilder b = new StringBuilder();
    for (ChaosRun.Result r : results) {
      b.append(String.format(Locale.ROOT, "%n== %s: %s ==%n", r.delivery(),
          r.passed() ? "PASSED" : "FAILED"));
      b.append(String.format(Locale.ROOT, "tasks %d, placed %d, completed effectively once %d, "
              + "lost %d, effective duplicates %d, executed twice %d%s, dead-lettered "
              + "completions %d, cancels %d, scheduler completions %d; %.1f s%n", r.tasks(),
          r.placed(), r.completed(), r.lost(), r.effectiveDuplicates(), r.executedTwice(),
          r.delivery().equals("exactly-once") ? " (must be 0)" : " (allowed)",
          r.deadLetteredCompletions(), r.cancels(), r.schedulerCompletions(), r.wallSeconds()));
      Map<String, Integer> byKind = new LinkedHashMap<>();
      for (ChaosRun.Injected i : r.failures()) {
        byKind.merge(i.kind(), 1, Integer::sum);
      }
      b.append("failures injected: ").append(r.failures().size()).append(' ').append(byKind)
          .append('\n');
      for (ChaosRun.Injected i : r.failures()) {
        b.append(String.format(Locale.ROOT, "  %6.1f s  %-14s at %d completed: %s%n",
            i.atSeconds(), i.kind(), i.atCompleted(), i.detail()));
      }
      if (!r.nodesLost().isEmpty()) {
        b.append("nodes declared lost: ").append(r.nodesLost()).append('\n');
      }
      for (String p : r.problems()) {
        b.append("PROBLEM: ").append(p).append('\n');
      }
    }
    b.append(String.format(Locale.ROOT, "wall time %.1f s", wall));
    return b.toString();
  }

  private void write(List<ChaosRun.Result> results, ChaosRun.Settings settings, double wall)
      throws IOException {
    Files.createDirectories(out);
    Map<String, Object> json = new LinkedHashMap<>();
    Map<String, Object> set = new LinkedHashMap<>();
    for (var c : ChaosRun.Settings.class.getRecordComponents()) {
      try {
        Object v = c.getAccessor().invoke(settings);
        set.put(c.getName(), v instanceof Duration ? v.toString() : v);
      } catch (ReflectiveOperationException e) {
        throw new IllegalStateException(e);
      }
    }
    json.put("settings", set);
    json.put("kinds", kinds);
    json.put("failuresPerMode", failures);
    json.put("passed", results.stream().allMatch(ChaosRun.Result::passed));
    json.put("wallSeconds", wall);
    json.put("modes", results);
    new ObjectMapper().writerWithDefaultPrettyPrinter()
        .writeValue(out.resolve("summary.json").toFile(), json);
    StringBuilder csv = new StringBuilder("delivery,passed,tasks,placed,completed,lost,"
        + "effective_duplicates,executed_twice,dead_lettered_completions,cancels,"
        + "scheduler_completions,failures,wall_seconds\n");
    StringBuilder f = new StringBuilder("delivery,kind,at_seconds,at_completed,ok,detail\n");
    for (ChaosRun.Result r : results) {
      csv.append(String.format(Locale.ROOT, "%s,%b,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%.1f%n",
          r.delivery(), r.passed(), r.tasks(), r.placed(), r.completed(), r.lost(),
          r.effectiveDuplicates(), r.executedTwice(), r.deadLetteredCompletions(), r.cancels(),
          r.schedulerCompletions(), r.failures().size(), r.wallSeconds()));
      for (ChaosRun.Injected i : r.failures()) {
        f.append(String.format(Locale.ROOT, "%s,%s,%.1f,%d,%b,\"%s\"%n", r.delivery(), i.kind(),
            i.atSeconds(), i.atCompleted(), i.ok(), i.detail().replace("\"", "\"\"")));
      }
    }
    Files.writeString(out.resolve("summary.csv"), csv);
    Files.writeString(out.resolve("failures.csv"), f);
  }
}
