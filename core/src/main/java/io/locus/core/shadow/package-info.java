/**
 * Shadow policies: a policy run beside a pool's active one on the same arrivals and nodes, against
 * a model of the cluster instead of the real one, so that its would-be decisions and a running
 * score (predicted response, bytes to move, utilisation) can be compared with the active policy's
 * before an operator switches. {@link io.locus.core.shadow.ShadowRun} is one shadow; {@link
 * io.locus.core.shadow.TransferRates} is the model's cost of reading bytes, learned from the real
 * pool's completions. Like every policy, a shadow reads no clock: time enters as {@code now}.
 */
package io.locus.core.shadow;
