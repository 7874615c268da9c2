package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.cache.EvictionPolicies;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The flag tables in the docs are the commands' flags, both ways: a table follows a heading that
 * names the command ("## `locus run` flags"), its first column names the flags
 * ({@code --[no-]create-topics} names a negatable option), and the set equals the command's
 * picocli options (help and version aside). A flag added to a command without a row, or a row
 * for a flag that is gone, fails here.
 */
class FlagTablesTest {
  /** The repository root: tests run in the module's directory. */
  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  static final List<Path> DOCS = List.of(ROOT.resolve("README.md"),
      ROOT.resolve("docs/operations.md"), ROOT.resolve("node-agent/README.md"));

  private static final Pattern HEADING = Pattern.compile("^#+ .*`locus ([a-z][a-z -]*)` flags.*$");
  private static final Pattern FLAG = Pattern.compile("--(\\[no-])?([a-z0-9][a-z0-9-]*)");

  /** Command ("run", "agent real") → the flags its table documents. */
  static Map<String, Set<String>> tables(Path doc) throws IOException {
    Map<String, Set<String>> out = new LinkedHashMap<>();
    List<String> lines = Files.readAllLines(doc);
    for (int i = 0; i < lines.size(); i++) {
      Matcher h = HEADING.matcher(lines.get(i));
      if (!h.matches()) {
        continue;
      }
      Set<String> flags = new TreeSet<>();
      int j = i + 1;
      while (j < lines.size() && !lines.get(j).startsWith("|")) {
        j++;
      }
      for (int row = 0; j < lines.size() && lines.get(j).startsWith("|"); j++, row++) {
        if (row < 2) {
          continue; // header and separator
        }
        String first = lines.get(j).split("\\|")[1];
        Matcher f = FLAG.matcher(first);
        while (f.find()) {
          flags.add("--" + f.group(2));
        }
      }
      out.put(h.group(1).strip(), flags);
    }
    return out;
  }

  /** The command's option names (long names; a negatable option by its positive name). */
  static Set<String> options(String command) {
    CommandLine cl = LocusCli.commandLine();
    for (String part : command.split(" ")) {
      cl = cl.getSubcommands().get(part);
      assertThat(cl).as("command locus " + command).isNotNull();
    }
    Set<String> names = new TreeSet<>();
    for (OptionSpec o : cl.getCommandSpec().options()) {
      if (o.usageHelp() || o.versionHelp()) {
        continue;
      }
      for (String n : o.names()) {
        if (n.startsWith("--")) {
          names.add(n);
        }
      }
    }
    return names;
  }

  @Test
  void everyFlagTableEqualsItsCommandsOptions() throws IOException {
    Map<String, Set<String>> all = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    for (Path doc : DOCS) {
      tables(doc).forEach((command, documented) -> {
        all.put(command, documented);
        Set<String> actual = options(command);
        Set<String> undocumented = new TreeSet<>(actual);
        undocumented.removeAll(documented);
        Set<String> gone = new TreeSet<>(documented);
        gone.removeAll(actual);
        if (!undocumented.isEmpty() || !gone.isEmpty()) {
          problems.add(ROOT.relativize(doc) + ", `locus " + command + "` flags: no row for "
              + undocumented + "; rows for flags the command does not have: " + gone);
        }
      });
    }
    assertThat(problems).isEmpty();
    // The tables this test exists for are found (a renamed heading would skip them silently).
    assertThat(all).containsKeys("run", "agent real", "agent sim", "broker", "topics create",
        "topics list", "status", "replay", "storage create", "dashboard");
  }

  @Test
  void theAgentsEvictionRowNamesEveryPolicy() throws IOException {
    String row = Files.readAllLines(ROOT.resolve("node-agent/README.md")).stream()
        .filter(l -> l.startsWith("| `eviction` |")).findFirst().orElseThrow();
    for (String policy : EvictionPolicies.NAMES) {
      assertThat(row).as("eviction row names " + policy).contains("`" + policy + "`");
    }
  }

  @Test
  void theParserFindsFlagsAndNegatableOnes(@org.junit.jupiter.api.io.TempDir Path dir)
      throws IOException {
    Path md = Files.writeString(dir.resolve("x.md"), String.join("\n",
        "# Doc", "### `locus topics create` flags", "", "| flag | default |", "|---|---|",
        "| `--bootstrap-servers` | |", "| `--[no-]create-topics`, `--port P` | 1 |", "",
        "| `--not-in-the-table` | |"));
    assertThat(tables(md)).containsOnlyKeys("topics create");
    assertThat(tables(md).get("topics create"))
        .containsExactly("--bootstrap-servers", "--create-topics", "--port");
  }
}
