package org.jhooks;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

public class NestTest {
  private static Map<String, Object> map(Object... kv) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  @Test
  public void flattensDepthFirstInListThenMapOrder() {
    Object s = List.of("a:0", map("z", "b:0", "y", List.of("c", "d:1")), "e:0");
    assertEquals(List.of("a:0", "b:0", "c", "d:1", "e:0"), Nest.flatten(s));
    assertEquals(List.of(), Nest.flatten(null));
    assertEquals(List.of("x:0"), Nest.flatten("x:0"));
  }

  @Test
  public void mapAndPackKeepTheStructure() {
    Object s = map("loss", "loss:0", "ops", List.of("train", "w:0"));
    assertEquals(
        map("loss", "LOSS:0", "ops", List.of("TRAIN", "W:0")),
        Nest.mapStructure(s, String::toUpperCase));
    assertEquals(
        List.of("loss", "ops"),
        List.copyOf(((Map<?, ?>) Nest.pack(s, List.of(1, 2, 3).iterator())).keySet()));
    assertEquals(map("loss", 1, "ops", List.of(2, 3)), Nest.pack(s, List.of(1, 2, 3).iterator()));
    assertNull(Nest.mapStructure(null, n -> n));
  }

  @Test
  public void rejectsOtherLeavesAndKeysNamingThem() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Nest.validate(List.of("a:0", 3)));
    assertTrue(e.getMessage(), e.getMessage().contains("java.lang.Integer 3"));
    Map<Object, Object> badKey = new LinkedHashMap<>();
    badKey.put(1, "a:0");
    e = assertThrows(IllegalArgumentException.class, () -> Nest.validate(badKey));
    assertTrue(e.getMessage(), e.getMessage().contains("key must be a String"));
    e = assertThrows(IllegalArgumentException.class, () -> Nest.validate(map("k", null)));
    assertTrue(e.getMessage(), e.getMessage().contains("'k'"));
  }

  @Test
  public void tensorNamesHaveANumericOutputIndex() {
    assertTrue(Nest.isTensorName("loss:0"));
    assertTrue(Nest.isTensorName("scope/op:12"));
    assertFalse(Nest.isTensorName("train"));
    assertFalse(Nest.isTensorName("op:"));
    assertFalse(Nest.isTensorName(":0"));
    assertFalse(Nest.isTensorName("op:x"));
  }
}
