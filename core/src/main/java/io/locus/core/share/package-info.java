/**
 * Sharing a pool between queues (issue 24): the queue tree as checked data ({@link
 * io.locus.core.share.QueueTree} from {@link io.locus.core.share.QueueSpec}s, with a diff for a dry
 * run), whose task runs next ({@link io.locus.core.share.FairShare}: guarantees, weighted dominant
 * shares, borrowing up to limits, lending reserves, hierarchy, per-queue maximum waits), how long a
 * queue's head may wait for a better node ({@link io.locus.core.share.LocalityWait}: delay
 * scheduling's wait, shrinking with the queue's deficit) and which running attempts to stop to
 * restore guarantees ({@link io.locus.core.share.Preemption}). Plain data in, decisions out: no
 * clock (time enters as event time), no random source, and a total order everywhere, so a replay
 * decides alike. docs/policies.md "Sharing a pool" states the rules and where each comes from.
 */
package io.locus.core.share;
