package io.locus.agent.real;

import io.locus.agent.Refusal;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.limits.FileIds;
import io.locus.schemas.limits.Limits;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * An allow-listed command a decision may name: an argument list (never a shell line) with
 * placeholders. A decision picks a template by name and supplies arguments; it never supplies a
 * command.
 *
 * <p><b>Placeholders.</b>
 * <ul>
 *   <li>{@code {inputs}}: the staged input files' absolute paths, one argument each, in the task's
 *       input order. Must be a whole element of the command.
 *   <li>{@code {args}}: the decision's arguments, one argument each. Must be a whole element.
 *   <li>{@code {outputs}}: where each declared output must be written, one argument each, in
 *       declaration order (none for a task without outputs or an event-range task). Must be a
 *       whole element. With it one template serves tasks with any number of outputs (a
 *       WfCommons split task declares 40, blastall 2; issue 23).
 *   <li>{@code {input:N}}, {@code {arg:N}}: the N-th (from 0) input path or argument.
 *   <li>{@code {output:N}}: the path the N-th (from 0) declared output must be written to,
 *       {@code {output}/<name>} where {@code <name>} is the output's {@link FileIds#fileName}
 *       (issue 15; a task declaring fewer outputs is refused "bad input").
 *   <li>{@code {output}} (the task's output directory, {@code <workdir>/out}), {@code {workdir}},
 *       {@code {task}}, {@code {attempt}}, {@code {job}}, {@code {node}}, {@code {pool}},
 *       {@code {compute}} (the task's compute seconds, e.g. {@code 0.5}).
 *   <li>Event-range tasks only, which run as batches of events (one process per batch):
 *       {@code {dataset}}, {@code {batch-start}} (first event of the batch) and
 *       {@code {batch-end}} (end of the batch, exclusive). A task without a range that names a
 *       template using them is refused.
 *   <li>{@code {{} and {@code }}} are literal braces.
 * </ul>
 * Substitution is one pass: a value is never scanned for placeholders again, and a value never
 * becomes more than the one argument it sits in. So an argument such as {@code "; rm -rf /"} or
 * {@code "{output}"} reaches the program as that literal text. Arguments starting with "-" are
 * options to many programs: put {@code "--"} before {@code {args}} in the command when the program
 * supports it, or restrict arguments with {@code argPattern}.
 *
 * @param name the name decisions use
 * @param command program and arguments; the program is looked up on the agent's PATH when it has
 *     no slash
 * @param timeout how long a run may take; null: the agent's default
 * @param env extra environment variables for this template
 * @param maxArgs most arguments a decision may pass
 * @param argPattern when set, every argument must match it entirely
 */
public record TaskTemplate(String name, List<String> command, Duration timeout,
    Map<String, String> env, int maxArgs, Pattern argPattern) {

  public static final int DEFAULT_MAX_ARGS = 16;
  /** Longest argument accepted, in characters: the records' {@link Limits#MAX_TEXT_CHARS}. */
  public static final int MAX_ARG_CHARS = Limits.MAX_TEXT_CHARS;

  private static final Set<String> SCALARS = Set.of("output", "workdir", "task", "attempt", "job",
      "node", "pool", "compute", "dataset", "batch-start", "batch-end");
  /** The piece name of {@code {output:N}} (not a placeholder name itself). */
  private static final String OUTPUT_FILE = "output:";
  /** Placeholders that only an event-range task has values for. */
  private static final Set<String> RANGE_SCALARS = Set.of("dataset", "batch-start", "batch-end");

  /** One command element: a list placeholder, or literal text with scalar placeholders. */
  private sealed interface Element permits Whole, Parts {}

  private record Whole(String what) implements Element {}

  private record Parts(List<Piece> pieces) implements Element {}

  /** Literal text (name == null) or a scalar placeholder (index for input:N / arg:N). */
  private record Piece(String literal, String name, int index) {}

  public TaskTemplate {
    Objects.requireNonNull(name, "name");
    command = List.copyOf(command);
    env = env == null ? Map.of() : Map.copyOf(env);
    if (name.isBlank()) {
      throw new IllegalArgumentException("a template needs a name");
    }
    if (command.isEmpty()) {
      throw new IllegalArgumentException("template " + name + ": empty command");
    }
    if (maxArgs < 0) {
      throw new IllegalArgumentException("template " + name + ": max-args must be >= 0");
    }
    if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
      throw new IllegalArgumentException("template " + name + ": timeout must be positive");
    }
    if (command.get(0).contains("{")) {
      throw new IllegalArgumentException(
          "template " + name + ": the program itself cannot be a placeholder");
    }
    for (String c : command) {
      parse(name, c);   // fails on an unknown or misplaced placeholder
    }
  }

  /**
   * The stand-in template of the chart and the docs (issue 23): reads every staged input (its
   * {@code sha256sum}), then writes each declared output, however many the task declares (none,
   * or 40 for a WfCommons split task): the checksums, cut or zero-padded to the output's
   * declared size, so that a replayed trace moves the data volumes it describes and a child
   * that plans a parent's output at its declared size stages exactly that. Real work replaces
   * it; with it a published WfCommons workflow runs end to end on real agents with real files.
   */
  public static final List<String> CHECKSUM_COMMAND = List.of("sh", "-c",
      "sha256sum -- \"$@\" > \"$LOCUS_WORK_DIR/sha256\" || exit 1; "
          + "printf '%s\\n' \"$LOCUS_OUTPUT_SIZES\" | while read -r bytes path; do "
          + "if [ -n \"$path\" ]; then cp -- \"$LOCUS_WORK_DIR/sha256\" \"$path\" && "
          + "truncate -s \"$bytes\" -- \"$path\" || exit 1; fi; done",
      "checksum", "{inputs}");

  /** {@link #CHECKSUM_COMMAND} as a template named {@code name}, taking no arguments. */
  public static TaskTemplate checksum(String name) {
    return of(name, CHECKSUM_COMMAND).withMaxArgs(0);
  }

  /** A template with the defaults: no timeout of its own, no env, 16 arguments, any argument. */
  public static TaskTemplate of(String name, List<String> command) {
    return new TaskTemplate(name, command, null, Map.of(), DEFAULT_MAX_ARGS, null);
  }

  public TaskTemplate withTimeout(Duration t) {
    return new TaskTemplate(name, command, t, env, maxArgs, argPattern);
  }

  public TaskTemplate withMaxArgs(int n) {
    return new TaskTemplate(name, command, timeout, env, n, argPattern);
  }

  public TaskTemplate withArgPattern(String regex) {
    return new TaskTemplate(name, command, timeout, env, maxArgs,
        regex == null ? null : Pattern.compile(regex));
  }

  public TaskTemplate withEnv(Map<String, String> e) {
    return new TaskTemplate(name, command, timeout, e, maxArgs, argPattern);
  }

  private static Element parse(String template, String element) {
    if (element.equals("{inputs}") || element.equals("{args}") || element.equals("{outputs}")) {
      return new Whole(element.substring(1, element.length() - 1));
    }
    List<Piece> pieces = new ArrayList<>();
    StringBuilder lit = new StringBuilder();
    int i = 0;
    while (i < element.length()) {
      char c = element.charAt(i);
      if (c == '{' && i + 1 < element.length() && element.charAt(i + 1) == '{') {
        lit.append('{');
        i += 2;
      } else if (c == '}' && i + 1 < element.length() && element.charAt(i + 1) == '}') {
        lit.append('}');
        i += 2;
      } else if (c == '{') {
        int end = element.indexOf('}', i);
        if (end < 0) {
          throw new IllegalArgumentException("template " + template + ": unclosed '{' in '"
              + element + "' (write {{ for a literal brace)");
        }
        String ph = element.substring(i + 1, end);
        if (lit.length() > 0) {
          pieces.add(new Piece(lit.toString(), null, 0));
          lit.setLength(0);
        }
        pieces.add(placeholder(template, element, ph));
        i = end + 1;
      } else if (c == '}') {
        throw new IllegalArgumentException("template " + template + ": stray '}' in '" + element
            + "' (write }} for a literal brace)");
      } else {
        lit.append(c);
        i++;
      }
    }
    if (lit.length() > 0) {
      pieces.add(new Piece(lit.toString(), null, 0));
    }
    return new Parts(pieces);
  }

  private static Piece placeholder(String template, String element, String ph) {
    if (ph.equals("inputs") || ph.equals("args") || ph.equals("outputs")) {
      throw new IllegalArgumentException("template " + template + ": {" + ph
          + "} expands to several arguments, so it must be a whole element, not part of '"
          + element + "'");
    }
    if (SCALARS.contains(ph)) {
      return new Piece(null, ph, 0);
    }
    for (String indexed : List.of("input", "arg", "output")) {
      if (ph.startsWith(indexed + ":")) {
        String n = ph.substring(indexed.length() + 1);
        if (n.matches("[0-9]{1,4}")) {
          // "output" alone is the directory; the N-th output file is another piece.
          return new Piece(null, indexed.equals("output") ? OUTPUT_FILE : indexed,
              Integer.parseInt(n));
        }
      }
    }
    throw new IllegalArgumentException("template " + template + ": unknown placeholder {" + ph
        + "} in '" + element + "'; known: {inputs} {args} {outputs} {input:N} {arg:N} {output}"
        + " {output:N}"
        + " {workdir}"
        + " {task} {attempt} {job} {node} {pool} {compute} {dataset} {batch-start} {batch-end}");
  }

  private List<Element> elements() {
    List<Element> out = new ArrayList<>();
    for (String c : command) {
      out.add(parse(name, c));
    }
    return out;
  }

  /** Whether this task's arguments and inputs fit the template; null when they do. */
  public Refusal check(PlaceTask task) {
    List<String> args = task.getArgs();
    if (args.size() > maxArgs) {
      return Refusal.of(Refusal.BAD_ARGUMENT, args.size() + " arguments; template " + name
          + " allows " + maxArgs);
    }
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if (a == null || a.indexOf('\0') >= 0) {
        return Refusal.of(Refusal.BAD_ARGUMENT, "argument " + i + " contains a NUL character");
      }
      if (a.length() > MAX_ARG_CHARS) {
        return Refusal.of(Refusal.BAD_ARGUMENT, "argument " + i + " is longer than "
            + MAX_ARG_CHARS + " characters");
      }
      if (argPattern != null && !argPattern.matcher(a).matches()) {
        return Refusal.of(Refusal.BAD_ARGUMENT, "argument " + i + " does not match "
            + argPattern.pattern() + " (template " + name + ")");
      }
    }
    for (Element e : elements()) {
      if (e instanceof Parts p) {
        for (Piece piece : p.pieces()) {
          if ("arg".equals(piece.name()) && piece.index() >= args.size()) {
            return Refusal.of(Refusal.BAD_ARGUMENT, "template " + name + " needs argument "
                + piece.index() + "; the decision has " + args.size());
          }
          if ("input".equals(piece.name()) && piece.index() >= task.getInputs().size()) {
            return Refusal.of(Refusal.BAD_INPUT, "template " + name + " needs input "
                + piece.index() + "; the task has " + task.getInputs().size());
          }
          if (OUTPUT_FILE.equals(piece.name()) && task.getEvents() != null) {
            return Refusal.of(Refusal.BAD_INPUT, "template " + name + " uses {output:"
                + piece.index() + "}; an event-range task creates no output files");
          }
          if (OUTPUT_FILE.equals(piece.name()) && piece.index() >= task.getOutputs().size()) {
            return Refusal.of(Refusal.BAD_INPUT, "template " + name + " needs output "
                + piece.index() + "; the task declares " + task.getOutputs().size());
          }
          if (piece.name() != null && RANGE_SCALARS.contains(piece.name())
              && task.getEvents() == null) {
            return Refusal.of(Refusal.BAD_INPUT, "template " + name + " uses {" + piece.name()
                + "}, which only an event-range task has; the task has no event range");
          }
        }
      }
    }
    return null;
  }

  /**
   * What the placeholders stand for in one run (one batch of an event-range task).
   *
   * @param dataset the event range's dataset; null for a task without a range
   * @param batchStart first event of the batch
   * @param batchEnd end of the batch, exclusive
   * @param outputs where each declared output must be written ({@code {output:N}}), in order
   */
  public record Context(List<String> inputs, List<String> args, String output, String workdir,
      String task, int attempt, String job, String node, String pool, double computeSeconds,
      String dataset, long batchStart, long batchEnd, List<String> outputs) {

    /** A task without an event range. */
    public Context(List<String> inputs, List<String> args, String output, String workdir,
        String task, int attempt, String job, String node, String pool, double computeSeconds) {
      this(inputs, args, output, workdir, task, attempt, job, node, pool, computeSeconds, null,
          -1, -1, List.of());
    }

    /** A batch of an event-range task (no output files). */
    public Context(List<String> inputs, List<String> args, String output, String workdir,
        String task, int attempt, String job, String node, String pool, double computeSeconds,
        String dataset, long batchStart, long batchEnd) {
      this(inputs, args, output, workdir, task, attempt, job, node, pool, computeSeconds, dataset,
          batchStart, batchEnd, List.of());
    }

    /** This context with the paths of the declared outputs. */
    public Context withOutputs(List<String> paths) {
      return new Context(inputs, args, output, workdir, task, attempt, job, node, pool,
          computeSeconds, dataset, batchStart, batchEnd, List.copyOf(paths));
    }
  }

  /** The argument list of one run; call {@link #check} first. */
  public List<String> expand(Context ctx) {
    List<String> argv = new ArrayList<>();
    for (Element e : elements()) {
      if (e instanceof Whole w) {
        argv.addAll(switch (w.what()) {
          case "inputs" -> ctx.inputs();
          case "outputs" -> ctx.outputs();
          default -> ctx.args();
        });
      } else {
        StringBuilder b = new StringBuilder();
        for (Piece p : ((Parts) e).pieces()) {
          b.append(p.name() == null ? p.literal() : value(p, ctx));
        }
        argv.add(b.toString());
      }
    }
    return argv;
  }

  private static String value(Piece p, Context ctx) {
    return switch (p.name()) {
      case "input" -> ctx.inputs().get(p.index());
      case "arg" -> ctx.args().get(p.index());
      case "output" -> ctx.output();
      case OUTPUT_FILE -> ctx.outputs().get(p.index());
      case "workdir" -> ctx.workdir();
      case "task" -> ctx.task();
      case "attempt" -> Integer.toString(ctx.attempt());
      case "job" -> ctx.job();
      case "node" -> ctx.node();
      case "pool" -> ctx.pool();
      case "compute" -> BigDecimal.valueOf(ctx.computeSeconds()).stripTrailingZeros()
          .toPlainString();
      case "dataset" -> ctx.dataset();
      case "batch-start" -> Long.toString(ctx.batchStart());
      case "batch-end" -> Long.toString(ctx.batchEnd());
      default -> throw new IllegalStateException("unknown placeholder " + p.name());
    };
  }
}
