package io.locus.workflows;

import static io.locus.workflows.Wf.job;
import static io.locus.workflows.Wf.part;
import static io.locus.workflows.Wf.workflow;
import static io.locus.schemas.WorkflowFailurePolicy.FAIL_DESCENDANTS;
import static io.locus.schemas.WorkflowFailurePolicy.FAIL_WORKFLOW;
import static org.assertj.core.api.Assertions.assertThat;

import io.locus.schemas.JobSubmitted;
import io.locus.schemas.WorkflowFailurePolicy;
import io.locus.schemas.WorkflowSubmitted;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkflowDagTest {
  private static WorkflowDag.Result build(JobSubmitted... jobs) {
    return WorkflowDag.build("w", List.of(workflow("w", FAIL_DESCENDANTS, jobs)));
  }

  @Test
  void aValidDagKeepsSubmissionOrderAndItsChildren() {
    WorkflowDag.Result r = build(job("a"), job("b", "a"), job("c", "a", "a"), job("d", "b", "c"));
    assertThat(r.refusal()).isNull();
    assertThat(r.dag().jobs()).extracting(JobSubmitted::getJobId)
        .containsExactly("a", "b", "c", "d");
    assertThat(r.dag().children().get("a")).containsExactly("b", "c"); // 'a' named twice by c
    assertThat(r.dag().children().get("c")).containsExactly("d");
    assertThat(WorkflowDag.Dag.parents(job("c", "a", "a"))).containsExactly("a");
  }

  @Test
  void aCycleIsNamedParentFirst() {
    assertThat(build(job("root"), job("a", "root", "c"), job("b", "a"), job("c", "b"))
        .refusal()).isEqualTo("cycle: 'a' → 'b' → 'c' → 'a'");
    assertThat(build(job("self", "self")).refusal()).isEqualTo("cycle: 'self' → 'self'");
  }

  @Test
  void aJobBelowACycleIsNotNamedAsPartOfIt() {
    // 'x' waits on the cycle but is not on it: the walk starts at it and must leave it out
    assertThat(build(job("x", "b"), job("a", "b"), job("b", "a")).refusal())
        .isEqualTo("cycle: 'b' → 'a' → 'b'");
  }

  @Test
  void aParentOutsideTheWorkflowIsNamed() {
    assertThat(build(job("a"), job("b", "a", "ghost")).refusal())
        .isEqualTo("job 'b' names parent 'ghost', which is not a job of this workflow");
  }

  @Test
  void aDuplicateJobIdIsNamed() {
    assertThat(build(job("a"), job("b"), job("a")).refusal())
        .isEqualTo("duplicate job id 'a'");
  }

  @Test
  void aJobInvalidForTheSchedulerIsRefusedWithTheSchedulersReason() {
    JobSubmitted noInputs = JobSubmitted.newBuilder(job("b", "a")).setInputs(List.of()).build();
    assertThat(build(job("a"), noInputs).refusal()).isEqualTo("job 'b': job has no inputs");
    JobSubmitted badPriority = JobSubmitted.newBuilder(job("p")).setPriority(5000).build();
    assertThat(build(badPriority).refusal()).startsWith("job 'p': priority 5000 is out of range");
  }

  @Test
  void aJobOfAnotherWorkflowAndAnEmptyWorkflowAreRefused() {
    JobSubmitted other = JobSubmitted.newBuilder(job("a")).setWorkflow("v").build();
    assertThat(build(other).refusal()).isEqualTo("job 'a' names workflow 'v', not 'w'");
    assertThat(build().refusal()).isEqualTo("the workflow has no jobs");
  }

  @Test
  void headerAndPartsThatDisagreeAreNamed() {
    WorkflowSubmitted unknown = workflow("w", WorkflowFailurePolicy.UNKNOWN, job("a"));
    assertThat(WorkflowDag.headerProblem(unknown)).startsWith("onFailure is UNKNOWN");
    assertThat(WorkflowDag.headerProblem(part("w", 3, 3, FAIL_DESCENDANTS, job("a"))))
        .isEqualTo("part 3 is out of range [0, 2]");
    assertThat(WorkflowDag.headerProblem(part("w", 0, 0, FAIL_DESCENDANTS)))
        .isEqualTo("parts 0 is out of range [1, 1024]");
    WorkflowSubmitted early = WorkflowSubmitted.newBuilder(workflow("w", FAIL_DESCENDANTS,
        job("a"))).setSubmitTimeMs(-1).build();
    assertThat(WorkflowDag.headerProblem(early)).startsWith("submitTimeMs -1 is out of range");

    WorkflowDag.Header first = WorkflowDag.Header.of(part("w", 0, 2, FAIL_DESCENDANTS, job("a")));
    assertThat(WorkflowDag.partProblem(first, part("w", 1, 2, FAIL_DESCENDANTS, job("b"))))
        .isNull();
    assertThat(WorkflowDag.partProblem(first, part("w", 1, 3, FAIL_DESCENDANTS, job("b"))))
        .isEqualTo("part 1 says the workflow has 3 parts, an earlier part says 2");
    assertThat(WorkflowDag.partProblem(first, part("w", 1, 2, FAIL_WORKFLOW, job("b"))))
        .isEqualTo("part 1 says onFailure FAIL_WORKFLOW, an earlier part says FAIL_DESCENDANTS");
  }

  @Test
  void partsAreJoinedInPartOrder() {
    WorkflowDag.Result r = WorkflowDag.build("w", List.of(
        part("w", 0, 2, FAIL_DESCENDANTS, job("b", "a")),
        part("w", 1, 2, FAIL_DESCENDANTS, job("a"))));
    assertThat(r.refusal()).isNull();
    assertThat(r.dag().jobs()).extracting(JobSubmitted::getJobId).containsExactly("b", "a");
  }
}
