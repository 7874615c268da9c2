package io.locus.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.locus.core.model.Command;
import io.locus.core.model.Reason;
import io.locus.core.model.Task;
import io.locus.schemas.DataUnit;
import io.locus.schemas.JobSubmitted;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.state.TaskState;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A workflow job's outputs travel from the arrival through the queued task's keyed state to the
 * placement the agent reads (issue 15): dropping them anywhere would leave children reading from
 * storage what their parent's node already holds.
 */
class ConversionsOutputsTest {
  @Test
  void outputsSurviveArrivalStateAndPlacement() {
    JobSubmitted job = JobSubmitted.newBuilder().setJobId("wf/t1").setPool("p").setSubmitTimeMs(0)
        .setInputs(List.of(DataUnit.newBuilder().setId("in").setBytes(5).build()))
        .setOutputs(List.of(DataUnit.newBuilder().setId("out-a").setBytes(7).build(),
            DataUnit.newBuilder().setId("out-b").setBytes(0).build()))
        .build();
    Task task = Conversions.toTask(job, 1);
    assertThat(task.outputs()).extracting(f -> f.id() + ":" + f.bytes())
        .containsExactly("out-a:7", "out-b:0");

    TaskState state = Conversions.toState("p", task, null);
    Task restored = Conversions.fromState(state);
    assertThat(restored.outputs()).isEqualTo(task.outputs());

    PlaceTask place = Conversions.toPlaceTask(
        new Command.Run("n1", restored, List.of(), new Reason("MCH", 0, 0, 0, 0)));
    assertThat(place.getOutputs()).extracting(u -> u.getId() + ":" + u.getBytes())
        .containsExactly("out-a:7", "out-b:0");
  }

  @Test
  void aJobWithoutOutputsPlacesWithAnEmptyList() {
    JobSubmitted job = JobSubmitted.newBuilder().setJobId("j").setPool("p").setSubmitTimeMs(0)
        .setInputs(List.of()).build();
    PlaceTask place = Conversions.toPlaceTask(new Command.Run("n1", Conversions.toTask(job, 0),
        List.of(), new Reason("FA", 0, 0, 0, 0)));
    assertThat(place.getOutputs()).isEmpty();
  }
  @Test
  void aJobsQueueSurvivesArrivalAndKeyedState() {
    JobSubmitted job = JobSubmitted.newBuilder().setJobId("j").setPool("p").setSubmitTimeMs(0)
        .setInputs(List.of()).setQueue("team-a").build();
    Task task = Conversions.toTask(job, 3);
    assertThat(task.queue()).isEqualTo("team-a");
    Task restored = Conversions.fromState(Conversions.toState("p", task, null));
    assertThat(restored.queue()).isEqualTo("team-a");
    assertThat(restored).isEqualTo(task);
    JobSubmitted none = JobSubmitted.newBuilder().setJobId("k").setPool("p").setSubmitTimeMs(0)
        .setInputs(List.of()).build();
    assertThat(Conversions.fromState(Conversions.toState("p", Conversions.toTask(none, 4), null))
        .queue()).as("no queue: the pool's default").isNull();
  }
}
