package io.locus.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code locus queues apply}'s local check (issue 24): a file that is not a usable queue tree is
 * refused before anything is sent, exit 2, with every reason the scheduler's own rules give (the
 * broker named, port 1, is never contacted: the answer comes before it).
 */
class QueuesCommandTest {
  @TempDir Path tmp;

  private record Run(int code, String out, String err) {}

  private static Run locus(String... args) {
    CommandLine cl = LocusCli.commandLine();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new Run(code, out.toString(), err.toString());
  }

  private Run apply(String name, String content, String... more) throws Exception {
    Path f = tmp.resolve(name);
    Files.writeString(f, content);
    String[] args = new String[5 + more.length];
    args[0] = "queues";
    args[1] = "apply";
    args[2] = f.toString();
    args[3] = "--bootstrap-servers";
    args[4] = "127.0.0.1:1";
    System.arraycopy(more, 0, args, 5, more.length);
    return locus(args);
  }

  @Test
  void aTreeBreakingEveryRuleIsRefusedWithEveryReasonAndExit2() throws Exception {
    Run r = apply("q.yaml", """
        pool: batch
        queues:
          - name: a
            parent: b
          - name: b
            parent: a
          - name: eng
            guaranteedSlots: 5
            limitSlots: 4
          - name: ml
            weight: -1
        """);
    assertThat(r.code()).as(r.err()).isEqualTo(2);
    assertThat(r.err()).contains("is refused, nothing sent (3 problem(s))")
        .contains("queues form a cycle")
        .contains("guarantee 5 is above its limit 4")
        .contains("weight must be a finite number > 0, got -1");
  }

  @Test
  void jsonIsReadTooAndABadNameIsRefused() throws Exception {
    Run r = apply("q.json", "{\"queues\": [{\"name\": \"eng.ml\"}]}", "--pool", "batch");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("queue name 'eng.ml' has a character outside [A-Za-z0-9_-]");
  }

  @Test
  void malformedFilesAreBadInputNamingThePlace() throws Exception {
    Run yaml = apply("bad.yaml", "queues:\n  - name: a\n   weight: [\n", "--pool", "p");
    assertThat(yaml.code()).isEqualTo(2);
    assertThat(yaml.err()).contains("bad.yaml: line ");

    Run unknownKey = apply("typo.yaml", "queues:\n  - name: a\n    wieght: 2\n", "--pool", "p");
    assertThat(unknownKey.code()).isEqualTo(2);
    assertThat(unknownKey.err()).contains("typo.yaml: line ")
        .contains("(at queues[0].wieght): unknown key 'wieght' (known: cacheGuaranteeBytes,");

    Run fraction = apply("frac.yaml", "queues:\n  - name: a\n    guaranteedSlots: 2.5\n",
        "--pool", "p");
    assertThat(fraction.code()).isEqualTo(2);
    assertThat(fraction.err()).contains("frac.yaml: line 3")
        .contains("(at queues[0].guaranteedSlots)");

    Run noList = apply("none.yaml", "pool: p\n");
    assertThat(noList.code()).isEqualTo(2);
    assertThat(noList.err()).contains("has no 'queues' list");

    Run noPool = apply("nopool.yaml", "queues: []\n");
    assertThat(noPool.code()).isEqualTo(2);
    assertThat(noPool.err()).contains("names no pool: give --pool");

    Run missing = locus("queues", "apply", tmp.resolve("absent.yaml").toString(),
        "--bootstrap-servers", "127.0.0.1:1", "--pool", "p");
    assertThat(missing.code()).isEqualTo(2);
    assertThat(missing.err()).contains("absent.yaml: no such file");
  }

  @Test
  void aValidTreeIsSentAndNoBrokerIsExit3() throws Exception {
    Run r = apply("ok.yaml", "queues:\n  - name: eng\n    limitSlots: 4\n", "--pool", "p",
        "--timeout", "2s");
    assertThat(r.code()).as(r.err()).isEqualTo(3);
    assertThat(r.err()).contains("cannot reach Kafka at 127.0.0.1:1");
  }
}
