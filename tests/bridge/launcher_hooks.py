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
