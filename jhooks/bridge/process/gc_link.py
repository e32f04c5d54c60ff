"""Keeps JPype's garbage-collector link off the training path.

JPype runs a full Python ``gc.collect()`` after every JVM collection, holding the GIL. With
TensorFlow imported that is a scan of about a million objects (0.3 s to over 1 s measured here), and
a Java-driven step that calls a Python hook waits for it; Java hooks in a Python session run
concurrently with it but a Python driver waits too. So when the first cross-language hook is made,
jhooks collects once and then moves every object alive into ``gc``'s permanent generation
(``gc.freeze()``, what CPython recommends for long-lived start-up objects): later collections only
scan objects made after that (about 0.2 ms). It is repeated once if TensorFlow was imported only
after the first freeze.

The cost: cyclic garbage made of objects that were alive at a freeze is not reclaimed until
``gc.unfreeze()``. Set ``JHOOKS_GC_FREEZE=0`` to keep the default behaviour. See docs/bridge.md,
"Crossing costs".
"""

from __future__ import annotations

import gc
import os
import sys

from jhooks.bridge.process.state import PROCESS

_state = PROCESS.gc


def enabled() -> bool:
    """Whether jhooks freezes the Python heap (``JHOOKS_GC_FREEZE`` is not ``0``)."""
    return os.environ.get("JHOOKS_GC_FREEZE", "1") != "0"


def freeze_startup_objects() -> bool:
    """Collects and freezes the objects alive now, the first time (and once more after TensorFlow
    is imported); returns whether it froze this time. Cheap after that: a flag check."""
    with_tensorflow = "tensorflow" in sys.modules
    frozen = _state.frozen_with_tensorflow
    if frozen is True or frozen == with_tensorflow or not enabled():
        return False
    with _state.lock:
        frozen = _state.frozen_with_tensorflow
        if frozen is True or frozen == with_tensorflow:
            return False
        gc.collect()
        gc.freeze()
        _state.frozen_with_tensorflow = with_tensorflow
        return True
