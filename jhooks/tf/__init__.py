"""The TensorFlow (tf.compat.v1) adapter: jhooks hooks inside TF's monitored sessions.

Importing this package imports tensorflow; ``import jhooks`` does not. See docs/python-driver.md.
"""

from jhooks.tf.adapter import TfHookAdapter, TfRunContext
from jhooks.tf.cluster import Cluster
from jhooks.tf.cluster_server import ClusterServer
from jhooks.tf.coordinator import TfCoordinatorView
from jhooks.tf.device_setter import ReplicaDeviceSetter
from jhooks.tf.errors import GraphNameError
from jhooks.tf.hook_batch import Batchable, BeforeResult, HookBatch
from jhooks.tf.hook_group import TfHookGroup, to_tf_hooks
from jhooks.tf.on_error import OnErrorSession
from jhooks.tf.session_view import TfSessionView
from jhooks.tf.tf_config import TfConfig
from jhooks.tf.without_hooks import run_without_hooks
from jhooks.tf.worker_session import WorkerSessionCreator

__all__ = [
    "Batchable",
    "BeforeResult",
    "Cluster",
    "ClusterServer",
    "GraphNameError",
    "HookBatch",
    "OnErrorSession",
    "ReplicaDeviceSetter",
    "TfConfig",
    "TfCoordinatorView",
    "TfHookAdapter",
    "TfHookGroup",
    "TfRunContext",
    "TfSessionView",
    "WorkerSessionCreator",
    "run_without_hooks",
    "to_tf_hooks",
]
