"""Costs of crossing the bridge: JVM start-up, array copies, callbacks. Prints one line each.

PYTHONPATH=$PWD python benchmarks/bridge_crossing.py
"""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np


def startup(order: str) -> float:
    code = ("import tensorflow\n" if order == "tensorflow-first" else "") + (
        "import time; t = time.perf_counter()\n"
        "from jhooks.bridge.process import jvm; jvm.start()\n"
        "print(time.perf_counter() - t)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return float(out.strip().splitlines()[-1])


def best(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    for order in ("jvm-first", "tensorflow-first"):
        print(f"jvm.start() to TensorFlow natives loaded, {order}: {startup(order):.2f} s")

    import jpype

    import jhooks
    from jhooks.bridge import JavaHook, as_java_hook
    from jhooks.bridge.convert.arrays import to_java, to_numpy
    from jhooks.bridge.process import jvm

    jvm.start()
    for n in (1, 1_000, 10_000_000):
        a = np.arange(n, dtype=np.float32)
        nd = to_java(a)
        t_in = best(lambda: to_java(a))
        t_out = best(lambda: to_numpy(nd))
        mb = a.nbytes / 1e6
        print(
            f"float32 x {n:>10,}: numpy->NdArray {t_in * 1e6:9.1f} us ({mb / t_in / 1e3:.2f} GB/s), "
            f"NdArray->numpy {t_out * 1e6:9.1f} us ({mb / t_out / 1e3:.2f} GB/s)"
        )

    class Noop(jhooks.Hook):
        def afterSessionRun(self, runContext, runValues):
            pass

    calls = 20_000
    Trigger = jpype.JClass("org.jhooks.testing.Trigger")
    hook = as_java_hook(Noop())
    t = best(lambda: Trigger.afterSessionRunConcurrently(hook, 1, calls, 600_000), repeat=3)
    print(f"Java -> Python hook callback (afterSessionRun, no values): {t / calls * 1e6:.1f} us per call")
    t = best(lambda: Trigger.afterSessionRunConcurrently(hook, 4, calls // 4, 600_000), repeat=3)
    print(f"  same from 4 Java threads: {t / calls * 1e6:.1f} us per call (GIL-serialised)")

    # a Java hook that calls back into the Python no-op: both crossings
    java_hook = JavaHook(as_java_hook(Noop()))
    ctx = jhooks.SessionRunContext(jhooks.SessionRunArgs(), None)
    vals = jhooks.SessionRunValues()
    t = best(lambda: [java_hook.afterSessionRun(ctx, vals) for _ in range(2_000)], repeat=3)
    print(f"Python -> Java -> Python round trip (afterSessionRun, no values): {t / 2_000 * 1e6:.1f} us per call")


if __name__ == "__main__":
    main()
