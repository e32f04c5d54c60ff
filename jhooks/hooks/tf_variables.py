"""What a tf.compat.v1 graph checkpoints: checkpoint key -> tensor reading the value (imports TF).

For TF session views that implement ``saveableVariables()`` (see docs/standard-hooks.md, "Session
view addition"); the hooks themselves never import this module.
"""

from __future__ import annotations

from typing import Dict, Optional


def saveable_variables(graph, var_list: Optional[list] = None) -> Dict[str, str]:
    """``{checkpoint key: name of an existing tensor that reads the variable}``, sorted by key.

    Keys are the names ``tf.compat.v1.train.Saver()`` uses (the variable's op name); the tensor is
    the read op created with the variable (resource variables) or the ref tensor (ref variables),
    so no op is added and a finalized graph works. ``var_list`` defaults to the graph's global
    variables plus its saveable-objects collection (what ``Saver()`` saves).

    Raises ValueError for a partitioned variable or a saveable object that is not a variable.
    """
    import tensorflow as tf

    with graph.as_default():
        if var_list is None:
            var_list = (tf.compat.v1.global_variables()
                        + tf.compat.v1.get_collection(tf.compat.v1.GraphKeys.SAVEABLE_OBJECTS))
    out: Dict[str, str] = {}
    for var in var_list:
        if not hasattr(var, "op") or getattr(var, "_save_slice_info", None) is not None:
            raise ValueError(f"saveable_variables: {var!r} is not a plain (unpartitioned) variable")
        read = getattr(var, "_graph_element", None)
        if read is None:
            read = var._variable if hasattr(var, "_variable") else var  # ref variable: the ref tensor
        out[var.op.name] = read.name
    return dict(sorted(out.items()))
