"""Python hooks for the example JVM app (``TrainWithHooks ... loss_hooks:LossLogger``): the JVM
started by plain ``java`` or Gradle ``run`` loads them by spec with
``org.jhooks.python.PythonHooks.load`` (jhooks' jep backend, docs/bridge.md, "Backends")."""

import jhooks


class LossLogger(jhooks.Hook):
    """Fetches the loss and the global step at every run; prints ``python: step=<n> loss=<float>``
    every ``every`` steps and ``python: runs=<n> last_loss=<float>`` at the end."""

    def __init__(self, every: int = 50) -> None:
        self.every = int(every)
        self.runs = 0
        self.loss = float("nan")

    def beforeSessionRun(self, runContext):
        return jhooks.SessionRunArgs({"loss": "loss:0", "step": "global_step:0"})

    def afterSessionRun(self, runContext, runValues):
        self.runs += 1
        self.loss = float(runValues.results["loss"])
        step = int(runValues.results["step"])
        if step % self.every == 0:
            print(f"python: step={step} loss={self.loss:.6f}", flush=True)

    def end(self, session):
        print(f"python: runs={self.runs} last_loss={self.loss:.6f}", flush=True)
