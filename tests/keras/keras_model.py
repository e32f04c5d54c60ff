"""A small dense Keras model and a recording hook shared by the Keras tests."""

import numpy as np

import jhooks


def dense_model(seed=0):
    import keras

    keras.utils.set_random_seed(seed)
    model = keras.Sequential(
        [keras.Input((4,)), keras.layers.Dense(8, name="hidden"), keras.layers.Dense(1, name="out")], name="net"
    )
    model.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse", metrics=["mae"])
    return model


def data(batches, batch_size=4, nan_from=None):
    """``batches`` batches of regression data; rows of batch ``nan_from`` on are NaN."""
    rng = np.random.default_rng(1)
    x = rng.normal(size=(batches * batch_size, 4)).astype(np.float32)
    y = x.sum(axis=1, keepdims=True)
    if nan_from is not None:
        x[nan_from * batch_size :] = np.nan
    return x, y


class Recorder(jhooks.Hook):
    """Records every callback, and what it fetched, into ``log``."""

    def __init__(self, log, fetches=None, name="rec"):
        self.log, self.fetches, self.name = log, fetches, name
        self.results = []

    def beginSession(self):
        self.log.append(f"{self.name}.beginSession")

    def afterCreateSession(self, session, coord):
        self.log.append(f"{self.name}.afterCreateSession step={session.globalStep()}")

    def beforeSessionRun(self, runContext):
        self.log.append(f"{self.name}.beforeSessionRun")
        return None if self.fetches is None else jhooks.SessionRunArgs(self.fetches)

    def afterSessionRun(self, runContext, runValues):
        self.log.append(f"{self.name}.afterSessionRun")
        self.results.append(runValues.results)

    def end(self, session):
        self.log.append(f"{self.name}.end step={session.globalStep()}")

    def onError(self, session, error):
        self.log.append(f"{self.name}.onError {type(error).__name__}")
