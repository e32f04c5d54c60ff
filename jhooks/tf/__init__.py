"""The TensorFlow (tf.compat.v1) adapter: jhooks hooks inside TF's monitored sessions.

Importing this package imports tensorflow; ``import jhooks`` does not. See docs/python-driver.md.
"""

from jhooks.tf.adapter import TfHookAdapter, TfRunContext, to_tf_hooks
from jhooks.tf.coordinator import TfCoordinatorView
from jhooks.tf.errors import GraphNameError
from jhooks.tf.session_view import TfSessionView

__all__ = ["GraphNameError", "TfCoordinatorView", "TfHookAdapter", "TfRunContext", "TfSessionView", "to_tf_hooks"]
