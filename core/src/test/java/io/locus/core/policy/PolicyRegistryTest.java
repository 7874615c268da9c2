package io.locus.core.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.locus.core.policy.PolicyDescriptor.Param;
import io.locus.core.split.SplitParams;
import io.locus.core.split.SplitPolicy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The registry is what every list of policies derives from, so its lines must hold what they
 * claim: each policy builds with its defaults, each declared default is accepted as written, each
 * parameter refuses a value outside its range with a message that names it, and no two policies
 * answer to the same spelling.
 */
class PolicyRegistryTest {

  static Stream<PolicyDescriptor<?>> policies() {
    return PolicyRegistry.all().stream();
  }

  /** The parameters every split policy requires (ADAPTIVE_DELAY's calibrated table). */
  private static Map<String, String> required(PolicyDescriptor<?> d) {
    return d.name().equals("ADAPTIVE_DELAY") ? Map.of("lmaxTable", "0:1.0,1d:1.5,2d:2.0")
        : Map.of();
  }

  @ParameterizedTest
  @MethodSource("policies")
  void everyPolicyBuildsWithItsDefaults(PolicyDescriptor<?> d) {
    Object built = d.filePolicy() ? Policies.create(d.name(), required(d))
        : d.create(required(d));
    assertThat(built).isNotNull();
    if (d.filePolicy()) {
      // the file policy's own name: what decisions carry (GCC names its mode after a slash)
      assertThat(((Policy) built).name()).startsWith(d.name());
    } else {
      assertThat(((SplitPolicy) built).params().policy()).isEqualTo(d.name());
    }
  }

  @ParameterizedTest
  @MethodSource("policies")
  void everyDeclaredDefaultIsAcceptedAsWritten(PolicyDescriptor<?> d) {
    Map<String, String> given = new HashMap<>(required(d));
    for (Param p : d.params()) {
      // "" is required or derived from others; "max(6, d_node)" is a rule, not a value
      if (!p.defaultValue().isEmpty() && !p.defaultValue().contains("(")) {
        given.putIfAbsent(p.name(), p.defaultValue());
      }
    }
    if (!d.filePolicy()) {
      given.remove("replication"); // false is its default and valid for every split policy
    }
    assertThat(d.filePolicy() ? Policies.create(d.name(), given) : d.create(given)).isNotNull();
  }

  static Stream<Arguments> parameters() {
    List<Arguments> out = new ArrayList<>();
    for (PolicyDescriptor<?> d : PolicyRegistry.all()) {
      for (Param p : d.params()) {
        out.add(Arguments.of(d, p));
      }
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("parameters")
  void everyParameterRefusesAValueOutsideItsRangeNamingIt(PolicyDescriptor<?> d, Param p) {
    Map<String, String> given = new HashMap<>(required(d));
    given.put(p.name(), p.refused());
    // the parameter's name as a word of the message, in any case (COMPLEMENTARY_PLACE's keys)
    Pattern named = Pattern.compile("(?i)(^|[^A-Za-z_])" + Pattern.quote(p.name())
        + "($|[^A-Za-z_])");
    assertThatThrownBy(() -> {
      if (d.filePolicy()) {
        Policies.create(d.name(), given);
      } else {
        d.create(given);
      }
    }).isInstanceOf(IllegalArgumentException.class)
        .satisfies(e -> assertThat(named.matcher(e.getMessage()).find())
            .as("'%s' names %s", e.getMessage(), p.name()).isTrue());
  }

  @Test
  void namesAndAliasesAreUniqueAcrossEveryPolicy() {
    List<String> spellings = new ArrayList<>();
    for (PolicyDescriptor<?> d : PolicyRegistry.all()) {
      spellings.add(d.name());
      d.aliases().forEach(a -> spellings.add(a.toUpperCase(Locale.ROOT)));
    }
    assertThat(spellings).doesNotHaveDuplicates();
    for (PolicyDescriptor<?> d : PolicyRegistry.all()) {
      assertThat(d.paramNames()).as(d.name()).doesNotHaveDuplicates();
    }
  }

  @Test
  void aliasesNameTheSamePolicy() {
    assertThat(Policies.create("online-hps", Map.of())).isInstanceOf(OnlineHps.class);
    assertThat(Policies.create("hps", Map.of())).isInstanceOf(OnlineHps.class);
    assertThat(Policies.create("earliest_finish", Map.of())).isInstanceOf(EarliestFinish.class);
    assertThat(Policies.create("complementary-place", Map.of()).name())
        .isEqualTo("COMPLEMENTARY_PLACE");
    assertThatThrownBy(() -> Policies.create("FARM", Map.of()))
        .hasMessageStartingWith("unknown policy 'FARM'; valid: FA, FCA, MCU, MCH, GCC, MET, MCT,"
            + " SA, JDPDLL, ONLINE_HPS, COMPLEMENTARY_PLACE, EFT");
  }

  @Test
  void theDerivedListsFollowTheRegistry() {
    assertThat(Policies.NAMES).isEqualTo(PolicyRegistry.fileNames());
    assertThat(SplitParams.POLICIES).containsExactly("FARM", "JOB_SPLITTING",
        "CACHE_JOB_SPLITTING", "OUT_OF_ORDER", "DELAYED", "ADAPTIVE_DELAY");
    assertThat(SplitParams.DOC.keySet()).containsExactlyElementsOf(
        PolicyRegistry.splitParams().stream().map(Param::name).toList());
    assertThat(new PolicyRegistry.FileNames()).containsExactlyElementsOf(Policies.NAMES);
    assertThat(new PolicyRegistry.AgentCacheNames()).containsExactly("FA", "FCA", "MCU", "MCH",
        "GCC", "COMPLEMENTARY_PLACE", "EFT");
    // the staging state: always for the Khanna family, only while staged for EFT
    assertThat(PolicyRegistry.fileNames(d -> d.staging() == PolicyDescriptor.Staging.ALWAYS))
        .containsExactly("MET", "MCT", "SA", "JDPDLL", "ONLINE_HPS");
    assertThat(PolicyRegistry.find("eft").orElseThrow().staging())
        .isEqualTo(PolicyDescriptor.Staging.WHEN_STAGED);
  }
}
