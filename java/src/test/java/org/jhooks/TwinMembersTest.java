package org.jhooks;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import com.google.gson.JsonParser;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.Test;

/**
 * The member comparison's rules ({@link TwinMembers}) on made-up classes and pairs; the same pair
 * cases as {@code tests/test_twins.py}.
 */
public class TwinMembersTest {
  /** A builder's setters and its {@code builder(...)} parameters are constructor parameters. */
  public static final class Built {
    public static final int LIMIT = 3;

    private Built() {}

    public static Builder builder(String checkpointDir) {
      return new Builder();
    }

    public long lastStep() {
      return 0;
    }

    public String getName() {
      return "";
    }

    public void setModelInstance(ModelInstance modelInstance) {}

    @Override
    public String toString() {
      return "Built";
    }

    /** The builder. */
    public static final class Builder {
      public Builder saveSteps(int saveSteps) {
        return this;
      }

      public Built build() {
        return new Built();
      }
    }
  }

  /** An exception's {@code cause} is Python's {@code raise ... from}. */
  public static final class ThingException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ThingException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** A package-private class counts its package-private members. */
  static final class Hidden {
    Hidden(int maxToKeep) {}

    void open() {}

    private void notThis() {} // NOPMD - fixture: a private member the comparison must leave out
  }

  private static Set<String> own(Class<?> c) {
    return TwinMembers.membersOf(c, Set.of()).get("own");
  }

  @Test
  public void gettersSettersConstantsAndBuildersAreNormalised() {
    assertEquals(
        new TreeSet<>(
            List.of(
                "LIMIT",
                "constructor(checkpointDir)",
                "constructor(saveSteps)",
                "lastStep",
                "modelInstance",
                "name")),
        own(Built.class));
  }

  @Test
  public void anExceptionsCauseIsNoParameterAndItsNameLosesTheSuffix() {
    assertEquals(Set.of("constructor(message)"), own(ThingException.class));
    assertEquals("Thing", TwinMembers.normalise("ThingException"));
    assertEquals("Exception", TwinMembers.normalise("Exception"));
  }

  @Test
  public void aPackagePrivateClassCountsItsPackagePrivateMembers() {
    assertEquals(Set.of("constructor(maxToKeep)", "open"), own(Hidden.class));
  }

  @Test
  public void membersOfAListedSupertypeAreInheritedNotOwn() {
    Map<String, Set<String>> members =
        TwinMembers.membersOf(org.jhooks.hooks.StopAtStepHook.class, Set.of("org.jhooks.Hook"));
    assertTrue(members.toString(), members.get("own").contains("lastStep"));
    assertTrue(members.toString(), members.get("inherited").contains("onError"));
    assertTrue(members.toString(), !members.get("own").contains("onError"));
  }

  // --- the comparison, on a made-up pair (the same cases as tests/test_twins.py) ----------------

  private static List<String> differences(
      String onlyIn, Set<String> pythonOwn, Set<String> javaOwn, Set<String> javaInherited) {
    Map<String, Map<String, Map<String, Set<String>>>> members = new TreeMap<>();
    members.put("python", Map.of("p.Thing", Map.of("own", pythonOwn, "inherited", Set.of())));
    members.put("java", Map.of("j.Thing", Map.of("own", javaOwn, "inherited", javaInherited)));
    String manifest =
        "{\"twins\": [{\"python\": [\"p.Thing\"], \"java\": [\"j.Thing\"]"
            + (onlyIn == null ? "" : ", \"onlyIn\": " + onlyIn)
            + "}]}";
    return TwinMembers.differences(JsonParser.parseString(manifest).getAsJsonObject(), members);
  }

  @Test
  public void aMemberOnOneSideFailsNamingThePairTheMemberTheSideAndTheFix() {
    assertEquals(
        List.of(
            "p.Thing <-> j.Thing: 'extra' is a member of the Python side only (p.Thing). Fix: give"
                + " the Java twin the same member (CONTRIBUTING.md, 'Twins', says how names"
                + " compare), or rename/remove it in Python; if the difference is deliberate, add"
                + " \"extra\": \"<one-line reason>\" to this entry's \"onlyIn\": {\"python\":"
                + " {...}} in docs/twins.json."),
        differences(null, Set.of("lastStep", "extra"), Set.of("lastStep"), Set.of()));
  }

  @Test
  public void anAllowlistedMemberPassesAndAStaleAllowlistEntryFails() {
    String allowed = "{\"java\": {\"ofNumSteps\": \"a factory\"}}";
    assertEquals(
        List.of(), differences(allowed, Set.of("end"), Set.of("end", "ofNumSteps"), Set.of()));
    assertEquals(
        List.of(
            "p.Thing <-> j.Thing: docs/twins.json allows \"ofNumSteps\" in onlyIn.java, but it no"
                + " longer differs (both sides have it now). Fix: remove that allowlist entry."),
        differences(allowed, Set.of("end", "ofNumSteps"), Set.of("end", "ofNumSteps"), Set.of()));
  }

  @Test
  public void anInheritedMemberAndAnyArgumentsMatch() {
    assertEquals(List.of(), differences(null, Set.of("end"), Set.of(), Set.of("end")));
    assertEquals(
        List.of(),
        differences(
            null,
            Set.of(TwinMembers.ANY_ARGUMENTS),
            Set.of("constructor(message)", "constructor(globalStep)"),
            Set.of()));
  }
}
