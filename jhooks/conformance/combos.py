"""Driver x hook-language combinations of the conformance suite.

A combination is ``<driver>-driver-<hooks>-hooks``: driver ``python`` (TensorFlow's
MonitoredSession) or ``jvm`` (org.jhooks.tf.MonitoredTrainingSession through JPype); hooks
``python``, ``java`` or ``mixed``. A hook whose scenario entry fixes its ``language`` keeps it; in
``mixed`` the other hooks alternate, starting with the language foreign to the driver. A combination
that would contradict a fixed language (``python`` hooks with a ``java`` hook) is skipped, as is a
driver the scenario's ``drivers`` leaves out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

DRIVERS = ("python", "jvm")
HOOK_LANGUAGES = ("python", "java", "mixed")


@dataclass(frozen=True)
class Combo:
    driver: str
    hooks: str

    @property
    def id(self) -> str:
        return f"{self.driver}-driver-{self.hooks}-hooks"

    def __str__(self) -> str:
        return self.id


ALL = tuple(Combo(d, h) for d in DRIVERS for h in HOOK_LANGUAGES)


def parse(combo_id: str) -> Combo:
    """``"jvm-driver-mixed-hooks"`` -> Combo('jvm', 'mixed'); ValueError for anything else."""
    for c in ALL:
        if c.id == combo_id:
            return c
    raise ValueError(f"unknown combination {combo_id!r}; known: {', '.join(c.id for c in ALL)}")


def languages(scenario: Mapping[str, Any], combo: Combo) -> tuple[list[str] | None, str | None]:
    """(the language of each hook, None) or (None, why the combination is skipped)."""
    if combo.driver not in scenario.get("drivers", DRIVERS):
        return None, f"the scenario runs on the {' and '.join(scenario['drivers'])} driver only"
    foreign = "java" if combo.driver == "python" else "python"
    native = "python" if combo.driver == "python" else "java"
    out: list[str] = []
    for i, hook in enumerate(scenario["hooks"]):
        fixed = hook.get("language", "any")
        if fixed != "any":
            if combo.hooks != "mixed" and fixed != combo.hooks:
                return None, f"hook {hook['name']} must be a {fixed.capitalize()} hook"
            out.append(fixed)
        elif combo.hooks == "mixed":
            out.append(foreign if i % 2 == 0 else native)
        else:
            out.append(combo.hooks)
    return out, None
