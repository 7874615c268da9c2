package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.core.cache.EvictionPolicies;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The docs' flag tables are written by {@link FlagTables} from picocli's model of the commands,
 * and this test fails when one differs from what the generator writes now (a flag added,
 * renamed or re-described without regenerating). With {@code -Dlocus.docs.write=true} it
 * rewrites them instead ({@link FlagTables#REGENERATE}).
 */
class FlagTablesTest {
  /** The repository root: tests run in the module's directory. */
  static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  static final List<Path> DOCS = List.of(ROOT.resolve("README.md"),
      ROOT.resolve("docs/operations.md"), ROOT.resolve("node-agent/README.md"),
      ROOT.resolve("docs/reliability.md"));

  @Test
  void everyFlagTableIsWhatTheGeneratorWrites() throws IOException {
    if (Boolean.getBoolean("locus.docs.write")) {
      for (Path changed : FlagTables.write(DOCS)) {
        System.out.println("FlagTables: rewrote " + ROOT.relativize(changed));
      }
    }
    List<String> problems = new ArrayList<>();
    for (Path doc : DOCS) {
      String text = Files.readString(doc);
      String rendered = FlagTables.render(text);
      if (!rendered.equals(text)) {
        problems.add(ROOT.relativize(doc) + ": " + firstDifference(text, rendered));
      }
    }
    assertThat(problems)
        .as("flag tables out of date; regenerate them with%n  %s%nand commit the docs",
            FlagTables.REGENERATE)
        .isEmpty();
  }

  @Test
  void theTablesThisTestExistsForAreThere() throws IOException {
    Set<String> all = new LinkedHashSet<>();
    for (Path doc : DOCS) {
      all.addAll(FlagTables.commands(Files.readString(doc)));
    }
    // A marker renamed or deleted would drop its table from the check silently.
    assertThat(all).contains("run", "agent real", "agent sim", "agent node-key", "broker",
        "topics create", "topics list", "status", "replay", "storage create", "dashboard", "chaos");
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
  void theGeneratorReplacesOnlyWhatIsBetweenTheMarkers(@TempDir Path dir) throws IOException {
    String doc = String.join("\n", "# Doc", "Before.", "<!-- flags:locus broker -->",
        "| stale | table |", "<!-- /flags -->", "After.", "");
    String rendered = FlagTables.render(doc);
    assertThat(rendered).startsWith("# Doc\nBefore.\n<!-- flags:locus broker -->\n\n"
        + "| flag | default | description |\n|---|---|---|\n")
        .endsWith(" |\n\n<!-- /flags -->\nAfter.\n")
        .contains("| `--port PORT` | 9092 |", "| `--[no-]create-topics` | true |")
        .doesNotContain("stale");
    // Idempotent: a generated doc is what the generator writes.
    assertThat(FlagTables.render(rendered)).isEqualTo(rendered);
    Path md = Files.writeString(dir.resolve("x.md"), doc);
    assertThat(FlagTables.write(List.of(md))).containsExactly(md);
    assertThat(Files.readString(md)).isEqualTo(rendered);
    assertThat(FlagTables.write(List.of(md))).isEmpty();
  }

  @Test
  void anUnclosedTableOrAnUnknownCommandIsRefused() {
    assertThatThrownBy(() -> FlagTables.render("<!-- flags:locus broker -->\n| x |\n"))
        .hasMessageContaining("has no <!-- /flags -->");
    assertThatThrownBy(() -> FlagTables.render("<!-- flags:locus nosuch -->\n<!-- /flags -->"))
        .hasMessageContaining("no command `locus nosuch`");
  }

  @Test
  void aCellEscapesPipesAndAngleBracketsOutsideCode() {
    assertThat(FlagTables.cell("a|b <c> `<d>|`")).isEqualTo("a\\|b &lt;c&gt; `<d>\\|`");
  }

  @picocli.CommandLine.Command(name = "sample")
  static final class Sample {
    @picocli.CommandLine.ArgGroup(multiplicity = "1")
    Source source;

    static final class Source {
      @picocli.CommandLine.Option(names = "--trace", paramLabel = "FILE", description = "A trace.")
      String trace;

      @picocli.CommandLine.Option(names = "--workload", description = "A generator.")
      String workload;
    }

    @picocli.CommandLine.Option(names = "--window", paramLabel = "W",
        description = "Tasks per decision (MCU/MCH). Default: ${DEFAULT-VALUE}. More | text.")
    int window = 2500;

    @picocli.CommandLine.Option(names = "--host",
        description = "Where to listen. Default: 127.0.0.1 (this machine only).")
    String host;

    @picocli.CommandLine.Option(names = {"-q", "--quiet"}, description = "No <progress> bar.")
    boolean quiet;

    @picocli.CommandLine.Option(names = "--create-topics", negatable = true, defaultValue = "true",
        description = "Create the topics.")
    boolean createTopics;

    @picocli.CommandLine.Option(names = "--secret", hidden = true, description = "Not for users.")
    String secret;
  }

  @Test
  void aRowIsTheFlagItsDefaultAndItsDescription() {
    assertThat(FlagTables.table(new picocli.CommandLine(new Sample())).split("\n")).containsExactly(
        "| flag | default | description |",
        "|---|---|---|",
        "| `--trace FILE` | (one of `--trace`, `--workload`) | A trace. |",
        "| `--workload <workload>` | (one of `--trace`, `--workload`) | A generator. |",
        "| `--window W` | 2500 | Tasks per decision (MCU/MCH). More \\| text. |",
        "| `--host <host>` | 127.0.0.1 (this machine only) | Where to listen. |",
        "| `--quiet`, `-q` | false | No &lt;progress&gt; bar. |",
        "| `--[no-]create-topics` | true | Create the topics. |");
  }

  /** The first line where the doc and the generator's version differ, both quoted. */
  private static String firstDifference(String text, String rendered) {
    String[] a = text.split("\n", -1);
    String[] b = rendered.split("\n", -1);
    for (int i = 0; i < Math.max(a.length, b.length); i++) {
      String x = i < a.length ? a[i] : "(end)";
      String y = i < b.length ? b[i] : "(end)";
      if (!x.equals(y)) {
        return "line " + (i + 1) + " is\n    " + x + "\n  the generator writes\n    " + y;
      }
    }
    return "(no difference)";
  }
}
