package io.locus.workloads;

import io.locus.core.model.InputFile;
import io.locus.schemas.limits.FileIds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;
import java.util.function.UnaryOperator;

/**
 * {@link TraceFiles#open} for Locus traces: streams one or more files, each adapted (prefix, time
 * scale, pool), merged by arrival. Nothing is held in memory but one pending job per file.
 */
final class LocusTraces {
  private LocusTraces() {}

  static Workload open(List<java.nio.file.Path> files, List<String> names,
      TraceFiles.Options options) throws IOException {
    boolean prefix = files.size() > 1;
    List<Workload> parts = new ArrayList<>();
    List<UnaryOperator<TraceJob>> adapt = new ArrayList<>();
    long size = 0;
    for (int i = 0; i < files.size(); i++) {
      Workload w = TraceReader.workload(files.get(i));
      parts.add(w);
      size += w.size();
      adapt.add(adapter(prefix ? names.get(i) + "/" : "", options.timeScale(),
          TraceFiles.pool(options, i), TraceFiles.queue(options, i)));
    }
    Workload merged;
    if (parts.size() == 1 && !prefix && options.timeScale() == 1.0 && options.pools().isEmpty()
        && options.queues().isEmpty()) {
      merged = parts.get(0);
    } else {
      String name = parts.size() == 1 ? parts.get(0).name() : String.join("+", names);
      String description = parts.size() == 1 ? parts.get(0).description()
          : "Locus traces " + String.join(", ", names);
      if (options.timeScale() != 1.0) {
        description += " (times x " + options.timeScale() + ")";
      }
      merged = new Workload(name, description, size, () -> new Merge(parts, adapt));
    }
    TraceDag.check(merged, String.join(", ", files.stream().map(Object::toString).toList()));
    return merged;
  }

  /**
   * Prefixes ids, scales times and sets the pool and the queue (each null: the trace's own) of one
   * file's jobs.
   */
  static UnaryOperator<TraceJob> adapter(String prefix, double scale, String pool, String queue) {
    UnaryOperator<TraceJob> moved = moved(prefix, scale, pool);
    return queue == null ? moved : j -> moved.apply(j).withQueue(queue);
  }

  private static UnaryOperator<TraceJob> moved(String prefix, double scale, String pool) {
    if (prefix.isEmpty() && scale == 1.0) {
      return pool == null ? UnaryOperator.identity() : j -> j.withPool(pool);
    }
    return j -> new TraceJob(prefix + j.jobId(), pool == null ? j.pool() : pool,
        j.arrival() * scale, units(j.inputs(), prefix, scale), j.computeSeconds() * scale,
        j.stage(), j.attributes(), j.events(),
        j.parents().stream().map(p -> prefix + p).toList(), units(j.outputs(), prefix, scale),
        j.template(), j.args(), j.priority(),
        j.cancelAfter() == null ? null : j.cancelAfter() * scale, j.queue());
  }

  private static List<InputFile> units(List<InputFile> units, String prefix, double scale) {
    List<InputFile> out = new ArrayList<>(units.size());
    for (InputFile u : units) {
      String id = prefix + u.id();
      String bad = prefix.isEmpty() ? null : FileIds.problem(id);
      if (bad != null) {
        // The reader checked the id itself; the prefix can make it longer than an agent stores.
        throw new IllegalArgumentException("file id " + bad + " once prefixed with '" + prefix
            + "' (several traces replayed at once)");
      }
      out.add(new InputFile(id, u.bytes(), u.computeSeconds() * scale, u.location(),
          u.checksum()));
    }
    return out;
  }

  /** k-way merge by arrival; ties go to the earlier file (a stable sort of the concatenation). */
  private static final class Merge implements Iterator<TraceJob> {
    private record Head(TraceJob job, int file) {}

    private final List<Iterator<TraceJob>> its = new ArrayList<>();
    private final List<UnaryOperator<TraceJob>> adapt;
    private final PriorityQueue<Head> heads = new PriorityQueue<>((a, b) -> {
      int c = Double.compare(a.job.arrival(), b.job.arrival());
      return c != 0 ? c : Integer.compare(a.file, b.file);
    });

    Merge(List<Workload> parts, List<UnaryOperator<TraceJob>> adapt) {
      this.adapt = adapt;
      for (int i = 0; i < parts.size(); i++) {
        its.add(parts.get(i).iterator());
        advance(i);
      }
    }

    private void advance(int file) {
      Iterator<TraceJob> it = its.get(file);
      if (it.hasNext()) {
        heads.add(new Head(adapt.get(file).apply(it.next()), file));
      }
    }

    @Override
    public boolean hasNext() {
      return !heads.isEmpty();
    }

    @Override
    public TraceJob next() {
      Head h = heads.poll();
      if (h == null) {
        throw new NoSuchElementException();
      }
      advance(h.file);
      return h.job;
    }
  }
}
