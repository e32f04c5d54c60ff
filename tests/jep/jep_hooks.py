"""Python hooks that tests/jep loads by spec from a JVM started by plain ``java`` (jep backend)."""

import json
import threading
import time

import jhooks


def say(**fields):
    print("PY " + json.dumps(fields, sort_keys=True), flush=True)


class ThreadCounter(jhooks.Hook):
    """Counts beginSession calls and the Python thread idents they came on."""

    def __init__(self):
        self.calls = 0
        self.threads = set()
        self.lock = threading.Lock()

    def beginSession(self):
        with self.lock:
            self.calls += 1
            self.threads.add(threading.get_ident())

    def afterSessionRun(self, runContext, runValues):
        with self.lock:
            self.afterCalls = getattr(self, "afterCalls", 0) + 1

    def end(self, session):
        say(calls=self.calls, threads=len(self.threads), afterCalls=getattr(self, "afterCalls", 0))


class SaveCounter(jhooks.CheckpointSaverListener):
    """Records the global steps of afterSave and the threads they came on; asks to stop at step 30."""

    def __init__(self):
        self.steps = []
        self.threads = set()

    def afterSave(self, session, globalStep):
        self.steps.append(globalStep)
        self.threads.add(threading.get_ident())
        return globalStep >= 30

    def end(self, session, globalStep):
        say(saves=sorted(self.steps), saveThreads=len(self.threads), endStep=globalStep)


class Nested(jhooks.Hook):
    """beginSession calls Java, which calls a Python listener on another Java thread and waits for
    it: Python must not hold the GIL while it waits in Java (else this deadlocks)."""

    def beginSession(self):
        import jep

        from jhooks.bridge import as_java_listener

        listener = SaveCounter()
        trigger = jep.findClass("org.jhooks.testing.Trigger")
        stop = trigger.afterSaveOnThread(as_java_listener(listener), None, 40)
        say(nestedStop=bool(stop), nestedSaves=listener.steps)


class BadValue(Exception):
    """A type without a standard Java counterpart: Java gets the PythonException carrier itself."""


class Failing(jhooks.Hook):
    """beginSession: a BadValue caused by a LookupError; end: a jhooks.HookError; onError: re-raises
    the Java error it gets; beforeSessionRun: returns something that is not SessionRunArgs."""

    def beginSession(self):
        try:
            raise LookupError("missing")
        except LookupError as e:
            raise BadValue("bad value 42") from e

    def end(self, session):
        raise jhooks.HookError("jep_hooks.Failing", "end", "refused at the end")

    def onError(self, session, error):
        say(onError=str(error), kind=type(error).__name__)
        raise error

    def beforeSessionRun(self, runContext):
        return "not run args"


class Values(jhooks.Hook):
    """Fetches every result Java offers; reports dtypes, shapes, values and whether ``big`` is a
    read-only view of Java's memory (it checks again in end(), after Java wrote into it)."""

    def beforeSessionRun(self, runContext):
        return jhooks.SessionRunArgs({k: k for k in ("f32", "f64", "i32", "i64", "b", "s", "big")})

    def afterSessionRun(self, runContext, runValues):
        r = runValues.results
        self.big = r["big"]
        say(
            dtypes={k: str(v.dtype) for k, v in r.items()},
            shapes={k: list(v.shape) for k, v in r.items()},
            values={
                k: (v.tolist() if k != "s" else [x.decode() for x in v.tolist()]) for k, v in r.items() if k != "big"
            },
            bigView=bool(not r["big"].flags.owndata and not r["big"].flags.writeable),
            bigFirst=float(r["big"].flat[0]),
        )

    def end(self, session):
        say(bigFirstLater=float(self.big.flat[0]))


def every_dtype():
    """One small array of each dtype that crosses (jhooks.bridge.convert.arrays.DTYPES), and strings."""
    import ml_dtypes
    import numpy as np

    from jhooks.bridge.convert.arrays import DTYPES

    values = [[1.5, -2.0, 65504.0], [0.0, 1e-3, -7.25]]
    out = {}
    for name in DTYPES:
        if name == "bool":
            out[name] = np.array([[True, False, True], [False, False, True]])
        elif name == "bfloat16":
            out[name] = np.array(values, dtype=ml_dtypes.bfloat16)
        elif name.startswith(("int", "uint")):
            info = np.iinfo(name)
            out[name] = np.array([[info.min, info.max, 0], [1, 2, 3]], dtype=name)
        else:
            out[name] = np.array(values, dtype=name)
    out["string"] = np.array([b"caf\xc3\xa9", b"", b"\x00\xff"], dtype=object)
    return out


class EveryDtype(jhooks.Hook):
    """Feeds one array of every dtype to Java (beforeSessionRun); afterSessionRun gets them back as
    Java's results and reports whether each came back with the same dtype, shape and bytes."""

    def beforeSessionRun(self, runContext):
        self.sent = every_dtype()
        return jhooks.SessionRunArgs(fetches={k: k for k in self.sent}, feeds=self.sent)

    def afterSessionRun(self, runContext, runValues):
        back = runValues.results
        same = {}
        for name, sent in self.sent.items():
            got = back[name]
            if name == "string":
                same[name] = got.dtype == object and got.tolist() == sent.tolist()
            else:
                same[name] = got.dtype == sent.dtype and got.shape == sent.shape and got.tobytes() == sent.tobytes()
        say(sameBack=same)


class Sleeper(jhooks.Hook):
    """beginSession never returns (a stuck callback)."""

    def beginSession(self):
        say(sleeping=True)
        time.sleep(3600)


def _import_tensorflow():
    """What a hook module that uses TensorFlow does; TensorFlow imports h5py, whose HDF5 library
    calls back into Python from its C exit handler."""
    import sys

    import tensorflow  # noqa: F401

    return "h5py" in sys.modules


class TfSleeper(jhooks.Hook):
    """beginSession imports TensorFlow, then never returns, the GIL released (Python idle)."""

    def beginSession(self):
        say(h5py=_import_tensorflow(), sleeping=True)
        time.sleep(3600)


class TfSpinner(jhooks.Hook):
    """beginSession imports TensorFlow, then never returns, running Python (Python busy: the GIL
    held but for the interpreter's switch interval)."""

    def beginSession(self):
        say(h5py=_import_tensorflow(), sleeping=True)
        deadline = time.monotonic() + 3600
        while time.monotonic() < deadline:
            pass


class TfJavaWaiter(jhooks.Hook):
    """beginSession imports TensorFlow, then never returns, inside a Java call (java.lang.Thread.sleep
    through jep) made from Python."""

    def beginSession(self):
        from java.lang import Thread  # jep's import of Java classes

        say(h5py=_import_tensorflow(), sleeping=True)
        Thread.sleep(3_600_000)
