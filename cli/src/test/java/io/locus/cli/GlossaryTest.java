package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The specs the code cites live outside the repository; docs/glossary.md resolves their section
 * (§) and decision (D) numbers. Every number the sources and docs cite must have its row there,
 * so a new citation comes with its explanation.
 */
class GlossaryTest {
  static final Path ROOT = FlagTablesTest.ROOT;
  private static final Pattern SECTION = Pattern.compile("§ ?([0-9]+(?:\\.[0-9]+)?)");
  private static final Pattern DECISION = Pattern.compile("\\bD([0-9]{1,2})\\b");

  /** Every .java and .md file of the repository, build output and hidden folders aside. */
  static Stream<Path> sources() throws IOException {
    return Files.walk(ROOT)
        .filter(p -> !ROOT.relativize(p).toString().matches("(.*/)?(target|node_modules|\\..*)/.*"))
        .filter(p -> p.toString().endsWith(".java") || p.toString().endsWith(".md"))
        .filter(Files::isRegularFile);
  }

  static Set<String> cited(Pattern pattern, String prefix) throws IOException {
    Set<String> out = new TreeSet<>();
    try (Stream<Path> files = sources()) {
      files.filter(p -> !p.endsWith(Path.of("docs", "glossary.md"))).forEach(p -> {
        try {
          Matcher m = pattern.matcher(Files.readString(p));
          while (m.find()) {
            out.add(prefix + m.group(1));
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
    return out;
  }

  /** The first cells of the glossary's table rows: "§2.4", "D26". */
  static Set<String> explained() throws IOException {
    Set<String> out = new TreeSet<>();
    for (String line : Files.readAllLines(ROOT.resolve("docs/glossary.md"))) {
      Matcher m = Pattern.compile("^\\| (§[0-9.]+|D[0-9]+) \\|").matcher(line);
      if (m.find()) {
        out.add(m.group(1));
      }
    }
    return out;
  }

  @Test
  void everyCitedSectionAndDecisionHasAGlossaryRow() throws IOException {
    Set<String> explained = explained();
    Set<String> sections = cited(SECTION, "§");
    Set<String> decisions = cited(DECISION, "D");
    // The scan itself works: the code cites many of both.
    assertThat(sections).contains("§1.4", "§2.2");
    assertThat(decisions).contains("D9", "D26");
    sections.removeAll(explained);
    decisions.removeAll(explained);
    assertThat(sections).as("sections cited without a row in docs/glossary.md").isEmpty();
    assertThat(decisions).as("decisions cited without a row in docs/glossary.md").isEmpty();
  }
}
