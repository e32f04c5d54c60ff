"""Python hooks loaded by the launcher tests (imported by name in a subprocess)."""

import jhooks


class Greeter(jhooks.Hook):
    def __init__(self, *args):
        self.args = args

    def beginSession(self):
        print(f"Greeter.beginSession {self.args!r}", flush=True)


class Exploding(jhooks.Hook):
    def beginSession(self):
        raise RuntimeError("exploded in beginSession")


class LossPrinter(jhooks.ModelDependentHook):
    """Prints the model's loss at every run: 'python loss <step> <loss>'."""

    def beforeSessionRun(self, runContext):
        return jhooks.SessionRunArgs({"loss": self.modelInstance.loss, "step": self.modelInstance.globalStep})

    def afterSessionRun(self, runContext, runValues):
        r = runValues.results
        print(f"python loss {int(r['step'])} {float(r['loss']):.6f} {r['loss'].dtype}", flush=True)

    def end(self, session):
        print(f"python end {session.globalStep()}", flush=True)
