package io.locus.cli;

import io.locus.kafka.KafkaClientOptions;
import io.locus.kafka.KafkaReachability;
import io.locus.kafka.TopicAdmin;
import io.locus.kafka.TopicSpec;
import io.locus.kafka.Topics;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code locus topics create|list}: the topics Locus needs ({@link Topics#ALL}) on a Kafka
 * cluster. {@code create} is what the helm chart's init Job runs when Strimzi is absent.
 */
@Command(name = "topics", mixinStandardHelpOptions = true,
    description = "Create or list the Kafka topics Locus needs.",
    subcommands = {TopicsCommand.Create.class, TopicsCommand.ListTopics.class})
public final class TopicsCommand implements Runnable {
  @Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(),
        "Missing command: 'locus topics create' or 'locus topics list'");
  }

  /** What one declared topic looks like on the cluster; {@code partitions} -1 when missing. */
  record TopicState(TopicSpec<?> spec, int partitions, int replicas, Map<String, String> configs) {
    boolean exists() {
      return partitions >= 0;
    }

    boolean matches() {
      return exists() && partitions == spec.partitions()
          && spec.configs().entrySet().stream()
              .allMatch(e -> e.getValue().equals(configs.get(e.getKey())));
    }
  }

  /** Creates the missing topics; existing ones are left as they are. */
  @Command(name = "create", mixinStandardHelpOptions = true,
      description = "Create every missing Locus topic with its partitions and configs"
          + " (idempotent: existing topics are left as they are and reported).")
  public static final class Create implements Callable<Integer> {
    @Spec CommandLine.Model.CommandSpec spec;

    @Mixin KafkaClientOptions kafka;

    @Option(names = "--replication-factor", paramLabel = "N",
        description = "Replicas of each created topic. Default: the broker's"
            + " default.replication.factor. Use 3 in production (with min.insync.replicas=2).")
    Short replicationFactor;

    @Override
    public Integer call() {
      if (replicationFactor != null && replicationFactor < 1) {
        throw new IllegalArgumentException("--replication-factor must be >= 1, got "
            + replicationFactor);
      }
      Properties props = kafka.clientProperties();
      KafkaReachability.check(props, KafkaReachability.DEFAULT_TIMEOUT);
      Set<String> before = describe(props).stream().filter(TopicState::exists)
          .map(t -> t.spec().name()).collect(Collectors.toSet());
      if (replicationFactor == null) {
        TopicAdmin.ensureTopics(props, Topics.ALL);
      } else {
        TopicAdmin.ensureTopics(props, Topics.ALL, replicationFactor);
      }
      PrintWriter out = spec.commandLine().getOut();
      int created = 0;
      for (TopicState t : describe(props)) {
        boolean isNew = !before.contains(t.spec().name());
        created += isNew ? 1 : 0;
        out.printf("%-18s %-8s %d partitions, %d replicas%s%n", t.spec().name(),
            isNew ? "created" : "exists", t.partitions(), t.replicas(),
            t.matches() ? "" : "  (differs from the declaration: see 'locus topics list')");
      }
      out.printf("locus topics: %d created, %d already present on %s%n", created,
          Topics.ALL.size() - created, kafka.bootstrap);
      out.flush();
      return 0;
    }
  }

  /** Lists what exists against what Locus needs. */
  @Command(name = "list", mixinStandardHelpOptions = true,
      description = "List the Locus topics on the cluster against their declarations:"
          + " partitions, replicas and configs. Exit code 1 when one is missing or differs.")
  public static final class ListTopics implements Callable<Integer> {
    @Spec CommandLine.Model.CommandSpec spec;

    @Mixin KafkaClientOptions kafka;

    @Override
    public Integer call() {
      Properties props = kafka.clientProperties();
      KafkaReachability.check(props, KafkaReachability.DEFAULT_TIMEOUT);
      List<TopicState> states = describe(props);
      PrintWriter out = spec.commandLine().getOut();
      out.printf("%-18s %-8s %-12s %-9s %s%n", "topic", "status", "partitions", "replicas",
          "configs (actual, declared in brackets when different)");
      boolean allGood = true;
      for (TopicState t : states) {
        String status = !t.exists() ? "MISSING" : t.matches() ? "ok" : "DIFFERS";
        allGood &= t.matches();
        String parts = t.exists() && t.partitions() == t.spec().partitions()
            ? Integer.toString(t.partitions())
            : (t.exists() ? t.partitions() : "-") + " [" + t.spec().partitions() + "]";
        out.printf("%-18s %-8s %-12s %-9s %s%n", t.spec().name(), status, parts,
            t.exists() ? Integer.toString(t.replicas()) : "-", configs(t));
      }
      Set<String> others = otherTopics(props);
      if (!others.isEmpty()) {
        out.println("other topics (not Locus's): " + String.join(", ", others));
      }
      out.println(allGood ? "locus topics: every topic Locus needs is present on " + kafka.bootstrap
          : "locus topics: some topics are missing or differ on " + kafka.bootstrap
              + "; 'locus topics create' creates missing ones (a different partition count"
              + " needs the topic recreated)");
      out.flush();
      return allGood ? 0 : 1;
    }

    private static String configs(TopicState t) {
      return t.spec().configs().entrySet().stream().sorted(Map.Entry.comparingByKey())
          .map(e -> {
            String actual = t.configs().get(e.getKey());
            return e.getKey() + "=" + (actual == null ? "-" : actual)
                + (e.getValue().equals(actual) ? "" : " [" + e.getValue() + "]");
          })
          .collect(Collectors.joining(", "));
    }
  }

  /** Every declared topic's state on the cluster, in {@link Topics#ALL} order. */
  static List<TopicState> describe(Properties props) {
    try (Admin admin = Admin.create(props)) {
      Set<String> names = admin.listTopics().names().get(60, TimeUnit.SECONDS);
      List<String> present = Topics.ALL.stream().map(TopicSpec::name)
          .filter(names::contains).toList();
      Map<String, TopicDescription> described = present.isEmpty() ? Map.of()
          : admin.describeTopics(present).allTopicNames().get(60, TimeUnit.SECONDS);
      Collection<ConfigResource> resources = present.stream()
          .map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n)).toList();
      Map<ConfigResource, Config> configs = resources.isEmpty() ? Map.of()
          : admin.describeConfigs(resources).all().get(60, TimeUnit.SECONDS);
      List<TopicState> out = new ArrayList<>();
      for (TopicSpec<?> spec : Topics.ALL) {
        TopicDescription d = described.get(spec.name());
        if (d == null) {
          out.add(new TopicState(spec, -1, -1, Map.of()));
          continue;
        }
        Config c = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, spec.name()));
        Map<String, String> values = new java.util.TreeMap<>();
        if (c != null) {
          for (String key : spec.configs().keySet()) {
            var entry = c.get(key);
            if (entry != null && entry.value() != null) {
              values.put(key, entry.value());
            }
          }
        }
        out.add(new TopicState(spec, d.partitions().size(),
            d.partitions().isEmpty() ? 0 : d.partitions().get(0).replicas().size(), values));
      }
      return out;
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("cannot describe the topics: " + e.getCause().getMessage(),
          e.getCause());
    } catch (java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("cannot describe the topics: no answer within 60 s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static Set<String> otherTopics(Properties props) {
    try (Admin admin = Admin.create(props)) {
      Set<String> names = new TreeSet<>(admin.listTopics().names().get(60, TimeUnit.SECONDS));
      Topics.ALL.forEach(t -> names.remove(t.name()));
      names.removeIf(n -> n.startsWith("__") || n.toLowerCase(Locale.ROOT).startsWith("_"));
      return names;
    } catch (Exception e) {
      return Set.of();
    }
  }
}
