"""The driver interface (jhooks.conformance.driver): a second driver of jhooks' own, TensorFlow's
SingularMonitoredSession (jhooks.conformance.singular_driver), registered only through the
interface and checked against every scenario under its three hook-language combinations; a driver
that breaks the contract fails; the registry's rules; ``python -m jhooks conformance --driver``."""

import pytest

from jhooks.cli.main import main
from jhooks.conformance import combos, driver, runner, scenarios
from jhooks.conformance.python_driver import PythonDriver
from jhooks.conformance.singular_driver import SingularSessionDriver

RECOVERY = {n for n in scenarios.names() if runner.needs_recovery(scenarios.load(n))}


@pytest.fixture
def singular():
    registered = driver.register(SingularSessionDriver())
    yield registered
    driver.unregister(registered.name)


@pytest.mark.parametrize(
    "name,combo",
    [pytest.param(n, c, id=runner.case_id(n, c.id)) for n in scenarios.names() for c in combos.for_driver("singular")],
)
def test_the_singular_session_driver_conforms(singular, name, combo):
    assert len(RECOVERY) >= 9
    result = runner.run_case(name, combo, {})
    if name in RECOVERY:
        assert (result.outcome, result.detail) == (
            "skipped",
            "the singular driver does not recover from AbortedError",
        )
        return
    if result.outcome == "skipped":
        assert result.detail.startswith("hook "), result.detail  # a hook whose language is fixed
        return
    assert result.outcome == "passed", result.detail


class ReversedHooksDriver(PythonDriver):
    """Breaks the contract: runs the hooks in reverse registration order."""

    name = "reversed"

    def run(self, setup, caller):
        flipped = driver.DriverSetup(
            setup.graph,
            setup.model,
            setup.isChief,
            [],
            list(reversed(setup.allHooks)),
            setup.checkpointDir,
            setup.sessionCreator,
        )
        return super().run(flipped, caller)


def test_a_driver_that_breaks_the_hook_order_fails_with_a_trace_diff():
    registered = driver.register(ReversedHooksDriver())
    try:
        result = runner.run_case("normal_end_hook_order", combos.parse("reversed-driver-python-hooks"), {})
    finally:
        driver.unregister(registered.name)
    assert result.outcome == "failed"
    assert result.mismatches[0].startswith("trace: first difference at [0]: expected h1.begin, got h3.begin")


def test_the_registry_refuses_bad_and_taken_names(singular):
    class Unnamed(PythonDriver):
        name = "Has-Caps"

    with pytest.raises(ValueError, match=r"must match \[a-z0-9\]\+, got 'Has-Caps'"):
        driver.register(Unnamed())
    with pytest.raises(ValueError, match="'singular' is already registered"):
        driver.register(SingularSessionDriver())
    with pytest.raises(ValueError, match="'python' is already registered"):
        driver.register(PythonDriver())
    with pytest.raises(TypeError, match="expected a jhooks.conformance.driver.ConformanceDriver, got str"):
        driver.register("singular")
    assert combos.parse("singular-driver-mixed-hooks") == combos.Combo("singular", "mixed")
    driver.unregister("singular")
    with pytest.raises(ValueError, match="unknown combination 'singular-driver-mixed-hooks'"):
        combos.parse("singular-driver-mixed-hooks")


def test_the_cli_checks_a_driver_given_by_module_and_class(capsys):
    code = main(
        [
            "conformance",
            "--driver",
            "jhooks.conformance.singular_driver:SingularSessionDriver",
            "--scenario",
            "normal_end_hook_order",
            "--scenario",
            "recovery_fault_mid_run",
        ]
    )
    lines = capsys.readouterr().out.splitlines()
    assert code == 0
    assert lines[0].split() == [
        "scenario",
        "singular-driver-python-hooks",
        "singular-driver-java-hooks",
        "singular-driver-mixed-hooks",
    ]
    assert lines[1].split() == ["normal_end_hook_order", "passed", "passed", "passed"]
    assert lines[2].split() == ["recovery_fault_mid_run", "skipped", "skipped", "skipped"]
    assert "singular" not in driver.registered(), "registered for the run only"
