# The full Locus command line (cli/target/locus.jar) on a plain Java 17 runtime. The helm chart
# runs it only for the topics hook Job (`locus topics create`, images.cli) when Strimzi does not
# manage the topics; it is also a way to run `locus status`, `locus control` or `locus savepoint`
# inside the cluster. Neither the scheduler (docker/scheduler-job.Dockerfile) nor the agents
# (docker/agent.Dockerfile) need it.
#
# Build from the repository root after `mvn -B -DskipTests package -pl cli -am`:
#   docker build -f docker/cli.Dockerfile -t registry.example.org/locus-cli:0.1.0 .
# (Not built by CI: the machines that run the suite have no container engine.)
FROM eclipse-temurin:17-jre

COPY cli/target/locus.jar /opt/locus/locus.jar
COPY bin/locus /opt/locus/bin/locus
RUN chmod 0755 /opt/locus/bin/locus \
 && useradd --system --uid 10001 --user-group --no-create-home --home-dir /nonexistent locus

ENV LOCUS_JAR=/opt/locus/locus.jar
# A small heap: topics create and the control commands are Kafka clients (bin/locus's default,
# -Xmx3g, is for the embedded demo); the chart's topics Job has a 512Mi limit.
ENV LOCUS_JAVA_OPTS=-Xmx256m
USER 10001:10001
ENTRYPOINT ["/opt/locus/bin/locus"]
CMD ["--help"]
