"""Python hooks loaded by the launcher tests (imported by name in a subprocess)."""

import logging
import sys

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


def make_greeter(*args) -> Greeter:
    """A factory the launcher accepts: annotated to return a hook."""
    return Greeter("made", *args)


def side_effect(*args):
    """Not a hook, not annotated: the launcher must refuse it without calling it."""
    print(f"SIDE EFFECT {args!r}", flush=True)


class NotAHook:
    def __init__(self, *args):
        print(f"NotAHook constructed {args!r}", flush=True)


class ExitAtStep3(jhooks.Hook):
    """Calls sys.exit(7) in afterSessionRun of the third run: the launcher must exit with 7."""

    def __init__(self):
        self.runs = 0

    def afterSessionRun(self, runContext, runValues):
        self.runs += 1
        if self.runs == 3:
            print("exiting at step 3", flush=True)
            sys.exit(7)


class InfoLogger(jhooks.Hook):
    """Logs 'python hook saw step N' at INFO (logger ``launcher_hooks``) after every run."""

    def beforeSessionRun(self, runContext):
        return jhooks.SessionRunArgs("global_step:0")

    def afterSessionRun(self, runContext, runValues):
        logging.getLogger("launcher_hooks").info("python hook saw step %d", int(runValues.results))
