package io.locus.agent.sim;

import io.locus.agent.AgentConfig;
import io.locus.agent.AgentScheduler;
import io.locus.agent.Cancellable;
import io.locus.agent.StageRequest;
import io.locus.agent.Stager;
import io.locus.schemas.FetchSource;
import java.util.function.Consumer;

/**
 * Models a read as bytes / bandwidth of its source, scaled by the time scale. Every read gets the
 * full configured bandwidth: the agent does not model contention between concurrent reads (the
 * discrete-event simulator does, spec §1.4). A peer read checks the directory when it starts; a
 * peer that does not hold the file answers NOT_FOUND at once.
 */
public final class SimulatedStager implements Stager {
  private final AgentConfig config;
  private final AgentScheduler scheduler;
  private final PeerDirectory peers;

  public SimulatedStager(AgentConfig config, AgentScheduler scheduler, PeerDirectory peers) {
    this.config = config;
    this.scheduler = scheduler;
    this.peers = peers;
  }

  @Override
  public Cancellable fetch(StageRequest fetch, Consumer<StageRequest.Outcome> done) {
    double bandwidth = switch (fetch.source()) {
      case LOCAL -> config.localBandwidth();
      case PEER -> config.peerBandwidth();
      case STORAGE -> config.storageBandwidth();
    };
    if (fetch.source() == FetchSource.PEER
        && !peers.holds(fetch.peerNode(), fetch.fileId())) {
      return scheduler.schedule(0, () -> done.accept(StageRequest.Outcome.NOT_FOUND));
    }
    long delay = config.scaledNanos(fetch.bytes() / bandwidth);
    return scheduler.schedule(delay, () -> done.accept(StageRequest.Outcome.DONE));
  }
}
