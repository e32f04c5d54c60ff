"""Values crossing the bridge, above the backend: numpy arrays and NdArrays (:mod:`.arrays`), fetches,
feeds, results, run args and plain values (:mod:`.values`), exceptions both ways (:mod:`.exceptions`)
and jhooks' error twins (:mod:`.error_twins`). Conversion only: no process state (docs/bridge.md)."""
