package io.locus.kafka;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;

/**
 * Users and ACLs of a secured cluster, through the Admin API (the calls an operator's tooling
 * makes; {@code kafka-configs.sh --alter --add-config SCRAM-SHA-512=...} and {@code
 * kafka-acls.sh} do the same). The admin client must log in as a principal allowed to alter
 * them: a super user, or one granted ALTER on the cluster.
 */
public final class KafkaSecurityAdmin {
  /** Kafka's recommended minimum for SCRAM-SHA-512 is 4096; the default of its tools is 8192. */
  static final int SCRAM_ITERATIONS = 8192;
  private static final long TIMEOUT_SECONDS = 60;

  private KafkaSecurityAdmin() {}

  /**
   * Creates {@code user}, or sets its password, with a SCRAM-SHA-512 credential. The controller
   * commits it and brokers learn it from the metadata log a moment later; this returns once the
   * broker the admin client asks describes the user, so that a login right after does not race.
   * (A changed password of an existing user is not waited for.)
   */
  public static void upsertScramUser(Admin admin, String user, String password) {
    checkUserName(user);
    checkPassword(password);
    await(admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(user,
        new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, SCRAM_ITERATIONS), password)))
        .all(), "create SCRAM user " + user);
    awaitCondition(() -> {
      try {
        return await(admin.describeUserScramCredentials(List.of(user)).all(), "describe " + user)
            .containsKey(user);
      } catch (IllegalStateException e) {
        return false; // ResourceNotFound until the broker has it
      }
    }, "SCRAM user " + user + " known to the broker");
  }

  /**
   * Creates the ACLs (identical existing ones are kept) and returns once the broker the admin
   * client asks lists them all, for the same reason as {@link #upsertScramUser}.
   */
  public static void createAcls(Admin admin, Collection<AclBinding> acls) {
    await(admin.createAcls(acls).all(), "create " + acls.size() + " ACLs");
    awaitCondition(() -> await(admin.describeAcls(AclBindingFilter.ANY).values(), "list ACLs")
        .containsAll(acls), acls.size() + " ACLs in force on the broker");
  }

  private static void awaitCondition(BooleanSupplier done, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("not " + what + " within " + TIMEOUT_SECONDS + " s");
      }
      try {
        // A metadata round on one broker takes milliseconds; poll gently rather than spin.
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted waiting for " + what, e);
      }
    }
  }

  /**
   * A user name Locus accepts: letters, digits, '.', '_', '-', '@', at most 256 characters. SCRAM
   * would escape ',' and '=', and a principal name with ':' or ';' reads wrongly in super.users;
   * refusing them avoids every such surprise.
   */
  public static void checkUserName(String user) {
    if (user == null || !user.matches("[A-Za-z0-9._@-]{1,256}")) {
      throw new IllegalArgumentException("a user name is 1 to 256 letters, digits, '.', '_', "
          + "'-' or '@', got " + (user == null ? "null" : "'" + user + "'"));
    }
  }

  static void checkPassword(String password) {
    if (password == null || password.isEmpty()) {
      throw new IllegalArgumentException("a password must not be empty");
    }
  }

  private static <T> T await(KafkaFuture<T> future, String what) {
    try {
      return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot " + what + ": " + e.getCause(), e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("cannot " + what + ": no answer in " + TIMEOUT_SECONDS
          + " s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: " + what, e);
    }
  }
}
