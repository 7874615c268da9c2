/**
 * Workload generators of the research the policies come from, and the trace file format.
 *
 * <p>A {@link io.locus.workloads.Workload} is a named, lazily produced, arrival-ordered stream of
 * {@link io.locus.workloads.TraceJob}s. Generators (one per file, named after the paper's term):
 * {@link io.locus.workloads.Mi}, {@link io.locus.workloads.Sw}, {@link io.locus.workloads.AllPairs},
 * {@link io.locus.workloads.Stacking}, {@link io.locus.workloads.SchedMicro},
 * {@link io.locus.workloads.DdThroughput}, {@link io.locus.workloads.Stages18} (data diffusion,
 * {@code spec/data-diffusion.md} §4) and {@link io.locus.workloads.KhannaImageTrace}
 * ({@code spec/hypergraph-online-hps.md} §4). {@link io.locus.workloads.Workloads} creates any of
 * them by name; {@link io.locus.workloads.TraceWriter} and {@link io.locus.workloads.TraceReader}
 * store and replay them in the format of {@link io.locus.workloads.TraceFormat}.
 * {@link io.locus.workloads.TraceFiles} opens trace files of every format a user can replay: Locus
 * traces, WfCommons instances ({@code io.locus.workloads.wf}) and SWF logs ({@code
 * io.locus.workloads.swf}).
 *
 * <p>Every generator is deterministic for its seed: the same seed gives the same trace, byte for
 * byte, on any JVM.
 */
package io.locus.workloads;
