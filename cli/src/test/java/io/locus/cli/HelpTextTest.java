package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.jobs.run.RunCommand;
import io.locus.cli.sim.SimulateCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What {@code --help} says reads well and is true: one spelling of each command, no hard line
 * break in mid-sentence, and every example it gives is accepted.
 */
class HelpTextTest {
  private static final Pattern EXAMPLE =
      Pattern.compile("(?:e\\.g\\.|Example:)\\s*((?:locus |--)[^;)]*)");

  /** Every command under {@code locus}, depth first. */
  static List<CommandLine> commands() {
    List<CommandLine> out = new ArrayList<>();
    collect(LocusCli.commandLine(), out);
    return out;
  }

  private static void collect(CommandLine cl, List<CommandLine> out) {
    out.add(cl);
    cl.getSubcommands().values().stream().distinct().forEach(sub -> collect(sub, out));
  }

  /** A command's description and its options' descriptions, element by element. */
  private static List<String[]> descriptions(CommandSpec spec) {
    List<String[]> out = new ArrayList<>();
    out.add(spec.usageMessage().description());
    for (OptionSpec o : spec.options()) {
      out.add(o.description());
    }
    return out;
  }

  @Test
  void theAgentIsLocusAgentInEveryUsageLine() {
    CommandLine cl = LocusCli.commandLine();
    for (String sub : List.of("sim", "real", "node-key")) {
      String usage = cl.getSubcommands().get("agent").getSubcommands().get(sub).getUsageMessage();
      assertThat(usage).startsWith("Usage: locus agent " + sub).doesNotContain("locus-agent");
    }
    StringWriter err = new StringWriter();
    CommandLine fresh = LocusCli.commandLine();
    fresh.setErr(new PrintWriter(err, true));
    assertThat(fresh.execute("agent", "sim", "--pool", "p", "--bootstrap-servers", "h:1",
        "--isolation", "dirty")).isEqualTo(2);
    assertThat(err.toString()).contains("--isolation must be read_committed")
        .contains("Try 'locus agent sim --help'");
  }

  @Test
  void noDescriptionBreaksALineInMidSentence() {
    List<String> problems = new ArrayList<>();
    for (CommandLine cl : commands()) {
      for (String[] lines : descriptions(cl.getCommandSpec())) {
        for (int i = 0; i + 1 < lines.length; i++) {
          String line = lines[i].stripTrailing();
          String next = lines[i + 1];
          // A line may end a sentence or introduce a list; the next may be an indented item.
          boolean ends = line.isEmpty() || line.matches(".*[.:!?]$") || line.startsWith(" ");
          if (!ends && !next.startsWith(" ")) {
            problems.add(cl.getCommandSpec().qualifiedName() + ": '" + line + "' / '" + next
                + "'");
          }
        }
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void everyExampleInEveryHelpTextIsAccepted() throws Exception {
    List<String> tried = new ArrayList<>();
    for (CommandLine cl : commands()) {
      CommandSpec spec = cl.getCommandSpec();
      for (String[] lines : descriptions(spec)) {
        for (String text : lines) {
          if (text.strip().startsWith("locus ")) {
            // An example on a line of its own (after "Example:")
            tried.add(text.strip());
            accept(spec, text.strip());
          }
          Matcher m = EXAMPLE.matcher(text);
          while (m.find()) {
            String example = m.group(1).strip().replaceAll("\\.$", "");
            tried.add(example);
            accept(spec, example);
          }
        }
      }
    }
    assertThat(tried).as("the examples found").anyMatch(e -> e.contains("--workload-param"))
        .anyMatch(e -> e.contains("--pool-policy")).anyMatch(e -> e.startsWith("locus "));
  }

  /** Parses the example and runs the check its command makes before it connects anywhere. */
  private static void accept(CommandSpec where, String example) throws Exception {
    List<String> args = new ArrayList<>();
    if (example.startsWith("locus ")) {
      args.addAll(List.of(example.substring("locus ".length()).split("\\s+")));
    } else {
      List<String> path = new ArrayList<>();
      for (CommandSpec s = where; s.parent() != null; s = s.parent()) {
        path.add(0, s.name());
      }
      args.addAll(path);
      args.addAll(List.of(example.split("\\s+")));
      // Required options the example leaves out, with harmless values.
      for (OptionSpec o : where.options()) {
        if (o.required() && o.group() == null && args.stream().noneMatch(a -> List.of(o.names()).contains(a))) {
          args.add(o.longestName());
          args.add(o.longestName().equals("--bootstrap-servers") ? "127.0.0.1:9" : "x");
        }
      }
    }
    CommandLine cl = LocusCli.commandLine();
    CommandLine.ParseResult parsed;
    try {
      parsed = cl.parseArgs(args.toArray(String[]::new));
    } catch (CommandLine.ParameterException e) {
      throw new AssertionError("example '" + example + "' (" + where.qualifiedName()
          + "): " + e.getMessage(), e);
    }
    while (parsed.hasSubcommand()) {
      parsed = parsed.subcommand();
    }
    Object cmd = parsed.commandSpec().userObject();
    try {
      if (cmd instanceof RunCommand run) {
        run.options();
      } else if (cmd instanceof ReplayCommand replay) {
        replay.source.open();
      } else if (cmd instanceof TraceCommand trace) {
        trace.source.open();
      } else if (cmd instanceof SimulateCommand simulate) {
        simulate.workload();
      }
    } catch (RuntimeException e) {
      throw new AssertionError("example '" + example + "' (" + where.qualifiedName()
          + ") is refused: " + e.getMessage(), e);
    }
  }

  @Test
  void aMapOptionWithoutEqualsSaysOptionOnce() {
    StringWriter err = new StringWriter();
    CommandLine cl = LocusCli.commandLine();
    cl.setErr(new PrintWriter(err, true));
    assertThat(cl.execute("run", "--bootstrap-servers", "k:1", "--pool-policy", "batch"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("Value for option '--pool-policy'")
        .doesNotContain("option option");
  }

  @Test
  void durationsTakeUnitsOrIsoAndABadOneSaysWhatIsAccepted() {
    CommandLine cl = LocusCli.commandLine();
    CommandLine.ParseResult ok = cl.parseArgs("status", "--bootstrap-servers", "k:1",
        "--lookback", "5m", "--timeout", "PT10S");
    StatusCommand status = (StatusCommand) ok.subcommand().commandSpec().userObject();
    assertThat(status.lookback).hasMinutes(5);
    assertThat(status.timeout).hasSeconds(10);
    StringWriter err = new StringWriter();
    CommandLine bad = LocusCli.commandLine();
    bad.setErr(new PrintWriter(err, true));
    assertThat(bad.execute("status", "--bootstrap-servers", "k:1", "--lookback", "5 minutes"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("Invalid value for option '--lookback'")
        .contains("not a duration").contains("30s").doesNotContain("java.time");
  }
}
