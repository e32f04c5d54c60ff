"""jhooks.tf imports tensorflow but not jpype."""

import subprocess
import sys


def test_import_jhooks_tf_loads_tensorflow_but_not_jpype():
    code = "import sys, jhooks.tf; print([m for m in ('tensorflow', 'jpype') if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip().splitlines()[-1] == "['tensorflow']"
