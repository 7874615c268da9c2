package io.locus.jobs.run;
import io.locus.jobs.RestorePoint;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;

/**
 * SIGTERM (or Ctrl-C) of a local {@code locus run}: stop the job with a savepoint, so the next
 * start restores exactly where this one stopped (RestorePoint picks the newest savepoint or
 * checkpoint). If the savepoint cannot be taken in time, the retained checkpoint is still there:
 * the next start restores from it and replays the input since (nothing is lost either way; with
 * at-least-once delivery some decisions are sent again). {@code kill -9} skips this hook and
 * relies on the retained checkpoint.
 */
final class LocalStop {
  private LocalStop() {}

  /** {@code ended}: the job already ended (a stop through the REST API): nothing to do or say. */
  static void withSavepoint(JobClient job, Path dir, Duration timeout, PrintWriter out,
      java.util.function.BooleanSupplier ended) {
    if (ended.getAsBoolean()) {
      return;
    }
    try {
      if (job.getJobStatus().get(5, TimeUnit.SECONDS).isGloballyTerminalState()) {
        return;
      }
      out.println("locus run: shutting down: stopping job " + job.getJobID()
          + " with a savepoint into " + dir + " (waiting up to " + timeout + ") ...");
      out.flush();
      String path = job.stopWithSavepoint(false, dir.toUri().toString(),
          SavepointFormatType.CANONICAL).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      out.println("locus run: savepoint done: " + path + "; job stopped");
    } catch (Exception e) {
      Throwable t = e instanceof java.util.concurrent.ExecutionException && e.getCause() != null
          ? e.getCause() : e;
      out.println("locus run: savepoint failed (" + t.getClass().getSimpleName()
          + (t.getMessage() == null ? "" : ": " + t.getMessage().lines().findFirst().orElse(""))
          + "); the next start restores the latest retained checkpoint");
    }
    out.flush();
  }
}
