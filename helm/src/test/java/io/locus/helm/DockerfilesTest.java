package io.locus.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.locus.helm.Chart.Manifests;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The images of docker/ hold what the chart runs, where it runs it from. No container engine runs
 * here, so this reads the Dockerfiles: each file a COPY names exists in the build (a launcher of
 * bin/, a jar the named module's shade writes), the chart's commands and the FlinkDeployment's
 * jarURI are COPY destinations, the launchers find their jar in the image, and the agent and CLI
 * images are a plain Java runtime (not Flink's) run by a non-root user.
 */
@Timeout(120)
class DockerfilesTest {
  @TempDir Path tmp;

  /** A Dockerfile's instructions, continuation lines joined, comments dropped. */
  record Dockerfile(String from, Map<String, String> copies, Map<String, String> env, String user,
      List<String> lines) {
    static Dockerfile read(String name) throws IOException {
      String text = Files.readString(root().resolve("docker").resolve(name))
          .replaceAll("\\\\\\n", " ");
      List<String> lines = new ArrayList<>();
      for (String l : text.split("\n")) {
        if (!l.isBlank() && !l.trim().startsWith("#")) {
          lines.add(l.trim());
        }
      }
      String from = null;
      String user = null;
      Map<String, String> copies = new LinkedHashMap<>(); // destination -> source
      Map<String, String> env = new LinkedHashMap<>();
      for (String l : lines) {
        String[] w = l.split("\\s+");
        switch (w[0]) {
          case "FROM" -> from = w[1];
          case "COPY" -> {
            assertThat(w).as("one source per COPY: %s", l).hasSize(3);
            copies.put(w[2], w[1]);
          }
          case "ENV" -> {
            String[] kv = l.substring(4).trim().split("=", 2);
            env.put(kv[0], kv[1]);
          }
          case "USER" -> user = w[1];
          default -> { }
        }
      }
      return new Dockerfile(from, copies, env, user, lines);
    }

    String destinationOf(String source) {
      return copies.entrySet().stream().filter(e -> e.getValue().equals(source))
          .map(Map.Entry::getKey).findFirst()
          .orElseThrow(() -> new AssertionError("no COPY of " + source + " in " + lines));
    }
  }

  static Path root() {
    return Chart.dir().getParent().getParent();
  }

  static List<String> texts(JsonNode array) {
    return ChartRunsTheRealCommandsTest.texts(array);
  }

  /** The jar a module's shade writes: its outputFile, ${project.build.directory}/NAME. */
  static String shadedJar(String module) throws IOException {
    String pom = Files.readString(root().resolve(module).resolve("pom.xml"));
    Matcher m = Pattern.compile("<outputFile>\\$\\{project\\.build\\.directory}/([^<]+)</outputFile>")
        .matcher(pom);
    assertThat(m.find()).as("%s/pom.xml shades a jar", module).isTrue();
    return module + "/target/" + m.group(1);
  }

  @Test
  void theAgentImageHoldsTheAgentDistributionTheDaemonSetRuns() throws IOException {
    Dockerfile agent = Dockerfile.read("agent.Dockerfile");
    String jar = shadedJar("node-agent");
    assertThat(jar).isEqualTo("node-agent/target/locus-agent.jar");
    assertThat(Files.readString(root().resolve("node-agent/pom.xml")))
        .contains("<mainClass>io.locus.agent.AgentCli</mainClass>");
    String launcher = agent.destinationOf("bin/locus-agent");
    assertThat(root().resolve("bin/locus-agent")).isRegularFile().isExecutable();
    // The launcher in an image runs the jar beside its bin/ (or LOCUS_AGENT_JAR): both name it.
    String jarInImage = agent.destinationOf(jar);
    assertThat(Path.of(launcher).getParent().getParent().resolve("locus-agent.jar"))
        .isEqualTo(Path.of(jarInImage));
    assertThat(agent.env()).containsEntry("LOCUS_AGENT_JAR", jarInImage);
    assertThat(Files.readString(root().resolve("bin/locus-agent")))
        .contains("LOCUS_AGENT_JAR").contains("$here/locus-agent.jar");

    Manifests m = Chart.template(null, tmp);
    JsonNode pod = m.one("DaemonSet").at("/spec/template/spec");
    assertThat(texts(pod.at("/containers/0/command"))).containsExactly(launcher);
    assertThat(pod.at("/containers/0/image").asText())
        .isEqualTo(pod.at("/initContainers/0/image").asText())
        .contains("locus-agent");
    // The init container hands the data directory to the image's user.
    assertThat(pod.at("/initContainers/0/command/2").asText()).isEqualTo(agent.user());
  }

  @Test
  void theCliImageHoldsTheLauncherTheTopicsJobRuns() throws IOException {
    Dockerfile cli = Dockerfile.read("cli.Dockerfile");
    String jar = shadedJar("cli");
    assertThat(Files.readString(root().resolve("cli/pom.xml")))
        .contains("<mainClass>io.locus.cli.LocusCli</mainClass>");
    String launcher = cli.destinationOf("bin/locus");
    assertThat(root().resolve("bin/locus")).isRegularFile().isExecutable();
    assertThat(cli.env()).containsEntry("LOCUS_JAR", cli.destinationOf(jar));

    Manifests m = Chart.templateWithHooks(Chart.values(ValueSets.NO_STRIMZI_SECURED), tmp);
    JsonNode c = m.one("Job").at("/spec/template/spec/containers/0");
    assertThat(texts(c.path("command"))).containsExactly(launcher);
    assertThat(c.path("image").asText()).contains("locus-cli");
  }

  @Test
  void theSchedulerImageIsFlinkWithTheJobJarAtTheJarUri() throws IOException {
    Dockerfile job = Dockerfile.read("scheduler-job.Dockerfile");
    String flink = Pattern.compile("<flink\\.version>([^<]+)</flink\\.version>")
        .matcher(Files.readString(root().resolve("pom.xml"))).results().findFirst()
        .orElseThrow().group(1);
    assertThat(job.from()).isEqualTo("flink:" + flink + "-java17");
    // The job jar of scheduler-job's package phase, main class io.locus.jobs.SchedulerJobMain.
    String jar = shadedJar("scheduler-job");
    assertThat(jar).isEqualTo("scheduler-job/target/locus-scheduler-job.jar");
    assertThat(Files.readString(root().resolve("scheduler-job/pom.xml")))
        .contains("<mainClass>io.locus.jobs.SchedulerJobMain</mainClass>");
    String inImage = job.destinationOf(jar);
    assertThat(inImage).startsWith("/opt/flink/usrlib/");

    JsonNode spec = Chart.template(null, tmp).one("FlinkDeployment").at("/spec/job");
    assertThat(spec.path("jarURI").asText()).isEqualTo("local://" + inImage);
    assertThat(spec.path("entryClass").asText()).isEqualTo("io.locus.jobs.SchedulerJobMain");
  }

  @Test
  void theAgentAndCliImagesArePlainJavaAndNotRoot() throws IOException {
    for (String name : List.of("agent.Dockerfile", "cli.Dockerfile")) {
      Dockerfile d = Dockerfile.read(name);
      assertThat(d.from()).as(name).startsWith("eclipse-temurin:17-jre").doesNotContain("flink");
      assertThat(d.user()).as(name).isNotNull().doesNotStartWith("0").doesNotStartWith("root");
      assertThat(d.copies().values()).as(name).allSatisfy(src ->
          assertThat(root().resolve(src).startsWith(root().resolve("bin"))
              || src.matches("[a-z-]+/target/[a-z-]+\\.jar")).isTrue());
    }
  }
}
