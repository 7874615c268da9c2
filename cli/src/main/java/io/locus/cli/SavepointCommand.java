package io.locus.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.locus.jobs.RestorePoint;
import io.locus.jobs.SchedulerJob;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code locus savepoint}: takes a savepoint of the running scheduler job through Flink's REST API
 * (a local {@code locus run} serves it on {@code --rest-port}; a Flink cluster on its JobManager),
 * or stops the job with one ({@code --stop}) before an upgrade. Prints the savepoint's path, which
 * {@code locus run --from-savepoint} takes (a local run also finds it by itself in its state dir).
 */
@Command(name = "savepoint", mixinStandardHelpOptions = true,
    description = "Take a savepoint of the running scheduler job (or stop it with one: --stop).")
public final class SavepointCommand implements Callable<Integer> {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Spec picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = "--rest-url", defaultValue = "http://localhost:8081",
      description = "Flink REST API of the job. Default: ${DEFAULT-VALUE}.")
  URI rest;

  @Option(names = "--job-id", paramLabel = "ID",
      description = "The job; default: the one running job named " + SchedulerJob.NAME + ".")
  String jobId;

  @Option(names = "--target-dir", paramLabel = "PATH",
      description = "Where to write it; default: the job's savepoint dir (STATE-DIR/savepoints of locus run).")
  Path targetDir;

  @Option(names = "--stop",
      description = "Stop the job with the savepoint (for an upgrade), instead of keeping it running.")
  boolean stop;

  @Option(names = "--timeout", defaultValue = "PT5M",
      description = "Give up waiting after this. Default: ${DEFAULT-VALUE}.")
  Duration timeout;

  private final HttpClient http = HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(10)).build();

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    String job = jobId != null ? jobId : runningJob();
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long triggeredAt = System.currentTimeMillis();
      try {
        String location = trigger(job, deadline);
        out.println((stop ? "stopped job " + job + " with savepoint " : "savepoint ") + location);
        out.flush();
        return 0;
      } catch (Restarting e) {
        // the job is restarting (a failover): its tasks will run again; try until the deadline
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("job " + job + " did not run all its tasks within "
              + timeout + ": " + e.getMessage());
        }
        LockSupport.parkNanos(1_000_000_000L);
      } catch (Gone e) {
        // A local `locus run` exits when its job stops, and its REST API with it, often before
        // the stop's result can be read: look for the savepoint itself.
        Path found = targetDir == null ? null : RestorePoint.newestSavepoint(
            targetDir.toAbsolutePath(), triggeredAt);
        if (found != null) {
          out.println("stopped job " + job + " with savepoint " + found.toUri());
          out.flush();
          return 0;
        }
        spec.commandLine().getErr().println("locus savepoint: job " + job + " accepted the stop,"
            + " then its REST API went away (a local locus run exits when its job stops); no"
            + " savepoint confirmed" + (targetDir == null ? " (give --target-dir to look for it;"
            + " locus run restores the newest in its savepoint dir by default)" : " in " + targetDir));
        return 3;
      }
    }
  }

  /** The REST API went away after a stop was accepted. */
  private static final class Gone extends Exception {
    Gone(String m) {
      super(m);
    }
  }

  /** Flink refused because not every task runs yet (a restart in progress). */
  private static final class Restarting extends Exception {
    Restarting(String m) {
      super(m);
    }
  }

  private String trigger(String job, long deadline) throws Exception {
    ObjectNode body = JSON.createObjectNode();
    String target = targetDir == null ? null : targetDir.toAbsolutePath().toUri().toString();
    String trigger;
    if (stop) {
      if (target != null) {
        body.put("targetDirectory", target);
      }
      body.put("drain", false);
      trigger = post("/jobs/" + job + "/stop", body).path("request-id").asText();
      if (!trigger.isEmpty()) {
        return awaitStop(job, trigger, deadline);
      }
    } else {
      if (target != null) {
        body.put("target-directory", target);
      }
      body.put("cancel-job", false);
      trigger = post("/jobs/" + job + "/savepoints", body).path("request-id").asText();
    }
    if (trigger.isEmpty()) {
      throw new IllegalStateException("Flink did not accept the savepoint request for job " + job);
    }
    return await(job, trigger, deadline);
  }

  private String awaitStop(String job, String trigger, long deadline) throws Exception {
    try {
      return await(job, trigger, deadline);
    } catch (IllegalArgumentException e) {
      if (e.getCause() instanceof java.net.ConnectException) {
        throw new Gone(e.getMessage());
      }
      throw e;
    } catch (IOException e) {
      // The run exiting mid-poll closes the connection without an answer ("header parser
      // received no bytes", a reset) rather than refusing it: the same news, the job stopped.
      throw new Gone(e.toString());
    }
  }

  private String await(String job, String trigger, long deadline) throws Exception {
    while (System.nanoTime() < deadline) {
      JsonNode st = get("/jobs/" + job + "/savepoints/" + trigger);
      if ("COMPLETED".equals(st.path("status").path("id").asText())) {
        JsonNode op = st.path("operation");
        if (op.has("failure-cause")) {
          String why = op.path("failure-cause").path("stack-trace").asText("");
          if (why.contains("Not all required tasks are currently running")) {
            throw new Restarting(why.lines().findFirst().orElse("?"));
          }
          throw new IllegalStateException("savepoint failed: "
              + why.lines().findFirst().orElse("?"));
        }
        return op.path("location").asText();
      }
      LockSupport.parkNanos(200_000_000L); // polling Flink's asynchronous operation
    }
    throw new IllegalStateException("savepoint of job " + job + " not done within " + timeout);
  }

  /** The id of the single running job named locus-scheduler. */
  private String runningJob() throws IOException, InterruptedException {
    List<String> found = new ArrayList<>();
    for (JsonNode j : get("/jobs/overview").path("jobs")) {
      if (SchedulerJob.NAME.equals(j.path("name").asText())
          && "RUNNING".equals(j.path("state").asText())) {
        found.add(j.path("jid").asText());
      }
    }
    if (found.size() != 1) {
      throw new IllegalArgumentException("expected one running " + SchedulerJob.NAME + " job at "
          + rest + ", found " + found.size() + (found.isEmpty() ? "" : " " + found)
          + ": give --job-id");
    }
    return found.get(0);
  }

  private JsonNode get(String path) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(rest.resolve(path)).GET());
  }

  private JsonNode post(String path, JsonNode body) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(rest.resolve(path))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))));
  }

  private JsonNode send(HttpRequest.Builder req) throws IOException, InterruptedException {
    HttpResponse<String> r;
    try {
      r = http.send(req.timeout(Duration.ofSeconds(30)).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (java.net.ConnectException e) {
      throw new IllegalArgumentException("no Flink REST API at " + rest
          + " (is locus run running? its --rest-port): " + e, e);
    }
    if (r.statusCode() / 100 != 2) {
      throw new IllegalStateException("Flink REST " + r.request().uri() + " answered "
          + r.statusCode() + ": " + r.body());
    }
    return JSON.readTree(r.body());
  }
}
