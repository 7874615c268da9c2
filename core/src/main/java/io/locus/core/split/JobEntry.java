package io.locus.core.split;

/**
 * One unfinished job of a split pool, one entry of its state ({@link SplitJournal}).
 *
 * @param id the job id
 * @param seq arrival order in the pool
 * @param events the event segment it analyses
 * @param arrival submission time (model seconds)
 * @param released when the policy first considered it: the end of its period, or its arrival
 * @param firstStart dispatch of its first subjob; NaN before
 * @param lastEnd end of its latest subjob; NaN before
 * @param done events processed so far
 * @param localEvents processed events read from the processing node's cache
 * @param remoteEvents processed events read from another node's cache
 * @param tapeEvents processed events read from tertiary storage
 * @param priority it ran a starvation-priority subjob
 * @param replicated it triggered a third-remote-access replication
 * @param pieces subjobs cut from it so far (the next one is {@code id/(pieces + 1)})
 * @param subjobsRun subjobs that processed at least one of its events
 * @param waiting it waits, without subjobs, in its policy's job FIFO
 * @param cancelled it was cancelled and only waits for its running subjobs' ends and its stops'
 *     acknowledgements (it is in no queue and never completes)
 */
public record JobEntry(String id, long seq, EventSpan events, double arrival, double released,
    double firstStart, double lastEnd, long done, long localEvents, long remoteEvents,
    long tapeEvents, boolean priority, boolean replicated, int pieces, int subjobsRun,
    boolean waiting, boolean cancelled) {}
