"""jhooks: TensorFlow training hooks that behave the same in Python and on the JVM.

The top level is the hook API only: importing it loads neither tensorflow nor jpype. The
lifecycle and error rules are in docs/contract.md.

The distributions jhooks-conformance and jhooks-demo add the sub-packages ``jhooks.conformance``,
``jhooks.testing`` and ``jhooks.demo`` (docs/build.md, "Artifacts"). Installed next to the library
they share its directory; installed in another ``sys.path`` entry (``pip install --target``, a user
site), ``extend_path`` finds them there.
"""

import pkgutil

from jhooks.api.checkpoint_guard import CheckpointGuard
from jhooks.api.errors import CallerFeedConflictError, HookError, HookFeedConflictError, SessionRunArgsError
from jhooks.api.hook import Hook
from jhooks.api.listener import CheckpointSaverListener, SaveDecision
from jhooks.api.model import ModelDependentHook, ModelInstance
from jhooks.api.run_args import RunOptions, SessionRunArgs, SessionRunContext, SessionRunValues
from jhooks.api.session import Coordinator, Session
from jhooks.api.validation import HookValidationError, SnakeCaseHookWarning, validate_hook
from jhooks.api.version import VERSION

__path__ = pkgutil.extend_path(__path__, __name__)
__version__ = VERSION

__all__ = [
    "CallerFeedConflictError",
    "CheckpointGuard",
    "CheckpointSaverListener",
    "Coordinator",
    "Hook",
    "HookError",
    "HookFeedConflictError",
    "HookValidationError",
    "ModelDependentHook",
    "ModelInstance",
    "RunOptions",
    "SaveDecision",
    "Session",
    "SessionRunArgs",
    "SessionRunArgsError",
    "SessionRunContext",
    "SessionRunValues",
    "SnakeCaseHookWarning",
    "VERSION",
    "validate_hook",
]
