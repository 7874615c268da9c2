package io.locus.cli;

import java.io.IOException;
import java.lang.reflect.Array;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgGroupSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Writes the docs' flag tables from picocli's model of the commands, so a table cannot drift
 * from the command it documents. A table lives between two marker comments that name the
 * command:
 *
 * <pre>
 * &lt;!-- flags:locus run --&gt;
 * | flag | default | description |
 * ...
 * &lt;!-- /flags --&gt;
 * </pre>
 *
 * Everything between the markers is the generator's; prose about the flags goes outside them.
 * {@link FlagTablesTest} fails when a table differs from what this class writes, and rewrites
 * the docs when run with {@code -Dlocus.docs.write=true} ({@link #REGENERATE}).
 */
final class FlagTables {
  /** The command that rewrites every table (after a flag was added, renamed or re-described). */
  static final String REGENERATE = "mvn -o -B -pl cli -am test -Dtest='FlagTablesTest*' "
      + "-Dsurefire.failIfNoSpecifiedTests=false -Dlocus.docs.write=true";

  /** {@code <!-- flags:locus agent real -->}: group 1 is the command path below {@code locus}. */
  static final Pattern OPEN = Pattern.compile("^<!-- flags:locus ([a-z][a-z -]*?) -->$");
  static final String CLOSE = "<!-- /flags -->";

  /**
   * The description's "Default: X." sentence (picocli has already put the value in for
   * {@code ${DEFAULT-VALUE}}): it moves to the default column. A dot ends the sentence only
   * before a space or the end, so "127.0.0.1" and "(.json: ...)" stay inside it.
   */
  private static final Pattern DEFAULT_SENTENCE = Pattern.compile("\\s*Default: (.*?)\\.(?=\\s|$)");

  private FlagTables() {}

  /** The picocli command {@code locus <path>} ("run", "agent real"). */
  static CommandLine command(String path) {
    CommandLine cl = LocusCli.commandLine();
    for (String part : path.split(" ")) {
      CommandLine sub = cl.getSubcommands().get(part);
      if (sub == null) {
        throw new IllegalArgumentException("no command `locus " + path + "` (at '" + part + "')");
      }
      cl = sub;
    }
    return cl;
  }

  /** The options a table lists: every option but help, version and hidden ones, in declaration order. */
  static List<OptionSpec> documented(CommandLine cl) {
    List<OptionSpec> out = new ArrayList<>();
    for (OptionSpec o : cl.getCommandSpec().options()) {
      if (!o.usageHelp() && !o.versionHelp() && !o.hidden()) {
        out.add(o);
      }
    }
    return out;
  }

  /** The markdown table of {@code locus <path>}'s flags, one line per option, no trailing newline. */
  static String table(String path) {
    return table(command(path));
  }

  /** The markdown table of {@code cl}'s flags. */
  static String table(CommandLine cl) {
    StringJoiner t = new StringJoiner("\n");
    t.add("| flag | default | description |");
    t.add("|---|---|---|");
    for (OptionSpec o : documented(cl)) {
      t.add("| " + cell(flag(o)) + " | " + cell(defaultText(o)) + " | " + cell(description(o))
          + " |");
    }
    return t.toString();
  }

  /** {@code `--name LABEL`}, aliases after it; a negatable option as {@code --[no-]name}. */
  static String flag(OptionSpec o) {
    StringJoiner names = new StringJoiner(", ");
    String label = o.arity().max() > 0 ? " " + o.paramLabel() : "";
    List<String> sorted = new ArrayList<>(List.of(o.names()));
    // The long name first: it is the one the docs' prose uses.
    sorted.sort((a, b) -> Boolean.compare(!a.startsWith("--"), !b.startsWith("--")));
    for (String n : sorted) {
      String shown = o.negatable() && n.startsWith("--") ? "--[no-]" + n.substring(2) : n;
      names.add("`" + shown + label + "`");
    }
    return names.toString();
  }

  /**
   * "(required)"; for one of a required group of exclusive options, "one of" them; else what the
   * description's "Default:" sentence says (it may say more than the value: "STATE-DIR/checkpoints",
   * "any pool"), else the default or initial value, else "—".
   */
  static String defaultText(OptionSpec o) {
    ArgGroupSpec group = o.group();
    if (group != null && group.exclusive() && group.multiplicity().min() > 0) {
      StringJoiner names = new StringJoiner(", ", "(one of ", ")");
      group.options().forEach(x -> names.add("`" + x.longestName() + "`"));
      return names.toString();
    }
    if (o.required()) {
      return "(required)";
    }
    Matcher said = DEFAULT_SENTENCE.matcher(String.join(" ", o.description()));
    if (said.find()) {
      return said.group(1).strip();
    }
    Object v = o.defaultValue() != null ? o.defaultValue() : o.initialValue();
    String s = valueText(v);
    return s.isEmpty() ? "—" : s;
  }

  private static String valueText(Object v) {
    if (v == null) {
      return "";
    }
    if (v.getClass().isArray()) {
      StringJoiner j = new StringJoiner(", ");
      for (int i = 0; i < Array.getLength(v); i++) {
        j.add(valueText(Array.get(v, i)));
      }
      return j.toString();
    }
    if (v instanceof Collection<?> c) {
      StringJoiner j = new StringJoiner(", ");
      c.forEach(x -> j.add(valueText(x)));
      return j.toString();
    }
    if (v instanceof Map<?, ?> m) {
      StringJoiner j = new StringJoiner(", ");
      m.forEach((k, x) -> j.add(k + "=" + valueText(x)));
      return j.toString();
    }
    return v.toString();
  }

  /** The option's description as {@code --help} shows it, on one line, without its default. */
  static String description(OptionSpec o) {
    String d = String.join(" ", o.description());
    d = DEFAULT_SENTENCE.matcher(d).replaceFirst("");
    if (d.contains("${COMPLETION-CANDIDATES}")) {
      StringJoiner c = new StringJoiner(", ");
      if (o.completionCandidates() != null) {
        o.completionCandidates().forEach(c::add);
      }
      d = d.replace("${COMPLETION-CANDIDATES}", c.toString());
    }
    return d.replace("%n", " ").replaceAll("\\s+", " ").strip();
  }

  /** A table cell: pipes escaped, angle brackets outside code spans made literal. */
  static String cell(String text) {
    StringBuilder out = new StringBuilder();
    boolean code = false;
    for (char ch : text.toCharArray()) {
      if (ch == '`') {
        code = !code;
      }
      if (ch == '|') {
        out.append("\\|");
      } else if (!code && ch == '<') {
        out.append("&lt;");
      } else if (!code && ch == '>') {
        out.append("&gt;");
      } else {
        out.append(ch);
      }
    }
    return out.toString();
  }

  /** The command paths whose tables {@code doc} holds, in order. */
  static List<String> commands(String doc) {
    List<String> out = new ArrayList<>();
    for (String line : doc.split("\n", -1)) {
      Matcher m = OPEN.matcher(line);
      if (m.matches()) {
        out.add(m.group(1));
      }
    }
    return out;
  }

  /** {@code doc} with every table between markers replaced by what {@link #table} writes. */
  static String render(String doc) {
    String[] lines = doc.split("\n", -1);
    StringJoiner out = new StringJoiner("\n");
    for (int i = 0; i < lines.length; i++) {
      out.add(lines[i]);
      Matcher m = OPEN.matcher(lines[i]);
      if (!m.matches()) {
        continue;
      }
      int close = i + 1;
      while (close < lines.length && !lines[close].equals(CLOSE)) {
        if (OPEN.matcher(lines[close]).matches()) {
          throw new IllegalArgumentException("line " + (i + 1) + ": flags:locus " + m.group(1)
              + " has no " + CLOSE + " before the next table");
        }
        close++;
      }
      if (close == lines.length) {
        throw new IllegalArgumentException("line " + (i + 1) + ": flags:locus " + m.group(1)
            + " has no " + CLOSE);
      }
      // Blank lines around the table: it ends before the closing comment in every renderer.
      out.add("");
      out.add(table(m.group(1)));
      out.add("");
      out.add(CLOSE);
      i = close;
    }
    return out.toString();
  }

  /** Rewrites the tables of {@code docs} in place; returns the files that changed. */
  static List<Path> write(List<Path> docs) throws IOException {
    List<Path> changed = new ArrayList<>();
    for (Path doc : docs) {
      String text = Files.readString(doc);
      String rendered = render(text);
      if (!rendered.equals(text)) {
        Files.writeString(doc, rendered);
        changed.add(doc);
      }
    }
    return changed;
  }
}
