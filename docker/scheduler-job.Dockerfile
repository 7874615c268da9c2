# The Locus scheduler job image (the helm chart's FlinkDeployment, images.scheduler): Flink 2.2
# with the job jar where the Flink Kubernetes Operator looks for it (jarURI
# local:///opt/flink/usrlib/locus-scheduler-job.jar, entryClass io.locus.jobs.SchedulerJobMain,
# arguments those of `locus run`). The job jar holds Locus and what Flink's distribution lacks (the
# Kafka connector and clients, Avro); Flink, RocksDB and the file systems come from the image.
#
# Build from the repository root after `mvn -B -DskipTests package -pl scheduler-job -am`:
#   docker build -f docker/scheduler-job.Dockerfile -t registry.example.org/locus-scheduler:0.1.0 .
# (Not built by CI: the machines that run the suite have no container engine.)
FROM flink:2.2.1-java17

# The Prometheus reporter ships in the distribution's opt/; Flink loads reporters as plugins.
# The S3 file system plugin serves state.uri=s3://... (swap it for gs/azure/oss as needed).
RUN mkdir -p /opt/flink/plugins/metrics-prometheus /opt/flink/plugins/s3-fs-presto \
 && cp /opt/flink/opt/flink-metrics-prometheus-*.jar /opt/flink/plugins/metrics-prometheus/ \
 && cp /opt/flink/opt/flink-s3-fs-presto-*.jar /opt/flink/plugins/s3-fs-presto/

COPY scheduler-job/target/locus-scheduler-job.jar /opt/flink/usrlib/locus-scheduler-job.jar
# The entrypoint and user stay Flink's (/docker-entrypoint.sh, user flink): the operator's
# JobManager and TaskManager pods need them.
