package org.jhooks.bench;

import org.jhooks.Hook;

/** A hook whose callbacks do nothing: what the benchmarks count the driver/bridge overhead with. */
public final class NoOpHook implements Hook {}
