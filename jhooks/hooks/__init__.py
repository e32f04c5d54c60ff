"""Standard hooks (twins of org.jhooks.hooks); see docs/standard-hooks.md.

They talk only to the language-neutral Session view (run, save, globalStepTensorName, and the
optional saveableVariables), so they run under the Python (TF MonitoredSession) and the JVM driver.
Importing this package does not import TensorFlow.
"""

from jhooks.checkpoint.errors import CheckpointSaveError
from jhooks.checkpoint.snapshot_writer import SnapshotWriter
from jhooks.checkpoint.state import CheckpointState
from jhooks.hooks.async_checkpoint_saver import AsyncCheckpointSaverHook
from jhooks.hooks.best_checkpoints import BestCheckpointsListener
from jhooks.hooks.checkpoint_saver import CheckpointSaverHook
from jhooks.hooks.errors import NanLossDuringTrainingError
from jhooks.hooks.feed_fn import FeedFnHook
from jhooks.hooks.final_ops import FinalOpsHook
from jhooks.hooks.global_step_waiter import GlobalStepWaiterHook
from jhooks.hooks.logging_tensor import LoggingTensorHook
from jhooks.hooks.nan_tensor import NanTensorHook
from jhooks.hooks.profiler import ProfilerHook
from jhooks.hooks.progress_bar import ProgressBarHook
from jhooks.hooks.saver import Saver
from jhooks.hooks.scaffold import Scaffold
from jhooks.hooks.step_counter import StepCounterHook
from jhooks.hooks.stop_at_step import StopAtStepHook
from jhooks.hooks.stop_if_no_improvement import StopIfNoImprovementHook
from jhooks.hooks.summary_saver import SummarySaverHook
from jhooks.hooks.timer import SecondOrStepTimer

__all__ = [
    "AsyncCheckpointSaverHook",
    "BestCheckpointsListener",
    "CheckpointSaveError",
    "CheckpointSaverHook",
    "CheckpointState",
    "FeedFnHook",
    "FinalOpsHook",
    "GlobalStepWaiterHook",
    "LoggingTensorHook",
    "NanLossDuringTrainingError",
    "NanTensorHook",
    "ProfilerHook",
    "ProgressBarHook",
    "Saver",
    "Scaffold",
    "SecondOrStepTimer",
    "SnapshotWriter",
    "StepCounterHook",
    "StopAtStepHook",
    "StopIfNoImprovementHook",
    "SummarySaverHook",
]
