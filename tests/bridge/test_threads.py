"""Java threads calling Python hooks: exact counts, no deadlock, no lost exception, bounded exit."""

import os
import subprocess
import sys
import textwrap
import threading

import jpype
import pytest

import jhooks
from jhooks.bridge import as_java_hook

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def Trigger():
    return jpype.JClass("org.jhooks.testing.Trigger")


class Counting(jhooks.Hook):
    def __init__(self):
        self.count = 0
        self.threads = set()
        self.lock = threading.Lock()

    def afterSessionRun(self, runContext, runValues):
        with self.lock:
            self.count += 1
            self.threads.add(threading.get_ident())


@pytest.mark.timeout(120)
def test_many_java_threads_calling_one_python_hook_give_the_exact_count():
    hook = Counting()
    # The main thread waits inside Java (Trigger joins its threads) while they call into Python.
    ok = Trigger().afterSessionRunConcurrently(as_java_hook(hook), 8, 250, 100_000)
    assert ok == 8 * 250
    assert hook.count == 8 * 250
    assert len(hook.threads) == 8 and threading.get_ident() not in hook.threads


@pytest.mark.timeout(120)
def test_every_failure_on_every_java_thread_is_reported():
    class Failing(jhooks.Hook):
        def afterSessionRun(self, runContext, runValues):
            raise ValueError(f"failed on {threading.current_thread().name}")

    # a ValueError reaches Java as IllegalArgumentException caused by its carrier (standard_errors)
    with pytest.raises(jpype.JClass("java.lang.IllegalArgumentException")) as e:
        Trigger().afterSessionRunConcurrently(as_java_hook(Failing()), 4, 1, 100_000)
    failures = [e.value] + list(e.value.getSuppressed())
    assert len(failures) == 4
    assert all(str(f.getCause().pythonType()) == "builtins.ValueError" for f in failures)


def run_python(code, env=None, timeout=120):
    full_env = dict(os.environ, PYTHONPATH=REPO, **(env or {}))
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=timeout, env=full_env
    )


def test_a_slow_callback_in_flight_does_not_hold_up_exit():
    # A non-daemon Java thread sits in a Python callback that sleeps far longer than the timeout;
    # without the exit guard JPype would wait for it when it destroys the JVM.
    done = run_python(
        """
        import threading, time, jpype, jhooks
        from jhooks.bridge import as_java_hook
        from jhooks.bridge.process import jvm
        jvm.start()
        started = threading.Event()
        class Slow(jhooks.Hook):
            def afterSessionRun(self, runContext, runValues):
                started.set()
                time.sleep(600)
        jpype.JClass('org.jhooks.testing.Trigger').afterSessionRunInBackground(as_java_hook(Slow()), False)
        started.wait()
        print('main done', flush=True)
    """,
        env={"JHOOKS_EXIT_GRACE_SECS": "1"},
        timeout=180,
    )
    report = f"rc={done.returncode}\nstdout:\n{done.stdout[-2000:]}\nstderr:\n{done.stderr[-3000:]}"
    assert done.returncode == 0, report
    assert "main done" in done.stdout, report
    assert "Python callbacks still running on Java threads" in done.stderr, report
    assert "_HookProxy.afterSessionRun" in done.stderr, report


def test_the_bounded_exit_keeps_the_status_the_program_asked_for():
    done = run_python(
        """
        import sys, threading, time, jpype, jhooks
        from jhooks.bridge import as_java_hook
        from jhooks.bridge.process import jvm
        jvm.start()
        started = threading.Event()
        class Slow(jhooks.Hook):
            def afterSessionRun(self, runContext, runValues):
                started.set()
                time.sleep(600)
        jpype.JClass('org.jhooks.testing.Trigger').afterSessionRunInBackground(as_java_hook(Slow()), False)
        started.wait()
        print('main done', flush=True)
        sys.exit(3)
    """,
        env={"JHOOKS_EXIT_GRACE_SECS": "1"},
        timeout=180,
    )
    report = f"rc={done.returncode}\nstdout:\n{done.stdout[-2000:]}\nstderr:\n{done.stderr[-3000:]}"
    assert done.returncode == 3, report
    assert "main done" in done.stdout, report
    assert "Python callbacks still running on Java threads" in done.stderr, report


def test_a_python_hook_may_import_tensorflow_on_a_java_thread():
    done = run_python(
        """
        import os, sys, jpype, jhooks
        from jhooks.bridge import as_java_hook
        from jhooks.bridge.process import jvm
        from jhooks.bridge.process.calls import call_java
        jvm.start()
        assert 'tensorflow' not in sys.modules
        class UsesTf(jhooks.Hook):
            def afterSessionRun(self, runContext, runValues):
                import tensorflow as tf
                print('TF', float(tf.reduce_sum(tf.constant([1.5, 2.5]))), flush=True)
        trigger = jpype.JClass('org.jhooks.testing.Trigger')
        call_java(trigger.afterSessionRunConcurrently, as_java_hook(UsesTf()), 1, 1, 120000)
        maps = {l.split()[-1] for l in open('/proc/self/maps') if 'libtensorflow_cc.so.2' in l}
        print('RUNTIMES', len({os.stat(p).st_ino for p in maps}))
    """,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "TF 4.0" in done.stdout and "RUNTIMES 1" in done.stdout
