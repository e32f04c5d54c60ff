"""Saver: WHAT the checkpoint saver hooks write (twin of org.jhooks.hooks.Saver).

Not TensorFlow's ``Saver``: it names the variables and how many checkpoints to keep; the hooks
do the writing (``session.save(prefix)`` or the snapshot writer).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

_NO_LIST = "this session view cannot list its variables; pass variables to Saver"


class Saver:
    """Args:
        variables: None = every variable ``session.saveableVariables()`` lists (what
            ``session.save`` writes); a list of variable names (the tensor ``name:0`` is read);
            or ``{checkpoint key: tensor name reading the value}``.
        maxToKeep: newest checkpoints kept (older ones' files are deleted and the state file
            lists only the kept ones); 0 or None keeps all.

    Raises ValueError for ``maxToKeep < 0`` or variables of another type.
    """

    DEFAULT_MAX_TO_KEEP = 5

    def __init__(
        self, variables: None | Sequence[str] | Mapping[str, str] = None, maxToKeep: int | None = DEFAULT_MAX_TO_KEEP
    ) -> None:
        if maxToKeep is not None and maxToKeep < 0:
            raise ValueError(f"maxToKeep must be >= 0, got {maxToKeep}")
        if variables is None or isinstance(variables, Mapping):
            self._variables = None if variables is None else dict(variables)
        elif isinstance(variables, (list, tuple)) and all(isinstance(v, str) for v in variables):
            self._variables = {name: f"{name}:0" for name in variables}
        else:
            raise ValueError(
                f"Saver: variables must be None, a list of variable names or a map name -> tensor "
                f"name, got {variables!r}"
            )
        self._maxToKeep = maxToKeep

    @classmethod
    def defaults(cls) -> Saver:
        return cls()

    def maxToKeep(self) -> int | None:
        return self._maxToKeep

    def variables(self) -> dict[str, str] | None:
        """The explicit variables (``{checkpoint key: tensor name}``), None for all of the session's."""
        return None if self._variables is None else dict(self._variables)

    def variablesIn(self, session: Any) -> dict[str, str]:
        """``{checkpoint key: tensor name}`` to snapshot from ``session``.

        Raises NotImplementedError when no variables were given and the view has no
        ``saveableVariables()``.
        """
        if self._variables is not None:
            return dict(self._variables)
        listing = getattr(session, "saveableVariables", None)
        if listing is None:
            raise NotImplementedError(_NO_LIST)
        return dict(listing())

    def __repr__(self) -> str:
        return f"Saver(variables={self._variables!r}, maxToKeep={self._maxToKeep!r})"
