package io.locus.cli.job;

import io.locus.kafka.Topics;

/**
 * A job as a user names it: {@code POOL/JOB}, or a job id with {@code --pool}. The pool is the
 * part before the first '/', so a job id may itself contain '/' (a pool name may not, here).
 */
record JobRef(String pool, String jobId) {
  /**
   * The job {@code text} names, {@code pool} (from --pool, may be null) applying when given.
   *
   * @throws IllegalArgumentException saying what is missing
   */
  static JobRef parse(String pool, String text) {
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("a job is needed: POOL/JOB, or --pool POOL JOB");
    }
    if (pool != null) {
      if (pool.isBlank()) {
        throw new IllegalArgumentException("--pool must not be blank");
      }
      return new JobRef(pool, text);
    }
    int slash = text.indexOf('/');
    if (slash <= 0 || slash == text.length() - 1) {
      throw new IllegalArgumentException("'" + text + "' names no pool: give POOL/JOB (e.g."
          + " batch/job-7) or --pool POOL JOB");
    }
    return new JobRef(text.substring(0, slash), text.substring(slash + 1));
  }

  /** The job's key on job-status, which is also how the commands print it. */
  @Override
  public String toString() {
    return Topics.jobStatusKey(pool, jobId);
  }
}
