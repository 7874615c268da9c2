package io.locus.cli.chaos;

import io.locus.cli.demo.DemoWorkload;
import io.locus.kafka.ClientConfigs;
import io.locus.kafka.Topics;
import io.locus.schemas.JobSubmitted;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A generated workload of one pool published to job-arrivals at a steady rate from a background
 * thread, so failures can be injected while jobs keep arriving. The producer is idempotent with
 * acks=all: a broker restart delays publishing, it neither loses nor doubles a job.
 */
public final class JobFeed implements AutoCloseable {
  private final List<JobSubmitted> jobs;
  private final List<String> taskIds;
  private final AtomicInteger published = new AtomicInteger();
  private final Thread thread;
  private volatile boolean stop;
  private volatile Throwable failure;

  public JobFeed(String bootstrap, String pool, int tasks, long seed, double perSecond) {
    jobs = DemoWorkload.generate(pool, DemoWorkload.Spec.demo(tasks, Math.max(20, tasks / 4), seed));
    taskIds = jobs.stream().map(JobSubmitted::getJobId).toList();
    thread = new Thread(() -> publish(bootstrap, pool, perSecond), "job-feed-" + pool);
    thread.setDaemon(true);
    thread.start();
  }

  /** The ids of every task of the feed (published or not yet). */
  public List<String> taskIds() {
    return taskIds;
  }

  /** How many jobs were handed to the producer so far. */
  public int published() {
    if (failure != null) {
      throw new IllegalStateException("job feed failed", failure);
    }
    return published.get();
  }

  private void publish(String bootstrap, String pool, double perSecond) {
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(ClientConfigs.producer(bootstrap))) {
      long start = System.nanoTime();
      for (int i = 0; i < jobs.size() && !stop; i++) {
        long due = start + (long) (i / perSecond * 1e9);
        while (System.nanoTime() < due && !stop) {
          LockSupport.parkNanos(Math.min(due - System.nanoTime(), 20_000_000L)); // pacing
        }
        JobSubmitted j = jobs.get(i);
        j.setSubmitTimeMs(System.currentTimeMillis());
        producer.send(new ProducerRecord<>(Topics.JOB_ARRIVALS.name(),
            Topics.JOB_ARRIVALS.key(pool), Topics.JOB_ARRIVALS.value(j)));
        jobs.set(i, null); // sent: a run of 100,000 jobs need not keep them all
        published.incrementAndGet();
      }
      producer.flush();
    } catch (Throwable t) {
      failure = t;
    }
  }

  /** True once every job was handed to the producer and flushed. */
  public boolean done() {
    return !thread.isAlive() && failure == null && published.get() == jobs.size();
  }

  @Override
  public void close() throws InterruptedException {
    stop = true;
    thread.join(30_000);
  }
}
