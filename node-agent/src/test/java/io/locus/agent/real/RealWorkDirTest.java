package io.locus.agent.real;

import static io.locus.agent.real.Fixture.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.TaskEvent;
import io.locus.schemas.TaskEventType;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A task in a recycled work directory sees what it would see in a fresh one. */
@Timeout(60)
class RealWorkDirTest {
  @TempDir
  Path tmp;
  private Fixture fx;
  private AwaitingOutput out;

  @BeforeEach
  void setUp() {
    fx = new Fixture(tmp);
    out = new AwaitingOutput();
  }

  @AfterEach
  void tearDown() {
    fx.close();
  }

  private TaskEvent run(RealAgent a, String id) {
    a.agent().onDecision(fx.decision("a", task(id, "look", List.of())));
    TaskEvent e = out.awaitEnd(id);
    assertThat(e.getType()).isEqualTo(TaskEventType.COMPLETED);
    return e;
  }

  @Test
  void theSecondRunGetsTheFirstRunsDirectoryRenamedAndSeesTheSame() {
    // Lists its directory to stderr (the event's message), and what is in its stdout, out/, tmp/.
    RealAgent a = fx.started(fx.config("a").slots(1).set("work.keep", 0)
        .template("look", "sh", "-c",
            "echo \"$PWD\" > /dev/null; ls -A . out tmp >&2; wc -c < stdout >&2; "
                + "echo written; test \"$LOCUS_WORK_DIR\" = \"$PWD\" || echo wrong-dir >&2")
        .build(), out);
    String first = run(a, "t1").getMessage();
    assertThat(a.executor().recycledWorkDirs()).isZero();
    String second = run(a, "t2").getMessage();
    assertThat(a.executor().recycledWorkDirs()).isEqualTo(1);
    assertThat(first).contains("out").contains("tmp").contains("stderr").contains("stdout")
        .doesNotContain("wrong-dir");
    assertThat(second).isEqualTo(first);
  }

  @Test
  void withoutRecyclingEachRunGetsANewDirectory() {
    RealAgent a = fx.started(fx.config("a").slots(1).set("work.keep", 0)
        .set("work.recycle", false).template("look", "sh", "-c", "ls -A . >&2").build(), out);
    String first = run(a, "t1").getMessage();
    String second = run(a, "t2").getMessage();
    assertThat(second).isEqualTo(first);
    assertThat(a.executor().recycledWorkDirs()).isZero();
  }
}
