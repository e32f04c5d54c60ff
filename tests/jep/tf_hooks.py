"""A Python hook module that imports TensorFlow (and with it h5py) at import, for tests/jep."""

import sys

import tensorflow  # noqa: F401

import jhooks


class RunCounter(jhooks.Hook):
    """Fetches the loss every run; prints ``PY runs <n>`` every 500 runs, ``h5py`` once and
    ``PY end runs <n>`` in end()."""

    def __init__(self):
        self.runs = 0
        print(f"PY h5py {'h5py' in sys.modules}", flush=True)

    def beforeSessionRun(self, runContext):
        return jhooks.SessionRunArgs("loss:0")

    def afterSessionRun(self, runContext, runValues):
        self.runs += 1
        if self.runs % 500 == 0:
            print(f"PY runs {self.runs}", flush=True)

    def end(self, session):
        print(f"PY end runs {self.runs}", flush=True)
