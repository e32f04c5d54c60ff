"""ProgressBarHook under TF's MonitoredSession (tqdm into a StringIO)."""

from __future__ import annotations

import io

import pytest

from jhooks.hooks import ProgressBarHook, StopAtStepHook
from hooks_support import Model, in_graph, train


def test_bar_follows_the_global_step_and_shows_tensors():
    out = io.StringIO()
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        hook = ProgressBarHook(lastStep=10, tensors={"loss": "loss:0"}, stream=out)
        result = train([StopAtStepHook(lastStep=10), hook], m, 100)
    assert result["runs"] == 10
    assert hook.position() == 10
    text = out.getvalue()
    assert "10/10" in text and "100%" in text and "loss=" in text


def test_every_n_iter_and_open_ended(tmp_path):
    out = io.StringIO()
    _, m = in_graph(Model)
    with m.gs.graph.as_default():
        hook = ProgressBarHook(everyNIter=3, tensors=["xsum:0"], stream=out)
        train([hook], m, 7)
    assert hook.position() == 7          # end() re-reads the global step
    assert "7step" in out.getvalue().replace(" ", "") or "7 step" in out.getvalue()


def test_every_n_iter_must_be_positive():
    with pytest.raises(ValueError, match=r"^invalid every_n_iter=0\.$"):
        ProgressBarHook(everyNIter=0)
