"""SecondOrStepTimer in both languages against TensorFlow's (the cases of TF's SecondOrStepTimerTest):
argument errors, every N steps, every N seconds on a controlled clock, elapsed steps and seconds."""

from __future__ import annotations

import time

import jpype
import pytest
import tensorflow as tf

from jhooks.hooks.timer import SecondOrStepTimer

START = 1484695987.209386  # a realistic wall-clock start (seconds)


@pytest.fixture(scope="module")
def java_timer():
    from jhooks.bridge.process import jvm as jvm_module

    jvm_module.start()
    cls = jpype.JClass("org.jhooks.hooks.SecondOrStepTimer")
    return lambda secs, steps: cls(
        None if secs is None else jpype.JDouble(secs), None if steps is None else jpype.JLong(steps)
    )


def python_timer(secs, steps):
    return SecondOrStepTimer(everySecs=secs, everySteps=steps)


def tf_timer(secs, steps):
    return tf.compat.v1.train.SecondOrStepTimer(every_secs=secs, every_steps=steps)


def trigger(timer, step):
    method = getattr(timer, "shouldTriggerForStep", None) or timer.should_trigger_for_step
    return bool(method(step))


def update(timer, step):
    method = getattr(timer, "updateLastTriggeredStep", None) or timer.update_last_triggered_step
    return method(step)


@pytest.mark.parametrize(
    ("secs", "steps", "message"),
    [
        (2.0, 10, "Can not provide both every_secs and every_steps."),
        (None, None, "Either every_secs or every_steps should be provided."),
    ],
)
def test_both_or_neither_schedule_is_tensorflows_value_error(secs, steps, message):
    with pytest.raises(ValueError, match="^" + message.replace(".", r"\.") + "$"):
        tf_timer(secs, steps)
    with pytest.raises(ValueError, match="^" + message.replace(".", r"\.") + "$"):
        python_timer(secs, steps)


def test_the_java_twin_refuses_the_same_with_tensorflows_text(java_timer):
    for secs, steps, message in [(2.0, 10, "Can not provide both"), (None, None, "Either every_secs or every_steps")]:
        with pytest.raises(jpype.JClass("java.lang.IllegalArgumentException"), match=message):
            java_timer(secs, steps)


def steps_sequence(make):
    timer = make(None, 3)
    out = [trigger(timer, 1)]
    update(timer, 1)
    out += [trigger(timer, s) for s in (1, 2, 3, 4)]
    return out


def test_every_n_steps_as_tensorflow_in_both_languages(java_timer):
    expected = [True, False, False, False, True]
    assert steps_sequence(tf_timer) == steps_sequence(python_timer) == steps_sequence(java_timer) == expected


def test_every_n_secs_as_tensorflow_on_a_controlled_clock(monkeypatch):
    now = [START]
    monkeypatch.setattr(time, "time", lambda: now[0])

    def sequence(make):
        now[0] = START
        timer = make(1.0, None)
        out = [trigger(timer, 1)]
        update(timer, 1)
        out += [trigger(timer, 1), trigger(timer, 2)]
        now[0] += 1.0
        out += [trigger(timer, 1), trigger(timer, 2)]
        return out

    assert sequence(tf_timer) == sequence(python_timer) == [True, False, False, False, True]


def test_update_last_triggered_step_returns_the_elapsed_steps_and_seconds(java_timer):
    for make in (tf_timer, python_timer, java_timer):
        timer = make(None, 1)
        first = update(timer, 1)
        assert first is None or tuple(first) == (None, None), make  # Java: null for the first trigger
        _, steps = update(timer, 5)
        assert steps == 4, make
        seconds, steps = update(timer, 7)
        assert steps == 2 and seconds >= 0, make
