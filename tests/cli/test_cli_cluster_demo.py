"""``python -m jhooks cluster-demo`` refuses a bad command line before starting any task: one line
on stderr naming the value, exit status 2. (The cluster itself: tests/distributed.)"""

from __future__ import annotations

import pytest

from jhooks.cli.main import main


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--workers", "1", "--java-workers", "2"], "javaWorkers=2"),
        (["--workers", "-1"], "workers=-1"),
        (["--steps", "0"], "got 0"),
        # the ps restart waits for a checkpoint past step 0: the final one when no save comes before
        (["--steps", "100", "--save-steps", "100"], "steps (100) must be above saveSteps (100)"),
        (["--steps", "30", "--save-steps", "100"], "raise --steps or pass --no-ps-restart"),
        (["--launch", "tf-config", "--java-chief"], "--java-chief is for --launch spec"),
    ],
)
def test_bad_numbers_are_refused_with_the_value(argv, message, capsys, tmp_path):
    assert main(["cluster-demo", "--out", str(tmp_path / "out"), *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("jhooks cluster-demo: ") and message in err
    assert not (tmp_path / "out").exists()  # nothing started, nothing written


def test_a_non_empty_out_dir_is_refused_and_left_alone(capsys, tmp_path):
    (tmp_path / "mine.txt").write_text("keep")
    assert main(["cluster-demo", "--out", str(tmp_path)]) == 2
    assert "is not empty" in capsys.readouterr().err
    assert (tmp_path / "mine.txt").read_text() == "keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.txt"]
