"""Driver x hook-language combinations of the conformance suite.

A combination is ``<driver>-driver-<hooks>-hooks``: driver ``python`` (TensorFlow's
MonitoredSession) or ``jvm`` (org.jhooks.tf.MonitoredTrainingSession through JPype); hooks
``python``, ``java`` or ``mixed``. A hook whose scenario entry fixes its ``language`` keeps it; in
``mixed`` the other hooks alternate, starting with the language foreign to the driver. A combination
that would contradict a fixed language (``python`` hooks with a ``java`` hook) is skipped, as is a
driver the scenario's ``drivers`` leaves out. A driver registered through
jhooks.conformance.driver (a Python-side driver, named ``<name>``) has the combinations
``<name>-driver-{python,java,mixed}-hooks`` (:func:`for_driver`), and counts as the ``python``
driver for a scenario's ``drivers``.
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


def for_driver(driver: str) -> tuple[Combo, ...]:
    """The three combinations of one driver (built-in or registered), python/java/mixed hooks."""
    return tuple(Combo(driver, h) for h in HOOK_LANGUAGES)


def known() -> tuple[Combo, ...]:
    """The built-in combinations, then those of every registered driver."""
    from jhooks.conformance import driver

    return ALL + tuple(c for name in driver.registered() for c in for_driver(name))


def parse(combo_id: str) -> Combo:
    """``"jvm-driver-mixed-hooks"`` -> Combo('jvm', 'mixed'); ValueError for anything else (a
    registered driver's combinations are known too)."""
    every = known()
    for c in every:
        if c.id == combo_id:
            return c
    raise ValueError(f"unknown combination {combo_id!r}; known: {', '.join(c.id for c in every)}")


def driver_language(driver: str) -> str:
    """The language whose hooks are native to ``driver``: ``java`` for the JVM driver, else ``python``."""
    return "java" if driver == "jvm" else "python"


def languages(scenario: Mapping[str, Any], combo: Combo) -> tuple[list[str] | None, str | None]:
    """(the language of each hook, None) or (None, why the combination is skipped)."""
    as_built_in = combo.driver if combo.driver in DRIVERS else "python"
    if as_built_in not in scenario.get("drivers", DRIVERS):
        return None, f"the scenario runs on the {' and '.join(scenario['drivers'])} driver only"
    native = driver_language(combo.driver)
    foreign = "java" if native == "python" else "python"
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
