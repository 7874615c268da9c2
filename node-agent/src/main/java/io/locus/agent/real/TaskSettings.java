package io.locus.agent.real;

import io.locus.agent.AgentConfig;
import io.locus.schemas.units.ByteSize;
import io.locus.agent.config.InvalidSetting;
import io.locus.agent.config.Setting;
import java.time.Duration;
import java.util.Map;

/**
 * [tasks] How task processes run.
 *
 * @param timeout [tasks.timeout] a task's time limit when its template sets none (default 1h)
 * @param killGrace [tasks.kill-grace] between SIGTERM and SIGKILL when a task is stopped
 *     (default 5s)
 * @param stderrTailBytes [tasks.stderr-tail-bytes] how much of the end of stderr goes into the task
 *     event's message (default 2000 B)
 * @param inheritEnv [tasks.inherit-env] start tasks with the agent's environment (default false:
 *     a clean one)
 * @param env [tasks.env] environment variables for every task
 * @param eventBatch [tasks.event-batch] events per process of an event-range task: the template
 *     runs once per batch; a suspend loses the batch in progress, a shrink lets it finish
 *     (default 1000)
 * @param queueDepth [tasks.queue-depth] placements held beyond the slots in a local queue and
 *     started as slots free (late binding); 0: a placement finding every slot busy is refused;
 *     null (default): as many as the node has slots ({@link #queueDepthFor}). Why a queue by
 *     default: with exactly-once delivery a decision reaches the agent only when the
 *     scheduler's checkpoint commits, so a slot without a queued task idles for about a
 *     checkpoint interval between tasks (20 % busy with 1-s tasks and 5-s checkpoints, measured:
 *     docs/performance.md "Keeping real slots busy")
 */
public record TaskSettings(Duration timeout, Duration killGrace, ByteSize stderrTailBytes,
    Boolean inheritEnv, Map<String, String> env, Integer eventBatch, Integer queueDepth) {
  public static final int DEFAULT_EVENT_BATCH = 1000;
  public static final TaskSettings DEFAULTS = new TaskSettings(null, null, null, null, null, null,
      null);

  public TaskSettings {
    timeout = Setting.positive("timeout", Setting.orDefault(timeout, Duration.ofHours(1)));
    killGrace = Setting.positive("kill-grace",
        Setting.orDefault(killGrace, Duration.ofSeconds(5)));
    stderrTailBytes = Setting.orDefault(stderrTailBytes, new ByteSize(2000));
    if (stderrTailBytes.bytes() > Integer.MAX_VALUE) {
      throw new InvalidSetting("stderr-tail-bytes", "must be at most " + Integer.MAX_VALUE
          + " bytes, got " + stderrTailBytes);
    }
    inheritEnv = Setting.orDefault(inheritEnv, false);
    env = Setting.values("env", env);
    eventBatch = Setting.atLeast("event-batch", Setting.orDefault(eventBatch, DEFAULT_EVENT_BATCH),
        1);
    // null: as many as the node has slots, decided where the slots are known (AgentConfigFile)
    queueDepth = queueDepth == null ? null
        : Setting.between("queue-depth", queueDepth, 0, AgentConfig.MAX_QUEUE_DEPTH);
  }

  /** The local queue depth of a node with {@code slots} slots: the one set, else its slots. */
  public int queueDepthFor(int slots) {
    return queueDepth != null ? queueDepth : Math.min(slots, AgentConfig.MAX_QUEUE_DEPTH);
  }

  public TaskSettings withKillGrace(Duration d) {
    return new TaskSettings(timeout, d, stderrTailBytes, inheritEnv, env, eventBatch, queueDepth);
  }

  public TaskSettings withEventBatch(int n) {
    return new TaskSettings(timeout, killGrace, stderrTailBytes, inheritEnv, env, n, queueDepth);
  }
}
