package io.locus.workloads;

import io.locus.core.share.QueueNames;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A named trace: {@link #size()} jobs in non-decreasing arrival order (equal arrivals keep
 * submission order, which consumers must preserve).
 *
 * <p>Jobs are produced lazily: SW has 2,000,000 tasks and nobody should need to hold them all.
 * Every {@link #iterator()} call starts a fresh, identical pass (generators re-derive their random
 * stream from the seed), so a workload can be replayed without being stored. Each pass is checked
 * against the contract (order and count), so a generator bug fails loudly rather than skewing a
 * simulation.
 */
public final class Workload implements Iterable<TraceJob> {
  private final String name;
  private final String description;
  private final long size;
  private final Supplier<Iterator<TraceJob>> source;
  private List<String> warnings = List.of();

  public Workload(String name, String description, long size, Supplier<Iterator<TraceJob>> source) {
    this.name = Objects.requireNonNull(name, "name");
    this.description = description == null ? "" : description;
    if (size < 0) {
      throw new IllegalArgumentException("negative size " + size);
    }
    this.size = size;
    this.source = Objects.requireNonNull(source, "source");
  }

  /** A workload over jobs already in memory (they must be sorted by arrival). */
  public static Workload of(String name, String description, List<TraceJob> jobs) {
    List<TraceJob> copy = List.copyOf(jobs);
    return new Workload(name, description, copy.size(), copy::iterator);
  }

  public String name() {
    return name;
  }

  /**
   * This workload with {@code warnings}: what its reader found wrong but could ignore (a field
   * scheduling does not read); the commands print them.
   */
  public Workload withWarnings(List<String> warnings) {
    Workload w = new Workload(name, description, size, source);
    w.warnings = List.copyOf(warnings);
    return w;
  }

  /**
   * This workload with {@code priority} for every job that has none of its own (WfCommons and SWF
   * have no such field; a Locus trace's job may leave it out); jobs that set one keep it. The
   * commands' {@code --priority}.
   *
   * @throws IllegalArgumentException when {@code priority} is outside the range of {@link
   *     io.locus.core.model.Priority}
   */
  public Workload withDefaultPriority(int priority) {
    io.locus.core.model.Priority.check(priority);
    return map(j -> j.priority() != null ? j : j.withPriority(priority));
  }

  /**
   * This workload with {@code queue} for every job that names none (WfCommons has no such field,
   * SWF gives one only through {@link TraceFiles.Options#swfQueue()}, a Locus trace's job may
   * leave it out); jobs that name one keep it. The commands' {@code --queue}.
   *
   * @throws IllegalArgumentException when {@code queue} breaks {@link QueueNames}
   */
  public Workload withDefaultQueue(String queue) {
    QueueNames.check(queue);
    return map(j -> j.queue() != null ? j : j.withQueue(queue));
  }

  /**
   * This workload with every job passed through {@code f} (same name, description, size and
   * warnings); {@code f} must keep the arrival order.
   */
  public Workload map(java.util.function.UnaryOperator<TraceJob> f) {
    Workload w = new Workload(name, description, size, () -> {
      Iterator<TraceJob> in = source.get();
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          return in.hasNext();
        }

        @Override
        public TraceJob next() {
          return f.apply(in.next());
        }
      };
    });
    w.warnings = warnings;
    return w;
  }

  /** What the reader found wrong but ignored, each naming its file and place; often empty. */
  public List<String> warnings() {
    return warnings;
  }

  public String description() {
    return description;
  }

  /** Number of jobs a full pass yields. */
  public long size() {
    return size;
  }

  @Override
  public Iterator<TraceJob> iterator() {
    return new Checked(source.get());
  }

  public Stream<TraceJob> stream() {
    return StreamSupport.stream(
        Spliterators.spliterator(iterator(), size, Spliterator.ORDERED | Spliterator.NONNULL),
        false);
  }

  /** Materialises every job; meant for small workloads (Khanna, STAGES18) and tests. */
  public List<TraceJob> toList() {
    List<TraceJob> out = new ArrayList<>((int) Math.min(size, Integer.MAX_VALUE));
    forEach(out::add);
    return out;
  }

  @Override
  public String toString() {
    return name + " (" + size + " jobs): " + description;
  }

  /** Enforces the contract of a pass: sorted by arrival and exactly {@code size} jobs. */
  private final class Checked implements Iterator<TraceJob> {
    private final Iterator<TraceJob> in;
    private long count;
    private double last = Double.NEGATIVE_INFINITY;

    Checked(Iterator<TraceJob> in) {
      this.in = in;
    }

    @Override
    public boolean hasNext() {
      boolean more = in.hasNext();
      if (!more && count != size) {
        throw new IllegalStateException(name + " ended after " + count + " of " + size + " jobs");
      }
      return more;
    }

    @Override
    public TraceJob next() {
      if (!in.hasNext()) {
        throw new NoSuchElementException();
      }
      TraceJob job = in.next();
      if (++count > size) {
        throw new IllegalStateException(name + " yields more than its " + size + " jobs");
      }
      if (job.arrival() < last) {
        throw new IllegalStateException(name + ": job " + job.jobId() + " arrives at "
            + job.arrival() + ", before the previous job's " + last);
      }
      last = job.arrival();
      return job;
    }
  }
}
