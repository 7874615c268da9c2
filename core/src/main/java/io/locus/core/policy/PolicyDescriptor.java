package io.locus.core.policy;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * What Locus knows about one policy, kept in one place ({@link PolicyRegistry}) so that every list
 * of policies (the simulators', the operator's staging set, help texts, test sources, the helm
 * schema check) is derived instead of copied.
 *
 * @param <P> what the factory builds: a {@link Policy} for file policies, a {@link
 *     io.locus.core.split.SplitPolicy} for the split family
 * @param name the canonical name (capitals), as Control records and pool specs carry it
 * @param aliases other spellings accepted for the same policy (any case)
 * @param family where the policy comes from
 * @param cacheModel who manages the node caches it decides with
 * @param params the parameters it accepts, in documentation order
 * @param paramsAnyCase whether parameter names are matched case-insensitively
 *     (COMPLEMENTARY_PLACE's, whose spec writes them in mixed case)
 * @param factory builds the policy from string parameters, validating them
 */
public record PolicyDescriptor<P>(String name, List<String> aliases, Family family,
    CacheModel cacheModel, List<Param> params, boolean paramsAnyCase,
    Function<Map<String, String>, P> factory) {

  /** Where a policy comes from; help texts and the docs group policies by it. */
  public enum Family {
    /** Raicu et al.'s data diffusion (spec §2.1): executors cache what they read. */
    DATA_DIFFUSION,
    /** Khanna et al.'s cost-model policies: the scheduler stages files over storage nodes. */
    KHANNA,
    /** The hybrid spec's placement (§2.6): locality plus resource complementarity. */
    HYBRID,
    /** Locus's own (issue 16). */
    LOCUS,
    /** Event-range jobs split into subjobs (io.locus.core.split): a pool kind of its own. */
    SPLIT
  }

  /** Who manages the caches a policy decides with. */
  public enum CacheModel {
    /** Executors cache what they read and report it; the scheduler follows. */
    AGENT,
    /** The scheduler stages files onto nodes over the storage nodes' Gantt charts. */
    STAGED,
    /** Either, per pool (EFT's {@code caches} parameter; auto by the nodes' shape). */
    AGENT_OR_STAGED,
    /** Per-node caches of event ranges (the split family's caching policies). */
    EVENT_RANGES,
    /** No cache at all (FARM and JOB_SPLITTING read every event from tape). */
    NONE;

    /** Whether a pool of this model can run on agent caches (the data-diffusion simulator's). */
    public boolean agent() {
      return this == AGENT || this == AGENT_OR_STAGED;
    }

    /** Whether a pool of this model can have scheduler-staged caches (the Khanna simulator's). */
    public boolean staged() {
      return this == STAGED || this == AGENT_OR_STAGED;
    }
  }

  /** Whether (and when) a policy keeps the pool's {@link io.locus.core.state.StagingState}. */
  public enum Staging {
    /** Never: nothing of the staging state is read or written. */
    NONE,
    /** On every dispatch: the staging state is part of the pool's state from the start. */
    ALWAYS,
    /**
     * Only while the pool's caches are staged (decided per dispatch): a pool that never staged has
     * none, and creating one on restore would make the restored pool differ from the original.
     */
    WHEN_STAGED
  }

  /**
   * One parameter.
   *
   * @param name the key in a pool's parameter map
   * @param defaultValue the value taken when absent, as a user would write it ("" when required
   *     or derived from others)
   * @param range what is accepted, in words (help texts and docs)
   * @param refused a value outside the range, which the factory must refuse with a message that
   *     names the parameter (the registry test checks it for every parameter)
   */
  public record Param(String name, String defaultValue, String range, String refused) {}

  public PolicyDescriptor {
    name = name.toUpperCase(Locale.ROOT);
    aliases = List.copyOf(aliases);
    params = List.copyOf(params);
  }

  /** Derived from the cache model: a model with staged caches keeps the staging state. */
  public Staging staging() {
    return switch (cacheModel) {
      case STAGED -> Staging.ALWAYS;
      case AGENT_OR_STAGED -> Staging.WHEN_STAGED;
      default -> Staging.NONE;
    };
  }

  /** Whether this is a file policy (builds a {@link Policy}); else a split policy. */
  public boolean filePolicy() {
    return family != Family.SPLIT;
  }

  /** The parameter names, in documentation order. */
  public List<String> paramNames() {
    return params.stream().map(Param::name).toList();
  }

  /** Whether {@code spelling} names this policy: its name or an alias, any case. */
  public boolean answersTo(String spelling) {
    String s = spelling.toUpperCase(Locale.ROOT);
    return s.equals(name) || aliases.stream().anyMatch(a -> a.equalsIgnoreCase(s));
  }

  /** Builds the policy; the parameters are validated by the factory (messages name them). */
  public P create(Map<String, String> params) {
    return factory.apply(params == null ? Map.of() : params);
  }
}
