package io.locus.agent.real;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.agent.Refusal;
import io.locus.schemas.EventRange;
import io.locus.schemas.PlaceTask;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class TaskTemplateTest {
  private static TaskTemplate.Context ctx(List<String> inputs, List<String> args) {
    return new TaskTemplate.Context(inputs, args, "/w/out", "/w", "t1", 2, "j1", "n1", "p", 1.50);
  }

  @Test
  void listPlaceholdersExpandToOneArgumentPerItem() {
    TaskTemplate t = TaskTemplate.of("t", List.of("tool", "--out={output}", "{inputs}", "--",
        "{args}"));
    assertThat(t.expand(ctx(List.of("/c/a", "/c/b c"), List.of("x", "y z"))))
        .containsExactly("tool", "--out=/w/out", "/c/a", "/c/b c", "--", "x", "y z");
    assertThat(t.expand(ctx(List.of(), List.of()))).containsExactly("tool", "--out=/w/out", "--");
  }

  /** Issue 23: {outputs} is every declared output's path, one argument each, however many. */
  @Test
  void outputsIsTheListOfDeclaredOutputPaths() {
    TaskTemplate t = TaskTemplate.of("t", List.of("tool", "{outputs}", "--", "{inputs}"));
    assertThat(t.expand(ctx(List.of("/c/a"), List.of())
        .withOutputs(List.of("/w/out/x", "/w/out/y z", "/w/out/wf%2Fq"))))
        .containsExactly("tool", "/w/out/x", "/w/out/y z", "/w/out/wf%2Fq", "--", "/c/a");
    assertThat(t.expand(ctx(List.of(), List.of()))).containsExactly("tool", "--");
    assertThatThrownBy(() -> TaskTemplate.of("t", List.of("x", "--out={outputs}")))
        .hasMessageContaining("must be a whole element");
    assertThat(ProcessTaskExecutor.pathLists(List.of("/c/a", "/c/b c"),
        List.of("/w/out/x", "/w/out/y z"), List.of(10L, 2_000_000L)))
        .containsEntry("LOCUS_INPUTS", "/c/a\n/c/b c")
        .containsEntry("LOCUS_OUTPUTS", "/w/out/x\n/w/out/y z")
        .containsEntry("LOCUS_OUTPUT_SIZES", "10 /w/out/x\n2000000 /w/out/y z");
    assertThat(ProcessTaskExecutor.pathLists(List.of("/" + "a".repeat(100_000)), List.of(),
        List.of())).doesNotContainKey("LOCUS_INPUTS").containsEntry("LOCUS_OUTPUTS", "");
  }

  @Test
  void scalarPlaceholdersAndLiteralBraces() {
    TaskTemplate t = TaskTemplate.of("t", List.of("tool", "{input:1}", "{arg:0}.{attempt}",
        "{task}/{job}/{node}/{pool}/{workdir}", "{compute}s", "{{literal}}"));
    assertThat(t.expand(ctx(List.of("/a", "/b"), List.of("v"))))
        .containsExactly("tool", "/b", "v.2", "t1/j1/n1/p//w", "1.5s", "{literal}");
  }

  @Test
  void valuesAreNeverExpandedAgainNorSplit() {
    TaskTemplate t = TaskTemplate.of("t", List.of("echo", "pre-{arg:0}", "{args}"));
    List<String> evil = List.of("{output} $(id)", "; rm -rf / #");
    assertThat(t.expand(ctx(List.of(), evil)))
        .containsExactly("echo", "pre-{output} $(id)", "{output} $(id)", "; rm -rf / #");
  }

  @Test
  void badTemplatesFailWhenTheConfigIsRead() {
    assertThatThrownBy(() -> TaskTemplate.of("t", List.of("x", "{nope}")))
        .hasMessageContaining("unknown placeholder {nope}");
    assertThatThrownBy(() -> TaskTemplate.of("t", List.of("x", "--in={inputs}")))
        .hasMessageContaining("must be a whole element");
    assertThatThrownBy(() -> TaskTemplate.of("t", List.of("{arg:0}")))
        .hasMessageContaining("the program itself cannot be a placeholder");
    assertThatThrownBy(() -> TaskTemplate.of("t", List.of("x", "{output")))
        .hasMessageContaining("unclosed");
    assertThatThrownBy(() -> TaskTemplate.of("t", List.of())).hasMessageContaining("empty");
  }

  @Test
  void checkRefusesArgumentsOutsideTheLimits() {
    TaskTemplate t = TaskTemplate.of("t", List.of("x", "{arg:1}", "{input:0}")).withMaxArgs(3)
        .withArgPattern("[a-z]+");
    assertThat(t.check(Fixture.task("a", "t", List.of("a", "b"), Fixture.storage("f", 1))))
        .isNull();
    assertThat(t.check(Fixture.task("a", "t", List.of("a"), Fixture.storage("f", 1))).kind())
        .isEqualTo(Refusal.BAD_ARGUMENT);
    assertThat(t.check(Fixture.task("a", "t", List.of("a", "b"))).kind())
        .isEqualTo(Refusal.BAD_INPUT);
    assertThat(t.check(Fixture.task("a", "t", List.of("a", "B"), Fixture.storage("f", 1)))
        .detail()).contains("does not match [a-z]+");
    assertThat(t.check(Fixture.task("a", "t", List.of("a", "b", "c", "d"))).detail())
        .isEqualTo("4 arguments; template t allows 3");
  }

  @Test
  void batchPlaceholdersExpandForOneBatchOfAnEventRangeTask() {
    TaskTemplate t = TaskTemplate.of("ana", List.of("ana", "--dataset={dataset}", "{batch-start}",
        "{batch-end}", "{output}/h-{batch-start}.root"));
    TaskTemplate.Context batch = new TaskTemplate.Context(List.of(), List.of(), "/w/out", "/w",
        "t1", 0, "j1", "n1", "p", 0, "lhcb 2004", 3_000, 4_000);
    assertThat(t.expand(batch)).containsExactly("ana", "--dataset=lhcb 2004", "3000", "4000",
        "/w/out/h-3000.root");

    PlaceTask noRange = Fixture.task("a", "ana", List.of());
    assertThat(t.check(noRange).kind()).isEqualTo(Refusal.BAD_INPUT);
    assertThat(t.check(noRange).detail()).contains("uses {dataset}");
    assertThat(t.check(PlaceTask.newBuilder(noRange)
        .setEvents(new EventRange("lhcb", 0L, 10L)).build())).isNull();
  }

  @Test
  void outputPlaceholdersNameTheDeclaredOutputsFiles() {
    TaskTemplate t = TaskTemplate.of("t", List.of("tool", "{output}", "--out={output:1}"));
    assertThat(t.expand(ctx(List.of(), List.of())
        .withOutputs(List.of("/w/out/a", "/w/out/wf%2Fb"))))
        .containsExactly("tool", "/w/out", "--out=/w/out/wf%2Fb");
    PlaceTask one = PlaceTask.newBuilder().setTaskId("t").setJobId("j").setAttempt(0)
        .setInputs(List.of())
        .setReason(io.locus.schemas.PlacementReason.newBuilder().setPolicy("T").build())
        .setOutputs(List.of(io.locus.schemas.DataUnit.newBuilder().setId("a").setBytes(1)
            .build()))
        .build();
    assertThat(t.check(one).detail()).isEqualTo("template t needs output 1; the task declares 1");
    assertThat(TaskTemplate.of("t", List.of("tool", "{output:0}")).check(one)).isNull();
    PlaceTask range = PlaceTask.newBuilder(one)
        .setEvents(EventRange.newBuilder().setDataset("d").setStart(0).setEnd(10).build()).build();
    assertThat(TaskTemplate.of("t", List.of("tool", "{output:0}")).check(range).message())
        .contains("an event-range task creates no output files");
  }
}
