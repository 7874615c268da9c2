# The Locus node agent image (the helm chart's agent DaemonSet, images.agent): the lightweight agent
# distribution on a plain Java 17 runtime: no Flink, no Kafka broker, no simulator, no web
# framework. The jar runs AgentCli (`locus agent ...`); the entrypoint is its launcher.
#
# Build from the repository root after `mvn -B -DskipTests package -pl node-agent -am`:
#   docker build -f docker/agent.Dockerfile -t registry.example.org/locus-agent:0.1.0 .
# (Not built by CI: the machines that run the suite have no container engine; helm's
# DockerfilesTest checks what this file names against the build and the chart.)
FROM eclipse-temurin:17-jre

# The agent runs task templates as child processes: the chart's default template is sha256sum
# (coreutils, in the base image); add the tools your templates name in an image of your own.
COPY node-agent/target/locus-agent.jar /opt/locus/locus-agent.jar
COPY bin/locus-agent /opt/locus/bin/locus-agent
RUN chmod 0755 /opt/locus/bin/locus-agent \
 && useradd --system --uid 10001 --user-group --no-create-home --home-dir /nonexistent locus

ENV LOCUS_AGENT_JAR=/opt/locus/locus-agent.jar
# Not root: the cache and work directories (agent.hostPath in the chart) must be writable by this
# user (the chart's podSecurityContext fsGroup, or the node's directory owned by uid 10001).
USER 10001:10001
ENTRYPOINT ["/opt/locus/bin/locus-agent"]
CMD ["--help"]
