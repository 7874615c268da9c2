package io.locus.core.split;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The whole state of a split policy as versioned bytes (same state, same bytes), and back. The
 * streaming driver stores it whole after every input.
 */
final class BinarySnapshot {
  private static final int MAGIC = 0x4C53504C; // "LSPL"
  private static final int VERSION = 1;

  private BinarySnapshot() {}

  /** Reads subjob and job references of a snapshot being restored. */
  static final class Reader {
    private final SplitState state;

    Reader(SplitState state) {
      this.state = state;
    }

    Subjob find(String id) {
      Subjob x = state.subjob(id);
      if (x == null) {
        throw new IllegalArgumentException("snapshot refers to unknown subjob " + id);
      }
      return x;
    }

    JobState job(String id) {
      JobState j = state.jobs.get(id);
      if (j == null) {
        throw new IllegalArgumentException("snapshot refers to unknown job " + id);
      }
      return j;
    }

    Iterable<JobState> jobs() {
      return state.jobs.values();
    }

    List<Subjob> readIds(DataInput in) throws IOException {
      int n = in.readInt();
      List<Subjob> l = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        l.add(find(in.readUTF()));
      }
      return l;
    }

    List<JobState> readJobs(DataInput in) throws IOException {
      int n = in.readInt();
      List<JobState> l = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        l.add(job(in.readUTF()));
      }
      return l;
    }
  }

  static byte[] write(SplitPolicy p) {
    SplitState st = p.state;
    try {
      ByteArrayOutputStream bos = new ByteArrayOutputStream();
      DataOutputStream o = new DataOutputStream(bos);
      o.writeInt(MAGIC);
      o.writeInt(VERSION);
      o.writeUTF(p.name());
      Map<String, String> pm = p.params().toMap();
      o.writeInt(pm.size());
      for (Map.Entry<String, String> e : pm.entrySet()) {
        o.writeUTF(e.getKey());
        o.writeUTF(e.getValue());
      }
      o.writeDouble(st.now);
      o.writeLong(st.jobSeq);
      o.writeLong(st.replications);
      o.writeInt(st.nodes.size());
      for (SplitNode v : st.nodes.values()) {
        o.writeUTF(v.id);
        List<RangeLru.Entry> es = v.cache.entries();
        o.writeInt(es.size());
        for (RangeLru.Entry e : es) {
          o.writeLong(e.range().start());
          o.writeLong(e.range().end());
          o.writeDouble(e.lastUse());
          o.writeInt(e.remoteCount());
        }
        EventSpan pin = v.cache.pinned();
        o.writeLong(pin == null ? -1 : pin.start());
        o.writeLong(pin == null ? -1 : pin.end());
      }
      o.writeInt(st.jobs.size());
      for (JobState j : st.jobs.values()) {
        writeJob(o, j);
      }
      writeSubjobs(o, st.live);
      writeSubjobs(o, st.stopped);
      for (SplitNode v : st.nodes.values()) {
        o.writeUTF(v.running == null ? "" : v.running.id);
        writeIds(o, v.queue);
      }
      for (JobState j : st.jobs.values()) {
        writeIds(o, j.suspended);
      }
      o.writeInt(st.finished.size());
      for (JobOutcome f : st.finished) {
        writeOutcome(o, f);
      }
      p.hooks.writeState(o);
      o.flush();
      return bos.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The policy name and parameters a snapshot is of. */
  static Map.Entry<String, Map<String, String>> header(byte[] bytes) {
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
      in.readInt();
      in.readInt();
      String name = in.readUTF();
      return Map.entry(name, readParams(in));
    } catch (IOException e) {
      throw new UncheckedIOException("unreadable split-policy snapshot", e);
    }
  }

  /** Fills a fresh policy with a snapshot of a policy with the same parameters. */
  static void read(SplitPolicy p, byte[] bytes) {
    SplitState st = p.state;
    if (!st.nodes.isEmpty() || !st.jobs.isEmpty() || st.now != 0) {
      throw new IllegalStateException("restore into a fresh policy only");
    }
    try {
      DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
      if (in.readInt() != MAGIC) {
        throw new IllegalArgumentException("not a split-policy snapshot");
      }
      int version = in.readInt();
      if (version != VERSION) {
        throw new IllegalArgumentException("unsupported split-policy snapshot version " + version
            + "; this build reads version " + VERSION);
      }
      String n = in.readUTF();
      Map<String, String> pm = readParams(in);
      if (!n.equals(p.name()) || !pm.equals(p.params().toMap())) {
        throw new IllegalArgumentException("snapshot is of " + n + " " + pm
            + ", not of this policy " + p.name() + " " + p.params().toMap());
      }
      st.now = in.readDouble();
      st.jobSeq = in.readLong();
      st.replications = in.readLong();
      int nn = in.readInt();
      for (int i = 0; i < nn; i++) {
        SplitNode v = p.ops.newNode(in.readUTF());
        int ne = in.readInt();
        for (int k = 0; k < ne; k++) {
          v.cache.restoreEntry(in.readLong(), in.readLong(), in.readDouble(), in.readInt());
        }
        long ps = in.readLong();
        long pe = in.readLong();
        if (ps >= 0) {
          v.cache.pin(ps, pe);
        }
      }
      int nj = in.readInt();
      for (int i = 0; i < nj; i++) {
        JobState j = readJob(in, st.changes);
        st.jobs.put(j.id, j);
      }
      Reader r = new Reader(st);
      readSubjobs(in, st, r, st.live);
      readSubjobs(in, st, r, st.stopped);
      for (SplitNode v : st.nodes.values()) {
        String run = in.readUTF();
        if (!run.isEmpty()) {
          v.running = r.find(run);
          v.running.node = v;
        }
        for (Subjob x : r.readIds(in)) {
          v.queue.pushBack(x);
        }
      }
      for (JobState j : st.jobs.values()) {
        for (Subjob x : r.readIds(in)) {
          j.suspended.pushBack(x);
        }
      }
      int nf = in.readInt();
      for (int i = 0; i < nf; i++) {
        st.finished.add(readOutcome(in));
      }
      p.hooks.readState(in, r);
      if (in.available() != 0) {
        throw new IllegalArgumentException("trailing bytes in snapshot");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, String> readParams(DataInput in) throws IOException {
    int np = in.readInt();
    Map<String, String> pm = new TreeMap<>();
    for (int i = 0; i < np; i++) {
      pm.put(in.readUTF(), in.readUTF());
    }
    return pm;
  }

  static void writeIds(DataOutput o, Iterable<Subjob> xs) throws IOException {
    List<String> ids = new ArrayList<>();
    for (Subjob x : xs) {
      ids.add(x.id);
    }
    o.writeInt(ids.size());
    for (String s : ids) {
      o.writeUTF(s);
    }
  }

  static void writeJobIds(DataOutput o, Iterable<JobState> js) throws IOException {
    List<String> ids = new ArrayList<>();
    for (JobState j : js) {
      ids.add(j.id);
    }
    o.writeInt(ids.size());
    for (String s : ids) {
      o.writeUTF(s);
    }
  }

  private static void writeJob(DataOutput o, JobState j) throws IOException {
    o.writeUTF(j.id);
    o.writeLong(j.seq);
    o.writeLong(j.events.start());
    o.writeLong(j.events.end());
    o.writeDouble(j.arrival);
    o.writeDouble(j.released);
    o.writeDouble(j.firstStart);
    o.writeDouble(j.lastEnd);
    o.writeLong(j.done);
    o.writeLong(j.local);
    o.writeLong(j.remote);
    o.writeLong(j.tape);
    o.writeBoolean(j.priority);
    o.writeBoolean(j.replicated);
    o.writeInt(j.counter);
    o.writeInt(j.subjobsRun);
    o.writeInt(j.active);
  }

  private static JobState readJob(DataInput in, Changes changes) throws IOException {
    JobState j = new JobState(in.readUTF(), in.readLong(),
        new EventSpan(in.readLong(), in.readLong()), in.readDouble(), changes);
    j.released = in.readDouble();
    j.firstStart = in.readDouble();
    j.lastEnd = in.readDouble();
    j.done = in.readLong();
    j.local = in.readLong();
    j.remote = in.readLong();
    j.tape = in.readLong();
    j.priority = in.readBoolean();
    j.replicated = in.readBoolean();
    j.counter = in.readInt();
    j.subjobsRun = in.readInt();
    j.active = in.readInt();
    return j;
  }

  private static void writeSubjobs(DataOutput o, Map<String, Subjob> m) throws IOException {
    o.writeInt(m.size());
    for (Subjob x : m.values()) {
      o.writeUTF(x.id);
      o.writeUTF(x.job.id);
      o.writeLong(x.start);
      o.writeLong(x.end);
      o.writeDouble(x.dispatch);
      o.writeLong(x.materialised);
      o.writeBoolean(x.preemptible);
      o.writeBoolean(x.priority);
      writeNullable(o, x.origin);
      writeNullable(o, x.cachedOn);
      writeNullable(o, x.awaitsAck);
      o.writeBoolean(x.stop != null);
      if (x.stop != null) {
        o.writeBoolean(x.stop.suspend());
        o.writeLong(x.stop.modelPos());
        o.writeLong(x.stop.originalEnd());
      }
      writeNullable(o, x.stoppedOn == null ? null : x.stoppedOn.id);
      o.writeInt(x.segments.size());
      for (CostSegment s : x.segments) {
        o.writeLong(s.range().start());
        o.writeLong(s.range().end());
        o.writeByte(s.source().ordinal());
        writeNullable(o, s.peer());
        o.writeDouble(s.secondsPerEvent());
        o.writeBoolean(s.cacheAfterRead());
      }
    }
  }

  private static void readSubjobs(DataInput in, SplitState st, Reader r, Map<String, Subjob> m)
      throws IOException {
    int n = in.readInt();
    for (int i = 0; i < n; i++) {
      String id = in.readUTF();
      JobState j = r.job(in.readUTF());
      Subjob x = new Subjob(id, j, in.readLong(), in.readLong());
      x.dispatch = in.readDouble();
      x.materialised = in.readLong();
      x.preemptible = in.readBoolean();
      x.priority = in.readBoolean();
      x.origin = readNullable(in);
      x.cachedOn = readNullable(in);
      x.awaitsAck = readNullable(in);
      if (in.readBoolean()) {
        x.stop = new SubjobEntry.Stop(in.readBoolean(), in.readLong(), in.readLong());
      }
      String so = readNullable(in);
      x.stoppedOn = so == null ? null : st.nodes.get(so);
      int ns = in.readInt();
      List<CostSegment> segs = new ArrayList<>(ns);
      for (int k = 0; k < ns; k++) {
        segs.add(new CostSegment(new EventSpan(in.readLong(), in.readLong()),
            Source.values()[in.readByte()], readNullable(in), in.readDouble(), in.readBoolean()));
      }
      x.segments = segs;
      m.put(id, x);
    }
  }

  private static void writeOutcome(DataOutput o, JobOutcome f) throws IOException {
    o.writeUTF(f.jobId());
    o.writeLong(f.events().start());
    o.writeLong(f.events().end());
    o.writeDouble(f.arrival());
    o.writeDouble(f.released());
    o.writeDouble(f.firstStart());
    o.writeDouble(f.end());
    o.writeLong(f.localEvents());
    o.writeLong(f.remoteEvents());
    o.writeLong(f.tapeEvents());
    o.writeBoolean(f.priority());
    o.writeBoolean(f.replicated());
    o.writeInt(f.subjobs());
  }

  private static JobOutcome readOutcome(DataInput in) throws IOException {
    return new JobOutcome(in.readUTF(), new EventSpan(in.readLong(), in.readLong()),
        in.readDouble(), in.readDouble(), in.readDouble(), in.readDouble(), in.readLong(),
        in.readLong(), in.readLong(), in.readBoolean(), in.readBoolean(), in.readInt());
  }

  private static void writeNullable(DataOutput o, String s) throws IOException {
    o.writeBoolean(s != null);
    if (s != null) {
      o.writeUTF(s);
    }
  }

  private static String readNullable(DataInput in) throws IOException {
    return in.readBoolean() ? in.readUTF() : null;
  }
}
