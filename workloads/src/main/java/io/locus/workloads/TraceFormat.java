package io.locus.workloads;

import io.locus.core.share.QueueNames;

/**
 * The Locus trace file: JSON lines (one JSON object per line, UTF-8), gzip-compressed when the file
 * name ends in {@code .gz}.
 *
 * <p><b>Line 1, the header:</b>
 *
 * <pre>{"format":"locus-trace","version":1,"name":"mi","jobs":250000,"description":"…"}</pre>
 *
 * {@code format}, {@code version}, {@code name} and {@code jobs} (the number of job lines that
 * follow) are required; {@code description} is optional. A reader refuses another format or
 * version, and a file whose job count differs from {@code jobs} (a truncated copy, say).
 *
 * <p><b>Every further line is one {@link TraceJob}</b>, in non-decreasing {@code arrival} order
 * (equal arrivals: file order is submission order):
 *
 * <pre>
 * {"jobId":"job-7","pool":"batch","arrival":12.5,
 *  "inputs":[{"id":"img-4","bytes":67108864,"computeSeconds":0.064,"location":"sn-0"}],
 *  "computeSeconds":0.0,"stage":0,"attributes":{"cluster":"3"}}
 * {"jobId":"merge","arrival":0.0,"inputs":[{"id":"part-1","bytes":1000}],"computeSeconds":2.5,
 *  "stage":0,"parents":["job-7"],"outputs":[{"id":"result","bytes":500}],
 *  "template":"merge","args":["--fast"]}
 * </pre>
 * (shown wrapped; in the file it is one line)
 *
 * <table>
 *   <caption>Job fields</caption>
 *   <tr><th>field</th><th>type</th><th>required</th><th>meaning</th></tr>
 *   <tr><td>jobId</td><td>string</td><td>yes</td><td>job id</td></tr>
 *   <tr><td>pool</td><td>string</td><td>no (absent = null)</td><td>scheduling pool; null = the
 *       consumer's default</td></tr>
 *   <tr><td>arrival</td><td>number ≥ 0</td><td>yes</td><td>submission time, seconds</td></tr>
 *   <tr><td>inputs</td><td>array of units</td><td>yes (may be empty)</td><td>files read, in
 *       order</td></tr>
 *   <tr><td>computeSeconds</td><td>number ≥ 0</td><td>yes</td><td>job-level compute after the
 *       reads</td></tr>
 *   <tr><td>stage</td><td>integer ≥ 0</td><td>no (absent = 0)</td><td>0 = released at arrival;
 *       k ≥ 1 = released when all of stage k−1 has completed</td></tr>
 *   <tr><td>attributes</td><td>object of strings</td><td>no (absent = empty)</td><td>descriptive
 *       tags</td></tr>
 *   <tr><td>events</td><td>{@code {"start":s,"end":e}}, integers 0 ≤ s &lt; e</td><td>no (absent =
 *       null)</td><td>splittable jobs (CERN): the event segment [s, e) analysed; such jobs have
 *       no inputs</td></tr>
 *   <tr><td>parents</td><td>array of job ids</td><td>no (absent = empty)</td><td>jobs of the same
 *       workload that must have completed before this one is submitted (a workflow's DAG);
 *       {@code arrival} is then the earliest submission time. Every id must be a job of the
 *       workload and the graph must be acyclic ({@link TraceFiles#open} checks both)</td></tr>
 *   <tr><td>outputs</td><td>array of units</td><td>no (absent = empty)</td><td>files the job
 *       creates, with their sizes; they appear in the cache of the node that ran the job, so
 *       children reading them can be placed there</td></tr>
 *   <tr><td>template</td><td>string</td><td>no (absent = null)</td><td>the agent task template to
 *       run; null = the agent's default template</td></tr>
 *   <tr><td>args</td><td>array of strings</td><td>no (absent = empty)</td><td>arguments for the
 *       template</td></tr>
 *   <tr><td>priority</td><td>integer in [−1000, 1000]</td><td>no (absent = null)</td><td>the
 *       job's priority in its pool's queue; null = the consumer's default</td></tr>
 *   <tr><td>cancelAfter</td><td>number ≥ 0</td><td>no (absent = null)</td><td>seconds after its
 *       arrival at which the job is cancelled; null = never</td></tr>
 *   <tr><td>queue</td><td>string ({@link QueueNames})</td><td>no (absent = null)</td><td>the
 *       queue (tenant, team) inside its pool; null = the consumer's default queue</td></tr>
 * </table>
 *
 * <p>{@code parents}, {@code outputs}, {@code template} and {@code args} were added in issue 15.
 * They are optional and written only when set, so the format stays at version 1: older traces read
 * unchanged, and a trace without them is written byte for byte as before. {@code priority} and
 * {@code cancelAfter} (issue 23) and {@code queue} (issue 24) came on the same terms.
 *
 * <table>
 *   <caption>Unit fields of inputs and outputs (io.locus.core.model.InputFile)</caption>
 *   <tr><th>field</th><th>type</th><th>required</th><th>meaning</th></tr>
 *   <tr><td>id</td><td>string</td><td>yes</td><td>file id</td></tr>
 *   <tr><td>bytes</td><td>integer ≥ 0</td><td>yes</td><td>size in bytes</td></tr>
 *   <tr><td>computeSeconds</td><td>number ≥ 0</td><td>no (absent = 0)</td><td>per-file compute
 *       (Khanna: C · size)</td></tr>
 *   <tr><td>location</td><td>string</td><td>no (absent = null)</td><td>data source; {@code
 *       sn-<k>} = storage node k, null = the shared file system</td></tr>
 *   <tr><td>checksum</td><td>string</td><td>no (absent = null)</td><td>content checksum</td></tr>
 * </table>
 *
 * <p>A null value is the same as an absent field. Unknown fields are errors, not ignored: a typo such
 * as {@code "arival"} must not silently become a default. Blank lines are skipped. Numbers are
 * written in the shortest form that reads back to the same double, so a round trip is exact.
 * Errors name the file and the 1-based line ({@link TraceFormatException}).
 */
public final class TraceFormat {
  public static final String FORMAT = "locus-trace";
  public static final int VERSION = 1;

  private TraceFormat() {}

  /** True when the path is written or read through gzip. */
  static boolean gzipped(java.nio.file.Path path) {
    return path.getFileName().toString().endsWith(".gz");
  }
}
