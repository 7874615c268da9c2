package io.locus.cli;

import io.locus.kafka.KafkaClientOptions;
import io.locus.core.policy.Policies;
import io.locus.core.split.SplitParams;
import io.locus.operators.SchedulerConfig;
import io.locus.schemas.Control;
import io.locus.schemas.ControlAck;
import io.locus.schemas.ControlType;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
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
 * {@code locus control}: sends one {@link Control} record to a running scheduler and waits for its
 * {@link ControlAck} ({@link ControlClient}). Exit codes: 0 applied, 1 refused (the ack's message
 * says why), 2 bad arguments, 3 no answer in time or Kafka unreachable.
 */
@Command(name = "control", mixinStandardHelpOptions = true,
    description = "Change a running pool: its policy, a node's drain, or pause it; waits for the "
        + "scheduler's acknowledgement.",
    footer = {"", "Actions:",
        "  set-policy POLICY  the pool's policy, with --param KEY=VALUE ...; queued",
        "                     tasks are re-evaluated under it",
        "  drain NODE         the node takes no new work; its running tasks finish",
        "  resume-node NODE   the node takes work again",
        "  pause              no new placements (tasks keep arriving and queue)",
        "  resume             placements again, the queue dispatched at once",
        "", "Exit status: 0 applied, 1 refused (the reason is printed), 2 bad arguments,",
        "3 no acknowledgement within --timeout (or Kafka unreachable).",
        "", "Example:",
        "  locus control --bootstrap-servers kafka:9092 batch set-policy MCH \\",
        "      --param window=500"},
    exitCodeOnInvalidInput = 2)
public final class ControlCommand implements Callable<Integer> {
  /** The actions and the control type each sends. */
  static final Map<String, ControlType> ACTIONS = Map.of(
      "set-policy", ControlType.SET_POLICY,
      "drain", ControlType.DRAIN_NODE,
      "resume-node", ControlType.RESUME_NODE,
      "pause", ControlType.PAUSE_POOL,
      "resume", ControlType.RESUME_POOL);

  @Spec CommandLine.Model.CommandSpec spec;

  // With ACLs, the --kafka-properties principal needs WRITE on control and READ on control-acks.
  @Mixin KafkaClientOptions kafka;

  @Option(names = "--timeout", defaultValue = "PT30S", paramLabel = "DURATION",
      description = "How long to wait for the acknowledgement (ISO-8601). Default: "
          + "${DEFAULT-VALUE}.")
  Duration timeout;

  @Option(names = "--param", paramLabel = "KEY=VALUE",
      description = "A parameter of the new policy (set-policy only), repeatable, e.g. "
          + "window=500 or theta=0.8.")
  Map<String, String> params = new LinkedHashMap<>();

  @Parameters(index = "0", paramLabel = "POOL", description = "The pool.")
  String pool;

  @Parameters(index = "1", paramLabel = "ACTION",
      description = "set-policy, drain, resume-node, pause or resume.")
  String action;

  @Parameters(index = "2", arity = "0..1", paramLabel = "ARG",
      description = "The policy (set-policy) or the node (drain, resume-node).")
  String argument;

  @Override
  public Integer call() throws Exception {
    Control c = control(UUID.randomUUID().toString());
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    ControlClient.Result r = ControlClient.send(kafka.bootstrap, kafka.kafkaProperties, c, timeout);
    if (r.ack() == null) {
      err.println("locus control: " + r.problem());
      err.flush();
      return 3;
    }
    ControlAck a = r.ack();
    PrintWriter to = a.getAccepted() ? out : err;
    to.println("pool " + a.getPool() + ": " + a.getType() + (a.getAccepted() ? " applied: "
        : " refused: ") + a.getMessage());
    to.println("  policy=" + a.getPolicy() + " paused=" + a.getPaused() + " reevaluated="
        + a.getReevaluated() + " request=" + a.getRequestId());
    to.flush();
    return a.getAccepted() ? 0 : 1;
  }

  /** The control record the arguments describe; a bad argument is a ParameterException. */
  Control control(String requestId) {
    if (pool == null || pool.isBlank()) {
      throw bad("POOL must not be blank");
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw bad("--timeout must be positive, got " + timeout);
    }
    ControlType type = ACTIONS.get(action.toLowerCase(Locale.ROOT));
    if (type == null) {
      throw bad("unknown action '" + action + "'; valid: set-policy, drain, resume-node, pause, "
          + "resume");
    }
    Control.Builder b = Control.newBuilder().setPool(pool).setType(type).setRequestId(requestId)
        // Time 0: a control never moves the pool's record clock (a pool replaying a trace keeps
        // its own); it applies at the pool clock when the scheduler reads it.
        .setTimeMs(0);
    if (type != ControlType.SET_POLICY && !params.isEmpty()) {
      throw bad("--param applies to set-policy only");
    }
    switch (type) {
      case SET_POLICY -> {
        String policy = need("set-policy needs a POLICY, e.g. set-policy MCH; file policies: "
            + String.join(", ", Policies.NAMES) + "; split policies: "
            + String.join(", ", SplitParams.POLICIES));
        try {
          SchedulerConfig.PolicySpec s = new SchedulerConfig.PolicySpec(
              policy.toUpperCase(Locale.ROOT), params);
          b.setPolicy(s.name()).setParams(new LinkedHashMap<>(params));
        } catch (IllegalArgumentException e) {
          String m = e.getMessage();
          if (m != null && m.startsWith("unknown policy")) {
            m += "; split policies: " + String.join(", ", SplitParams.POLICIES);
          }
          throw bad(m);
        }
      }
      case DRAIN_NODE, RESUME_NODE -> b.setNode(need(action + " needs a NODE"));
      default -> {
        if (argument != null) {
          throw bad(action + " takes no argument, got '" + argument + "'");
        }
      }
    }
    Control c = b.build();
    // The scheduler's input validation, here: a control it would dead-letter before any pool sees
    // it (an id too long, a control character) would otherwise go unanswered until the timeout.
    io.locus.connectors.functions.Validation.control(c, pool).ifPresent(v -> {
      throw bad(v.reason());
    });
    return c;
  }

  private String need(String message) {
    if (argument == null || argument.isBlank()) {
      throw bad(message);
    }
    return argument;
  }

  private CommandLine.ParameterException bad(String message) {
    return new CommandLine.ParameterException(spec.commandLine(), message);
  }
}
