package io.locus.agent.real;

import io.locus.agent.DecisionGuard;
import io.locus.agent.Refusal;
import io.locus.schemas.auth.RecordSigner;
import io.locus.schemas.DataUnit;
import io.locus.schemas.Decision;
import io.locus.schemas.EvictFiles;
import io.locus.schemas.FetchSource;
import io.locus.schemas.InputPlan;
import io.locus.schemas.PlaceTask;
import io.locus.schemas.ReplicateFile;
import io.locus.schemas.limits.FileIds;
import java.util.TreeSet;

/**
 * A real agent's checks on decisions (see {@link DecisionGuard} for when each runs).
 *
 * <ul>
 *   <li>verify: with a secret configured, the decision must carry a valid HMAC signature
 *       ({@link RecordSigner}); REFUSED "unsigned decision" or "bad signature".
 *   <li>admit, for every file a decision names (inputs, outputs, files to evict, file to
 *       replicate): a safe
 *       id ({@link FileIds}: "unsafe file id") and, for files to fetch or read, no symbolic link
 *       at its place in the cache directory ("symlink in cache"); a location inside the allowed
 *       storage ("location not allowed"); a size &ge; 0 and a checksum this agent can verify, i.e.
 *       SHA-256 ("bad input").
 *   <li>admit, for a PlaceTask: a known template, or a configured default when none is named
 *       ("unknown template"); arguments within the template's limits ("bad argument").
 * </ul>
 */
public final class RealDecisionGuard implements DecisionGuard {
  private final RealAgentConfig config;
  private final DiskCache disk;
  private final StorageLocations storage;
  private final RecordSigner signer;

  public RealDecisionGuard(RealAgentConfig config, DiskCache disk, StorageLocations storage) {
    this.config = config;
    this.disk = disk;
    this.storage = storage;
    this.signer = config.signer();
  }

  @Override
  public Refusal verify(Decision d) {
    if (signer == null) {
      return null;
    }
    if (d.getSignature() == null) {
      return Refusal.of(Refusal.UNSIGNED,
          "this agent requires decisions signed with the pool's secret (HmacSHA256)");
    }
    if (!signer.verify(d)) {
      return Refusal.of(Refusal.BAD_SIGNATURE, "the HMAC does not match the decision's content");
    }
    return null;
  }

  @Override
  public Refusal admit(Decision d) {
    Object action = d.getAction();
    if (action instanceof PlaceTask p) {
      return admitPlace(p);
    } else if (action instanceof EvictFiles e) {
      for (String f : e.getFiles()) {
        String problem = FileIds.problem(f);
        if (problem != null) {
          return Refusal.of(Refusal.UNSAFE_FILE_ID, problem);
        }
      }
    } else if (action instanceof ReplicateFile r) {
      Refusal bad = file(r.getFileId());
      if (bad == null) {
        bad = location(r.getLocation(), r.getFileId(), r.getSource());
      }
      if (bad == null && r.getBytes() < 0) {
        bad = Refusal.of(Refusal.BAD_INPUT, "negative size for " + r.getFileId());
      }
      return bad;
    }
    return null;
  }

  private Refusal admitPlace(PlaceTask p) {
    for (InputPlan in : p.getInputs()) {
      Refusal bad = file(in.getFileId());
      if (bad == null) {
        bad = location(in.getLocation(), in.getFileId(), in.getSource());
      }
      if (bad != null) {
        return bad;
      }
      if (in.getBytes() < 0) {
        return Refusal.of(Refusal.BAD_INPUT, "negative size for " + in.getFileId());
      }
      if (!RealStager.isSupportedChecksum(in.getChecksum())) {
        return Refusal.of(Refusal.BAD_INPUT, "checksum of " + in.getFileId()
            + " is not a SHA-256 hex digest (64 hex digits, optionally 'sha256:' first)");
      }
    }
    for (DataUnit o : p.getOutputs()) {
      // An output becomes a cache file and, with a file: storage root, a storage file: the same
      // rules as for an input, and a location (if it names one) inside the allowed storage.
      Refusal bad = file(o.getId());
      if (bad == null && o.getLocation() != null) {
        bad = location(o.getLocation(), o.getId(), FetchSource.STORAGE);
      }
      if (bad != null) {
        return bad;
      }
    }
    String name = p.getTemplate() != null ? p.getTemplate() : config.defaultTemplate();
    if (name == null) {
      return Refusal.of(Refusal.UNKNOWN_TEMPLATE,
          "the decision names no template and this agent has no default-template");
    }
    TaskTemplate t = config.templates().get(name);
    if (t == null) {
      return Refusal.of(Refusal.UNKNOWN_TEMPLATE, "'" + FileIds.printable(name)
          + "' is not one of " + new TreeSet<>(config.templates().keySet()));
    }
    return t.check(p);
  }

  private Refusal file(String id) {
    String problem = FileIds.problem(id);
    if (problem != null) {
      return Refusal.of(Refusal.UNSAFE_FILE_ID, problem);
    }
    if (disk.isSymlink(id)) {
      return Refusal.of(Refusal.SYMLINK, "the cache entry of '" + id
          + "' is a symbolic link; the agent never follows one");
    }
    return null;
  }

  private Refusal location(String location, String id, FetchSource source) {
    // A null location without a storage root only matters when storage is the planned source;
    // a peer or local read may still work, and the fallback fails then with its reason.
    if (location == null && storage.root() == null && source != FetchSource.STORAGE) {
      return null;
    }
    try {
      storage.resolve(location, id);
      return null;
    } catch (StorageLocations.Refused e) {
      return Refusal.of(Refusal.LOCATION_NOT_ALLOWED, e.getMessage());
    }
  }
}
