package io.locus.core.share;

import java.util.List;

/**
 * A queue configuration that was refused: every problem found, in a deterministic order (the
 * specs' order, then the tree's checks), so a dry run shows them all and nothing was built.
 */
public final class QueueConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;
  private final transient List<String> problems;

  public QueueConfigException(List<String> problems) {
    super(String.join("; ", problems));
    this.problems = List.copyOf(problems);
  }

  public List<String> problems() {
    return problems;
  }
}
