package io.locus.operators;

import io.locus.core.split.CachedRange;
import io.locus.core.split.CostSegment;
import io.locus.core.split.EventSpan;
import io.locus.core.split.JobEntry;
import io.locus.core.split.JobOutcome;
import io.locus.core.split.PolicyEntry;
import io.locus.core.split.PoolScalars;
import io.locus.core.split.Source;
import io.locus.core.split.SubjobEntry;
import io.locus.schemas.state.split.SplitAdaptivePeriod;
import io.locus.schemas.state.split.SplitCachedRange;
import io.locus.schemas.state.split.SplitCostSegment;
import io.locus.schemas.state.split.SplitJobEntry;
import io.locus.schemas.state.split.SplitJobOutcome;
import io.locus.schemas.state.split.SplitMetaSubjob;
import io.locus.schemas.state.split.SplitPolicyEntry;
import io.locus.schemas.state.split.SplitPoolScalars;
import io.locus.schemas.state.split.SplitSource;
import io.locus.schemas.state.split.SplitStop;
import io.locus.schemas.state.split.SplitSubjobEntry;
import io.locus.schemas.state.split.SplitTimeMark;
import io.locus.core.split.SplitEntries;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The split core's state entries ({@code io.locus.core.split.SplitJournal}) as the Avro records of
 * {@code schemas/.../state/split}, and back. Keys (job id, subjob id, node, (node, start), memory
 * key) are not repeated in the values.
 */
final class SplitEntryCodec {
  private SplitEntryCodec() {}

  /** The core's entries as the store holds them, or null when it holds no pool scalars. */
  static SplitEntries load(SplitStore store) throws Exception {
    List<Map.Entry<String, SplitPoolScalars>> pool = store.pool.entries();
    if (pool.isEmpty()) {
      return null;
    }
    List<String> nodes = new ArrayList<>();
    for (Map.Entry<String, Boolean> e : store.nodes.entries()) {
      nodes.add(e.getKey());
    }
    List<CachedRange> cache = new ArrayList<>();
    for (Map.Entry<String, SplitCachedRange> e : store.cache.entries()) {
      cache.add(fromAvro(SplitStore.rangeNode(e.getKey()), SplitStore.rangeStart(e.getKey()),
          e.getValue()));
    }
    List<JobEntry> jobs = new ArrayList<>();
    for (Map.Entry<String, SplitJobEntry> e : store.jobs.entries()) {
      jobs.add(fromAvro(e.getKey(), e.getValue()));
    }
    List<SubjobEntry> subjobs = new ArrayList<>();
    for (Map.Entry<String, SplitSubjobEntry> e : store.subjobs.entries()) {
      subjobs.add(fromAvro(e.getKey(), e.getValue()));
    }
    List<PolicyEntry> memory = new ArrayList<>();
    for (Map.Entry<String, SplitPolicyEntry> e : store.memory.entries()) {
      memory.add(fromAvro(e.getValue()));
    }
    return new SplitEntries(fromAvro(pool.get(0).getValue()), nodes, cache, jobs, subjobs,
        memory);
  }

  static SplitPoolScalars toAvro(PoolScalars p) {
    List<SplitJobOutcome> done = new ArrayList<>(p.finished().size());
    for (JobOutcome o : p.finished()) {
      done.add(new SplitJobOutcome(o.jobId(), o.events().start(), o.events().end(), o.arrival(),
          o.released(), o.firstStart(), o.end(), o.localEvents(), o.remoteEvents(),
          o.tapeEvents(), o.priority(), o.replicated(), o.subjobs()));
    }
    return new SplitPoolScalars(p.now(), p.jobSeq(), p.replications(), done);
  }

  static PoolScalars fromAvro(SplitPoolScalars p) {
    List<JobOutcome> done = new ArrayList<>(p.getFinished().size());
    for (SplitJobOutcome o : p.getFinished()) {
      done.add(new JobOutcome(o.getJobId(), new EventSpan(o.getStart(), o.getEnd()),
          o.getArrival(), o.getReleased(), o.getFirstStart(), o.getLastEnd(),
          o.getLocalEvents(), o.getRemoteEvents(), o.getTapeEvents(), o.getPriority(),
          o.getReplicated(), o.getSubjobs()));
    }
    return new PoolScalars(p.getNow(), p.getJobSeq(), p.getReplications(), done);
  }

  static SplitJobEntry toAvro(JobEntry j) {
    return new SplitJobEntry(j.seq(), j.events().start(), j.events().end(), j.arrival(),
        j.released(), j.firstStart(), j.lastEnd(), j.done(), j.localEvents(), j.remoteEvents(),
        j.tapeEvents(), j.priority(), j.replicated(), j.pieces(), j.subjobsRun(), j.waiting(),
        j.cancelled());
  }

  static JobEntry fromAvro(String id, SplitJobEntry j) {
    return new JobEntry(id, j.getSeq(), new EventSpan(j.getStart(), j.getEnd()), j.getArrival(),
        j.getReleased(), j.getFirstStart(), j.getLastEnd(), j.getDone(), j.getLocalEvents(),
        j.getRemoteEvents(), j.getTapeEvents(), j.getPriority(), j.getReplicated(),
        j.getPieces(), j.getSubjobsRun(), j.getWaiting(), j.getCancelled());
  }

  static SplitSubjobEntry toAvro(SubjobEntry x) {
    List<SplitCostSegment> segs = new ArrayList<>(x.segments().size());
    for (CostSegment c : x.segments()) {
      segs.add(new SplitCostSegment(c.range().start(), c.range().end(),
          SplitSource.valueOf(c.source().name()), c.peer(), c.secondsPerEvent(),
          c.cacheAfterRead()));
    }
    SubjobEntry.Stop s = x.stop();
    return new SplitSubjobEntry(x.jobId(), x.range().start(), x.range().end(), x.node(),
        x.dispatch(), x.materialised(), segs, x.preemptible(), x.priority(), x.origin(),
        x.cachedOn(), x.awaitsAck(),
        s == null ? null : new SplitStop(s.suspend(), s.modelPos(), s.originalEnd()),
        x.stoppedOn(), x.queue(), x.rank());
  }

  static SubjobEntry fromAvro(String id, SplitSubjobEntry x) {
    List<CostSegment> segs = new ArrayList<>(x.getSegments().size());
    for (SplitCostSegment c : x.getSegments()) {
      segs.add(new CostSegment(new EventSpan(c.getStart(), c.getEnd()),
          Source.valueOf(c.getSource().name()), c.getPeer(), c.getSecondsPerEvent(),
          c.getCacheAfterRead()));
    }
    SplitStop s = x.getStop();
    return new SubjobEntry(id, x.getJobId(), new EventSpan(x.getStart(), x.getEnd()),
        x.getNode(), x.getDispatch(), x.getMaterialised(), segs, x.getPreemptible(),
        x.getPriority(), x.getOrigin(), x.getCachedOn(), x.getAwaitsAck(),
        s == null ? null : new SubjobEntry.Stop(s.getSuspend(), s.getModelPos(),
            s.getOriginalEnd()), x.getStoppedOn(), x.getQueue(), x.getRank());
  }

  static SplitCachedRange toAvro(CachedRange r) {
    return new SplitCachedRange(r.end(), r.lastUse(), r.remoteCount());
  }

  static CachedRange fromAvro(String node, long start, SplitCachedRange r) {
    return new CachedRange(node, start, r.getEnd(), r.getLastUse(), r.getRemoteCount());
  }

  static SplitPolicyEntry toAvro(PolicyEntry e) {
    Object v;
    if (e instanceof PolicyEntry.TimeMark m) {
      v = new SplitTimeMark(m.queue(), m.seq(), m.time());
    } else if (e instanceof PolicyEntry.MetaSubjob m) {
      v = new SplitMetaSubjob(m.rank(), m.arrival(), m.stripeStart(), new ArrayList<>(m.pieces()));
    } else {
      PolicyEntry.AdaptivePeriod p = (PolicyEntry.AdaptivePeriod) e;
      v = new SplitAdaptivePeriod(p.period(), p.lowerVotes(), p.nextEvaluation());
    }
    return new SplitPolicyEntry(v);
  }

  static PolicyEntry fromAvro(SplitPolicyEntry e) {
    Object v = e.getEntry();
    if (v instanceof SplitTimeMark m) {
      return new PolicyEntry.TimeMark(m.getQueue(), m.getSeq(), m.getTime());
    }
    if (v instanceof SplitMetaSubjob m) {
      return new PolicyEntry.MetaSubjob(m.getRank(), m.getArrival(), m.getStripeStart(),
          m.getPieces());
    }
    if (v instanceof SplitAdaptivePeriod p) {
      return new PolicyEntry.AdaptivePeriod(p.getPeriod(), p.getLowerVotes(),
          p.getNextEvaluation());
    }
    throw new IllegalArgumentException("unknown split policy entry " + v);
  }
}
