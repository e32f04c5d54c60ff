"""jhooks hooks, Python and Java alike, as Keras callbacks in TensorFlow 2's eager ``model.fit``.

Importing this package imports tensorflow and keras (Keras 3); ``import jhooks`` does not. The
mapping and every deliberate difference from the monitored-session drivers: docs/keras.md.
"""

from jhooks.keras.callback import HookCallback, to_keras_callbacks
from jhooks.keras.coordinator import KerasCoordinator
from jhooks.keras.session_view import GLOBAL_STEP, KerasSessionView

__all__ = ["GLOBAL_STEP", "HookCallback", "KerasCoordinator", "KerasSessionView", "to_keras_callbacks"]
