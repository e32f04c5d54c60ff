"""No file tracked by git keeps a merge-conflict marker: a half-resolved merge must not land."""

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MARKER = re.compile(r"^(<{7}|>{7}|={7})( |$)", re.MULTILINE)


def test_no_tracked_file_has_conflict_markers():
    files = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout.split()
    offenders = []
    for name in files:
        path = REPO / name
        if not path.is_file() or path.suffix in (".png", ".jar", ".so", ".whl", ".gz"):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if MARKER.search(text):
            offenders.append(name)
    assert offenders == []
