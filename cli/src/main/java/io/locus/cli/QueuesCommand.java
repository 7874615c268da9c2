package io.locus.cli;

import io.locus.core.share.QueueSpec;
import io.locus.core.share.QueueTree;
import io.locus.kafka.KafkaClientOptions;
import io.locus.operators.QueueConfigs;
import io.locus.schemas.Control;
import io.locus.schemas.ControlAck;
import io.locus.schemas.ControlType;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code locus queues}: a pool's queue tree (issue 24) as data. {@code apply} checks a file
 * locally with the scheduler's own rules ({@link QueueTree}), then sends it whole as one SET_QUEUES
 * control and waits for the acknowledgement ({@link ControlClient}); {@code --dry-run} prints what
 * it would change against the tree the pool's scheduler last published (scheduler-metrics).
 * {@code show} prints that tree. Exit codes as {@code locus control}: 0 applied or unchanged, 1
 * refused by the scheduler, 2 bad input, 3 Kafka unreachable or no answer in time.
 */
@Command(name = "queues", mixinStandardHelpOptions = true,
    description = "A pool's queues: apply a queue configuration file, or show the tree in force.",
    subcommands = {QueuesCommand.Apply.class, QueuesCommand.Show.class})
public final class QueuesCommand implements Runnable {
  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "Missing command: locus queues apply FILE, or locus queues show");
  }

  /** What both subcommands share: Kafka, the pool, how long to wait. */
  static class Common {
    // With ACLs: WRITE on control, READ on control-acks (apply); READ on scheduler-metrics.
    @Mixin KafkaClientOptions kafka;

    @Option(names = "--timeout", defaultValue = "PT30S", paramLabel = "DURATION",
        description = "How long to wait for the acknowledgement, or to read the scheduler's "
            + "metrics. Default: ${DEFAULT-VALUE}.")
    Duration timeout;

    @Option(names = "--lookback", defaultValue = "PT5M", paramLabel = "DURATION",
        description = "How far back to look for the scheduler's metrics, which carry the tree "
            + "in force (show, --dry-run). Default: ${DEFAULT-VALUE}.")
    Duration lookback;

    QueueTreeRead readTrees(String pool) throws InterruptedException {
      return QueueTreeRead.read(kafka.clientProperties(), pool,
          System.currentTimeMillis() - lookback.toMillis(), timeout);
    }
  }

  @Command(name = "apply", mixinStandardHelpOptions = true,
      description = "Replace a pool's queue tree by the one in FILE (YAML or JSON), whole or not "
          + "at all; waits for the scheduler's acknowledgement.",
      footer = {"", "File:",
          "  pool: batch            # optional; --pool wins",
          "  queues:",
          "    - name: eng",
          "      weight: 2          # default 1",
          "      guaranteedSlots: 8 # default 0",
          "      limitSlots: 24     # default: no limit",
          "    - name: ml",
          "      parent: eng",
          "      lendingLimitSlots: 2",
          "      cacheGuaranteeBytes: 100000000000",
          "      cacheLimitBytes: 500000000000",
          "      maxWaitSeconds: 600",
          "", "Exit status: 0 applied or unchanged, 1 refused by the scheduler (every reason is",
          "printed), 2 bad input (every reason), 3 Kafka unreachable or no acknowledgement",
          "within --timeout."},
      exitCodeOnInvalidInput = 2)
  static final class Apply extends Common implements Callable<Integer> {
    @Spec CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "The queue configuration.")
    Path file;

    @Option(names = "--pool", paramLabel = "POOL",
        description = "The pool (else the file's 'pool').")
    String pool;

    @Option(names = "--dry-run",
        description = "Print what would change against the tree in force; send nothing.")
    boolean dryRun;

    @Override
    public Integer call() throws Exception {
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      QueueFile f = QueueFile.read(file);
      String p = pool != null ? pool : f.pool;
      if (p == null || p.isBlank()) {
        throw new IllegalArgumentException(file + " names no pool: give --pool");
      }
      if (timeout.isNegative() || timeout.isZero() || lookback.isNegative()) {
        throw new IllegalArgumentException("--timeout must be > 0 and --lookback >= 0");
      }
      List<String> problems = f.problems();
      if (!problems.isEmpty()) {
        err.println("locus queues apply: " + file + " is refused, nothing sent ("
            + problems.size() + " problem(s)):");
        problems.forEach(r -> err.println("  " + r));
        err.flush();
        return 2;
      }
      Control c = Control.newBuilder().setPool(p).setType(ControlType.SET_QUEUES)
          .setRequestId(UUID.randomUUID().toString())
          // time 0: a control never moves the pool's record clock (see locus control)
          .setTimeMs(0).setQueues(QueueConfigs.toConfigs(f.specs)).build();
      var bad = io.locus.connectors.functions.Validation.control(c, p);
      if (bad.isPresent()) {
        throw new IllegalArgumentException(bad.get().reason());
      }
      QueueTree next = QueueTree.build(f.specs, -1);
      if (dryRun) {
        return dryRun(p, next, out, err);
      }
      ControlClient.Result r = ControlClient.send(kafka.bootstrap, kafka.kafkaProperties, c,
          timeout);
      if (r.ack() == null) {
        err.println("locus queues apply: " + r.problem());
        err.flush();
        return 3;
      }
      ControlAck a = r.ack();
      if (!a.getAccepted()) {
        err.println("pool " + p + ": queue configuration refused by the scheduler, nothing "
            + "applied (request " + a.getRequestId() + "):");
        List<? extends CharSequence> why = a.getReasons().isEmpty()
            ? List.of(a.getMessage()) : a.getReasons();
        why.forEach(reason -> err.println("  " + reason));
        err.flush();
        return 1;
      }
      if (a.getChanges().isEmpty()) {
        out.println("pool " + p + ": queue tree unchanged (request " + a.getRequestId() + ")");
      } else {
        out.println("pool " + p + ": queue tree applied (request " + a.getRequestId() + "):");
        a.getChanges().forEach(ch -> out.println("  " + ch));
      }
      out.flush();
      return 0;
    }

    private int dryRun(String p, QueueTree next, PrintWriter out, PrintWriter err)
        throws InterruptedException {
      QueueTreeRead read;
      try {
        read = readTrees(p);
      } catch (RuntimeException e) {
        err.println("locus queues apply --dry-run: cannot read the tree in force: "
            + e.getMessage());
        err.flush();
        return 3;
      }
      QueueTree now;
      QueueTreeRead.Seen seen = read.pools.get(p);
      if (seen == null) {
        err.println("warning: no scheduler metrics of pool " + p + " in the last " + lookback
            + " (scheduler not running, or the pool never had a record): compared with a pool "
            + "with no queue configured");
        now = QueueTree.defaultOnly();
      } else {
        now = QueueConfigs.tree(seen.metrics().getQueues());
      }
      var diff = now.diff(next);
      if (diff.isEmpty()) {
        out.println("pool " + p + ": dry run: the queue tree would not change");
      } else {
        out.println("pool " + p + ": dry run: applying would change:");
        diff.describe().forEach(line -> out.println("  " + line));
        out.println("(the scheduler also refuses to remove, or give child queues to, a queue "
            + "that unfinished jobs name)");
      }
      out.flush();
      err.flush();
      return 0;
    }
  }

  @Command(name = "show", mixinStandardHelpOptions = true,
      description = "Print each pool's queue tree, as its scheduler last published it.",
      footer = {"", "Exit status: 0 shown, 2 bad arguments, 3 Kafka unreachable or no metrics",
          "of the pool within --lookback."},
      exitCodeOnInvalidInput = 2)
  static final class Show extends Common implements Callable<Integer> {
    @Spec CommandLine.Model.CommandSpec spec;

    @Option(names = "--pool", paramLabel = "POOL", description = "Only this pool.")
    String pool;

    @Override
    public Integer call() throws Exception {
      PrintWriter out = spec.commandLine().getOut();
      PrintWriter err = spec.commandLine().getErr();
      if (timeout.isNegative() || timeout.isZero() || lookback.isNegative()) {
        throw new IllegalArgumentException("--timeout must be > 0 and --lookback >= 0");
      }
      QueueTreeRead read;
      try {
        read = readTrees(pool);
      } catch (RuntimeException e) {
        err.println("locus queues show: " + e.getMessage());
        err.flush();
        return 3;
      }
      if (read.pools.isEmpty()) {
        err.println("locus queues show: no scheduler metrics" + (pool == null ? ""
            : " of pool " + pool) + " in the last " + lookback + (read.missingTopics.isEmpty()
                ? "; is the scheduler running?" : "; missing topics: " + read.missingTopics));
        err.flush();
        return 3;
      }
      for (Map.Entry<String, QueueTreeRead.Seen> e : read.pools.entrySet()) {
        QueueTree tree = QueueConfigs.tree(e.getValue().metrics().getQueues());
        out.println("pool " + e.getKey() + (tree.isDefaultOnly()
            ? ": no queue configured (the default queue alone)" : ":"));
        for (Map.Entry<String, QueueSpec> q : tree.specs().entrySet()) {
          out.println("  " + tree.path(q.getKey()) + (tree.isLeaf(q.getKey()) ? "" : " (parent)")
              + ": " + q.getValue().describe());
        }
      }
      out.flush();
      return 0;
    }
  }
}
