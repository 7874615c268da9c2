package io.locus.core.split;

import io.locus.core.model.Ids;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Between a policy's live state and its entries ({@link SplitJournal}): the entry of each job,
 * subjob and the scalars, the whole state written to a journal, and a fresh policy rebuilt from
 * entries. What can be derived is not stored: a node's pin (its running subjob's range), a job's
 * active count, the coverage index, the queues' cost sums and the policies' indexes.
 *
 * <p>A restore does not depend on the order of the entries it is given: it sorts them (nodes by
 * {@link Ids#ORDER}, ranges by start, jobs by arrival, subjobs by job and piece, queue members by
 * rank), so equal entries give a policy that decides the same.
 */
final class Entries {
  private Entries() {}

  static PoolScalars pool(SplitState s) {
    return new PoolScalars(s.now, s.jobSeq, s.replications, List.copyOf(s.finished));
  }

  static JobEntry job(JobState j) {
    return new JobEntry(j.id, j.seq, j.events, j.arrival, j.released, j.firstStart, j.lastEnd,
        j.done, j.local, j.remote, j.tape, j.priority, j.replicated, j.counter, j.subjobsRun,
        j.waiting, j.cancelled);
  }

  static SubjobEntry subjob(Subjob x) {
    return new SubjobEntry(x.id, x.job.id, x.range(), x.node == null ? null : x.node.id,
        x.dispatch, x.materialised, x.segments, x.preemptible, x.priority, x.origin, x.cachedOn,
        x.awaitsAck, x.stop, x.stoppedOn == null ? null : x.stoppedOn.id,
        x.queue == null ? null : x.queue.tag, x.queue == null ? 0 : x.rank);
  }

  /** Every entry of the policy, as puts. */
  static void export(SplitPolicy p, SplitJournal j) {
    SplitState s = p.state;
    j.putPool(pool(s));
    for (SplitNode v : s.nodes.values()) {
      j.putNode(v.id);
      for (RangeLru.Entry e : v.cache.entries()) {
        j.putCachedRange(new CachedRange(v.id, e.range().start(), e.range().end(), e.lastUse(),
            e.remoteCount()));
      }
    }
    for (JobState job : s.jobs.values()) {
      j.putJob(job(job));
    }
    for (JobState job : s.cancelled.values()) {
      j.putJob(job(job));
    }
    for (Subjob x : s.live.values()) {
      j.putSubjob(subjob(x));
    }
    for (Subjob x : s.stopped.values()) {
      j.putSubjob(subjob(x));
    }
    p.hooks.exportMemory(j::putMemory);
  }

  /** Fills a fresh policy with {@code e}, entries of a policy with the same parameters. */
  static void restore(SplitPolicy p, SplitEntries e) {
    SplitState s = p.state;
    if (!s.nodes.isEmpty() || !s.jobs.isEmpty() || s.now != 0) {
      throw new IllegalStateException("restore into a fresh policy only");
    }
    if (e.pool() == null) {
      throw new IllegalArgumentException("split-pool entries without the pool scalars");
    }
    s.now = e.pool().now();
    s.jobSeq = e.pool().jobSeq();
    s.replications = e.pool().replications();
    s.finished.addAll(e.pool().finished());
    List<String> nodes = new ArrayList<>(e.nodes());
    nodes.sort(Ids.ORDER);
    for (String id : nodes) {
      if (id == null || id.isEmpty() || s.nodes.containsKey(id)) {
        throw new IllegalArgumentException("node id missing or given twice: " + id);
      }
      p.ops.newNode(id);
    }
    restoreCaches(s, e.cache());
    List<JobEntry> jobs = new ArrayList<>(e.jobs());
    jobs.sort(Comparator.comparingLong(JobEntry::seq));
    for (JobEntry je : jobs) {
      if (s.job(je.id()) != null) {
        throw new IllegalArgumentException("job " + je.id() + " given twice");
      }
      (je.cancelled() ? s.cancelled : s.jobs).put(je.id(), job(je, s.changes));
    }
    restoreSubjobs(p, e.subjobs());
    if (p.params().caching()) {
      for (SplitNode v : s.nodes.values()) {
        if (v.running != null) {
          v.cache.pin(v.running.start, v.running.end); // the pin is the running range (§3.1)
        }
      }
    }
    List<PolicyEntry> memory = new ArrayList<>(e.memory());
    p.hooks.restore(memory);
    if (!memory.isEmpty()) {
      throw new IllegalArgumentException("policy " + p.name() + " keeps no entries like "
          + memory.get(0).key());
    }
  }

  private static void restoreCaches(SplitState s, List<CachedRange> ranges) {
    Map<String, List<CachedRange>> byNode = new TreeMap<>(Ids.ORDER);
    for (CachedRange r : ranges) {
      byNode.computeIfAbsent(r.node(), k -> new ArrayList<>()).add(r);
    }
    for (Map.Entry<String, List<CachedRange>> n : byNode.entrySet()) {
      SplitNode v = s.nodes.get(n.getKey());
      if (v == null) {
        throw new IllegalArgumentException("cached ranges of unknown node " + n.getKey());
      }
      List<CachedRange> l = n.getValue();
      l.sort(Comparator.comparingLong(CachedRange::start));
      try {
        for (CachedRange r : l) {
          v.cache.restoreEntry(r.start(), r.end(), r.lastUse(), r.remoteCount());
        }
      } catch (IllegalArgumentException ex) {
        throw new IllegalArgumentException("node " + v.id + ": " + ex.getMessage(), ex);
      }
    }
  }

  private static JobState job(JobEntry e, Changes changes) {
    JobState j = new JobState(e.id(), e.seq(), e.events(), e.arrival(), changes);
    j.released = e.released();
    j.firstStart = e.firstStart();
    j.lastEnd = e.lastEnd();
    j.done = e.done();
    j.local = e.localEvents();
    j.remote = e.remoteEvents();
    j.tape = e.tapeEvents();
    j.priority = e.priority();
    j.replicated = e.replicated();
    j.counter = e.pieces();
    j.subjobsRun = e.subjobsRun();
    j.waiting = e.waiting();
    j.cancelled = e.cancelled();
    return j;
  }

  private static void restoreSubjobs(SplitPolicy p, List<SubjobEntry> entries) {
    SplitState s = p.state;
    List<SubjobEntry> sorted = new ArrayList<>(entries);
    sorted.sort(Comparator.comparingLong((SubjobEntry x) -> jobOf(s, x).seq)
        .thenComparingLong(x -> piece(x.id())));
    Map<String, List<Subjob>> queues = new TreeMap<>();
    Set<String> ids = new HashSet<>();
    for (SubjobEntry se : sorted) {
      if (!ids.add(se.id())) {
        throw new IllegalArgumentException("subjob " + se.id() + " given twice");
      }
      Subjob x = new Subjob(se.id(), jobOf(s, se), se.range().start(), se.range().end());
      x.dispatch = se.dispatch();
      x.materialised = se.materialised();
      x.segments = se.segments();
      x.preemptible = se.preemptible();
      x.priority = se.priority();
      x.origin = se.origin();
      x.cachedOn = se.cachedOn();
      x.awaitsAck = se.awaitsAck();
      x.stop = se.stop();
      x.stoppedOn = se.stoppedOn() == null ? null : node(s, se.stoppedOn(), se.id());
      x.rank = se.rank();
      if (x.stop != null && x.stop.suspend()) {
        s.stopped.put(x.id, x);
      } else {
        s.live.put(x.id, x);
      }
      if (se.node() != null) {
        SplitNode v = node(s, se.node(), se.id());
        if (v.running != null) {
          throw new IllegalArgumentException("subjobs " + v.running.id + " and " + x.id
              + " both run on " + v.id);
        }
        v.running = x;
        x.node = v;
        x.job.active++;
      }
      if (se.queue() != null) {
        if (se.node() != null) {
          throw new IllegalArgumentException("subjob " + x.id + " both runs and is queued");
        }
        queues.computeIfAbsent(se.queue(), k -> new ArrayList<>()).add(x);
      }
    }
    for (Map.Entry<String, List<Subjob>> q : queues.entrySet()) {
      List<Subjob> members = q.getValue();
      members.sort(Comparator.comparingLong(x -> x.rank));
      for (Subjob x : members) {
        queue(p, q.getKey(), x).restoreMember(x, x.rank);
      }
    }
  }

  private static JobState jobOf(SplitState s, SubjobEntry x) {
    JobState j = s.job(x.jobId());
    if (j == null || !x.id().startsWith(x.jobId() + "/")) {
      throw new IllegalArgumentException("subjob " + x.id() + " of unknown job " + x.jobId());
    }
    return j;
  }

  static long piece(String subjobId) {
    try {
      return Long.parseLong(subjobId.substring(subjobId.lastIndexOf('/') + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("subjob id " + subjobId + " is not jobId/k");
    }
  }

  private static SplitNode node(SplitState s, String id, String subjob) {
    SplitNode v = s.nodes.get(id);
    if (v == null) {
      throw new IllegalArgumentException("subjob " + subjob + " refers to unknown node " + id);
    }
    return v;
  }

  private static SubjobQueue queue(SplitPolicy p, String tag, Subjob x) {
    SubjobQueue q;
    if (tag.startsWith("node/")) {
      q = node(p.state, tag.substring(5), x.id).queue;
    } else if (tag.equals("suspended")) {
      q = x.job.suspended;
    } else {
      q = p.hooks.queue(tag);
    }
    if (q == null) {
      throw new IllegalArgumentException("subjob " + x.id + " waits in queue '" + tag
          + "', which policy " + p.name() + " does not have");
    }
    return q;
  }
}
