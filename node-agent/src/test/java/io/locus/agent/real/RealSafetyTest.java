package io.locus.agent.real;

import static io.locus.agent.real.Fixture.input;
import static io.locus.agent.real.Fixture.local;
import static io.locus.agent.real.Fixture.storage;
import static io.locus.agent.real.Fixture.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.agent.Refusal;
import io.locus.schemas.auth.RecordSigner;
import io.locus.schemas.Decision;
import io.locus.schemas.FetchSource;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import io.locus.schemas.limits.FileIds;
import io.locus.schemas.limits.Limits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Every unsafe decision is refused with its reason; nothing of it reaches disk or a process. */
@Timeout(60)
class RealSafetyTest {
  @TempDir
  Path tmp;
  private Fixture fx;
  private AwaitingOutput out;

  @BeforeEach
  void setUp() {
    fx = new Fixture(tmp);
    fx.storageFile("ok", 100);
    out = new AwaitingOutput();
  }

  @AfterEach
  void tearDown() {
    fx.close();
  }

  private TaskEvent refused(RealAgent a, String taskId, Decision d) {
    a.agent().onDecision(d);
    TaskEvent e = out.awaitEnd(taskId);
    assertThat(e.getType()).as(e.getMessage()).isEqualTo(TaskEventType.REFUSED);
    assertThat(out.eventsOf(taskId)).as("no STARTED before a refusal").hasSize(1);
    return e;
  }

  @Test
  void fileIdsThatWouldEscapeTheCacheDirectoryAreRefused() {
    RealAgent a = fx.started(fx.config("a").build(), out);
    int i = 0;
    // "a/b" is an acceptable id since issue 15 (cached as "a%2Fb", see FileIdsTest); "a//b" and
    // "a/./b" are not.
    for (String bad : List.of("../escape", "..", "/etc/passwd", "a//b", "a/./b", "a\\b", ".hidden",
        "nul\0byte", "", "a/../../b")) {
      String t = "t" + i++;
      TaskEvent e = refused(a, t, fx.decision("a", task(t, "sum", List.of(), storage(bad, 1))));
      assertThat(e.getMessage()).startsWith(Refusal.UNSAFE_FILE_ID + ": ");
    }
    // Evicting or replicating such an id is refused too (logged and counted: no task to name).
    a.agent().onDecision(fx.decision("a", Fixture.evict("ok", "../../x")));
    assertThat(a.agent().refusals()).containsEntry(Refusal.UNSAFE_FILE_ID, 11L);
    assertThat(Files.exists(tmp.resolve("a").resolve("escape"))).isFalse();
    assertThat(a.stats().tasksStarted()).isZero();
  }

  /**
   * Issue 22: the agent refuses a file id by the same rule and the same limit as the scheduler's
   * validation (FileIds, Limits.MAX_FILE_ID_BYTES), so no job the scheduler accepts fails here
   * on length: 1,024 characters were accepted there while this refused 256 bytes.
   */
  @Test
  void aFileIdOverTheSharedLimitIsRefusedByTheSharedRule() {
    RealAgent a = fx.started(fx.config("a").build(), out);
    String id = "x".repeat(Limits.MAX_FILE_ID_BYTES + 1);
    TaskEvent e = refused(a, "t-long",
        fx.decision("a", task("t-long", "sum", List.of(), storage(id, 1))));
    assertThat(e.getMessage()).isEqualTo(Refusal.UNSAFE_FILE_ID + ": " + FileIds.problem(id))
        .endsWith("' is 256 bytes as a file name, more than the limit of "
            + Limits.MAX_FILE_ID_BYTES);
  }

  @Test
  void aSymbolicLinkInTheCacheDirectoryIsNeverFollowed() throws IOException {
    Path secret = Files.writeString(tmp.resolve("secret.txt"), "not for tasks");
    RealAgent a = fx.started(fx.config("a").build(), out);
    Files.createSymbolicLink(a.cache().root().resolve("evil"), secret);

    TaskEvent e = refused(a, "t1", fx.decision("a", task("t1", "sum", List.of(),
        local("evil", 13))));
    assertThat(e.getMessage()).startsWith(Refusal.SYMLINK + ": ").contains("'evil'");
    // Peers cannot read it either.
    assertThat(a.agent().holds("evil")).isFalse();
  }

  @Test
  void aDecisionFromAnOlderEpochIsRefused() {
    RealAgent a = fx.started(fx.config("a").build(), out);
    fx.epoch = 5;
    a.agent().onDecision(fx.decision("a", task("t1", "echo", List.of("hi"))));
    assertThat(out.awaitEnd("t1").getType()).isEqualTo(TaskEventType.COMPLETED);
    fx.epoch = 4;
    TaskEvent e = refused(a, "t2", fx.decision("a", task("t2", "echo", List.of("hi"))));
    assertThat(e.getMessage()).isEqualTo("stale epoch 4 < 5");
    assertThat(a.agent().refusals()).containsEntry(Refusal.STALE_EPOCH, 1L);
  }

  @Test
  void withASecretUnsignedForgedAndTamperedDecisionsAreRefused() {
    RecordSigner pool = RecordSigner.of("pool secret");
    RealAgent a = fx.started(fx.config("a").signer(pool).build(), out);

    TaskEvent unsigned = refused(a, "t1", fx.decision("a", task("t1", "echo", List.of("x"))));
    assertThat(unsigned.getMessage()).startsWith(Refusal.UNSIGNED);

    // Signed with another secret, with a huge epoch: refused, and it does not lock out the
    // real scheduler's epoch.
    fx.epoch = 1_000_000;
    Decision forged = RecordSigner.of("guess").sign(
        fx.decision("a", task("t2", "echo", List.of("x"))));
    assertThat(refused(a, "t2", forged).getMessage()).startsWith(Refusal.BAD_SIGNATURE);
    fx.epoch = 1;

    // Signed right, then an argument changed in transit.
    Decision signed = pool.sign(fx.decision("a", task("t3", "echo", List.of("x"))));
    PlaceTask changed = PlaceTask.newBuilder((PlaceTask) signed.getAction())
        .setArgs(List.of("y")).build();
    Decision tampered = Decision.newBuilder(signed).setAction(changed).build();
    assertThat(refused(a, "t3", tampered).getMessage()).startsWith(Refusal.BAD_SIGNATURE);

    // The genuine one (same id as the tampered copy: the forgery did not poison the dedupe
    // window) runs.
    a.agent().onDecision(signed);
    TaskEvent ok = out.awaitEvent("t3 completed", e -> e.getTaskId().equals("t3")
        && e.getType() == TaskEventType.COMPLETED);
    assertThat(ok.getEpoch()).isEqualTo(1);
    assertThat(a.agent().refusals()).containsEntry(Refusal.UNSIGNED, 1L)
        .containsEntry(Refusal.BAD_SIGNATURE, 2L);
  }

  @Test
  void anUnknownTemplateOrNoTemplateIsRefused() {
    RealAgent a = fx.started(fx.config("a").build(), out);
    assertThat(refused(a, "t1", fx.decision("a", task("t1", "rm", List.of("-rf", "/"))))
        .getMessage()).startsWith(Refusal.UNKNOWN_TEMPLATE + ": 'rm' is not one of [");
    assertThat(refused(a, "t2", fx.decision("a", task("t2", null, List.of()))).getMessage())
        .startsWith(Refusal.UNKNOWN_TEMPLATE + ": the decision names no template");
  }

  @Test
  void argumentsCannotInjectCommandsOrPlaceholdersTheyStayLiteralArguments() throws IOException {
    RealAgent a = fx.started(fx.config("a").build(), out);
    List<String> args = List.of("; touch pwned #", "$(touch pwned2)", "`touch pwned3`",
        "{output}", "a b  c", "--help", "x\ny");
    a.agent().onDecision(fx.decision("a", task("t1", "echo", args)));

    TaskEvent done = out.awaitEnd("t1");
    assertThat(done.getType()).as(done.getMessage()).isEqualTo(TaskEventType.COMPLETED);
    Path wd = a.executor().workDir("t1#0").orElseThrow();
    // printf '%s\n' printed each argument exactly as given, one per line ("x\ny" spans two).
    assertThat(Files.readString(wd.resolve("stdout")))
        .isEqualTo(String.join("\n", args) + "\n");
    try (Stream<Path> all = Files.walk(tmp)) {
      assertThat(all.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("pwned"));
    }
  }

  @Test
  void argumentsBeyondTheTemplatesLimitsAreRefused() {
    RealAgent a = fx.started(fx.config("a")
        .template(TaskTemplate.of("strict", List.of("printf", "%s", "{args}")).withMaxArgs(2)
            .withArgPattern("[a-z0-9]+"))
        .build(), out);
    assertThat(refused(a, "t1", fx.decision("a", task("t1", "strict", List.of("a", "b", "c"))))
        .getMessage()).isEqualTo(Refusal.BAD_ARGUMENT + ": 3 arguments; template strict allows 2");
    assertThat(refused(a, "t2", fx.decision("a", task("t2", "strict", List.of("ok", "-rf"))))
        .getMessage()).startsWith(Refusal.BAD_ARGUMENT + ": argument 1 does not match");
    assertThat(refused(a, "t3", fx.decision("a", task("t3", "ls", List.of()))).getMessage())
        .isEqualTo(Refusal.BAD_ARGUMENT + ": template ls needs argument 0; the decision has 0");
    assertThat(refused(a, "t4", fx.decision("a", task("t4", "echo", List.of("a\0b"))))
        .getMessage()).isEqualTo(Refusal.BAD_ARGUMENT + ": argument 0 contains a NUL character");
  }

  @Test
  void locationsOutsideTheAllowedStorageAndUnverifiableChecksumsAreRefused() {
    RealAgent a = fx.started(fx.config("a").build(), out);
    assertThat(refused(a, "t1", fx.decision("a", task("t1", "sum", List.of(),
        input("passwd", 10, FetchSource.STORAGE, null, "file:///etc/passwd", null, true))))
        .getMessage()).startsWith(Refusal.LOCATION_NOT_ALLOWED + ": file:///etc/passwd is outside");
    assertThat(refused(a, "t2", fx.decision("a", task("t2", "sum", List.of(),
        input("x", 10, FetchSource.STORAGE, null, fx.storage.toUri() + "../../etc/passwd",
            null, true)))).getMessage()).startsWith(Refusal.LOCATION_NOT_ALLOWED);
    assertThat(refused(a, "t3", fx.decision("a", task("t3", "sum", List.of(),
        input("x", 10, FetchSource.STORAGE, null, "http://169.254.169.254/latest", null,
            true)))).getMessage()).startsWith(Refusal.LOCATION_NOT_ALLOWED);
    assertThat(refused(a, "t4", fx.decision("a", task("t4", "sum", List.of(),
        input("ok", 100, FetchSource.STORAGE, null, null, "md5:abc", true)))).getMessage())
        .startsWith(Refusal.BAD_INPUT + ": checksum of ok");
  }

  @Test
  void aSymlinkInStorageLeadingOutsideIsNotRead() throws IOException {
    Files.writeString(tmp.resolve("outside.txt"), "secret");
    Files.createSymbolicLink(fx.storage.resolve("link"), tmp.resolve("outside.txt"));
    RealAgent a = fx.started(fx.config("a").build(), out);
    a.agent().onDecision(fx.decision("a", task("t1", "sum", List.of(), storage("link", 6))));
    TaskEvent e = out.awaitEnd("t1");
    assertThat(e.getType()).isEqualTo(TaskEventType.FAILED);
    assertThat(e.getMessage()).contains("outside the allowed locations");
    assertThat(a.agent().cacheContents()).isEmpty();
  }
}
