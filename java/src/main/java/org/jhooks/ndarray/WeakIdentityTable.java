package org.jhooks.ndarray;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A table from objects, compared by identity ({@code ==}, not {@code equals}) and held weakly, to
 * values: an entry goes when its key is collected (the JDK's {@code WeakHashMap} compares keys with
 * {@code equals}, which NdArrays override by content). Used by {@link DTypeTags} and {@link
 * DirectValues}. Not thread-safe: callers synchronize.
 *
 * @param <V> the values
 */
final class WeakIdentityTable<V> {
  private final ReferenceQueue<Object> queue = new ReferenceQueue<>();
  private final Map<Integer, List<Entry<V>>> entries = new HashMap<>();
  private final Consumer<V> onCollected;

  private static final class Entry<V> extends WeakReference<Object> {
    final int hash;
    final V value;

    Entry(Object key, V value, ReferenceQueue<Object> queue) {
      super(key, queue);
      this.hash = System.identityHashCode(key);
      this.value = value;
    }
  }

  /** A table that passes the value of each entry whose key was collected to {@code onCollected}. */
  WeakIdentityTable(Consumer<V> onCollected) {
    this.onCollected = onCollected;
  }

  /** Maps {@code key} to {@code value} (a key put twice has the value put first). */
  void put(Object key, V value) {
    expunge();
    Entry<V> e = new Entry<>(key, value, queue);
    entries.computeIfAbsent(e.hash, h -> new ArrayList<>(1)).add(e);
  }

  /** The value of {@code key}, or {@code null}. */
  V get(Object key) {
    expunge();
    List<Entry<V>> list = entries.get(System.identityHashCode(key));
    if (list != null) {
      for (Entry<V> e : list) {
        if (e.get() == key) {
          return e.value;
        }
      }
    }
    return null;
  }

  /** Drops the entries whose keys were collected, passing their values to the callback. */
  void expunge() {
    Object ref;
    while ((ref = queue.poll()) != null) {
      @SuppressWarnings("unchecked")
      Entry<V> e = (Entry<V>) ref;
      remove(e);
    }
  }

  /**
   * Drops the entries whose keys were collected, as {@link #expunge()}, without waiting for the
   * JVM's reference handler to queue them: right after a collection.
   */
  void sweep() {
    List<Entry<V>> cleared = new ArrayList<>();
    for (List<Entry<V>> list : entries.values()) {
      for (Entry<V> e : list) {
        if (e.refersTo(null)) {
          cleared.add(e);
        }
      }
    }
    cleared.forEach(this::remove);
  }

  // Removes e and passes its value on, once: an entry swept may still be queued later.
  private void remove(Entry<V> e) {
    List<Entry<V>> list = entries.get(e.hash);
    if (list != null && list.remove(e)) {
      if (list.isEmpty()) {
        entries.remove(e.hash);
      }
      onCollected.accept(e.value);
    }
  }
}
