"""``python -m jhooks demo`` end to end in a fresh process (real JVM, real TensorFlow on both
sides, real checkpoints), with small step counts; checks the ``--json`` summary."""

import json
import os
import re
import subprocess
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = REPO + os.pathsep + env.get("PYTHONPATH", "")
    env.setdefault("JHOOKS_JAVACPP_CACHE", os.path.join(REPO, "build", "javacpp-cache"))
    return env


def tensorboard_scalars(logdir):
    """{tag: [(step, value), ...]} of the event files in ``logdir`` (TensorBoard's own reader)."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(logdir), size_guidance={"scalars": 0})
    events.Reload()
    return {tag: [(e.step, e.value) for e in events.Scalars(tag)] for tag in events.Tags()["scalars"]}


@pytest.mark.timeout(300)
def test_demo_trains_on_both_sides_and_restores_across(tmp_path):
    out, summary = tmp_path / "out", tmp_path / "summary.json"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "jhooks",
            "demo",
            "--steps-jvm",
            "60",
            "--steps-python",
            "40",
            "--save-steps",
            "20",
            "--out",
            str(out),
            "--json",
            str(summary),
            "--no-progress",
        ],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=280,
    )
    assert done.returncode == 0, done.stdout + done.stderr[-4000:]
    report = json.loads(summary.read_text())

    assert set(report) == {"jvm", "python", "accuracy", "baseline_accuracy", "checkpoints", "cross_restore_ok"}
    assert (report["jvm"]["steps"], report["python"]["steps"]) == (60, 40)
    assert report["python"]["final_loss"] < report["jvm"]["final_loss"] < 0.693  # ln 2: the untrained loss
    assert report["accuracy"] > report["baseline_accuracy"] + 0.2
    assert report["cross_restore_ok"] is True
    by_writer = {w: [c["step"] for c in report["checkpoints"] if c["writer"] == w] for w in ("python", "java")}
    assert by_writer["python"] == [0, 20, 40, 60]
    # The Java saver may or may not re-save the step it restored (60); it saves 80 and 100.
    assert by_writer["java"] in ([60, 80, 100], [80, 100])
    assert len(report["checkpoints"]) == len(by_writer["python"]) + len(by_writer["java"])
    # TensorBoard: loss and step rate of both parts, at least one point in each tenth of each part
    for part, first, steps in (("jvm", 0, 60), ("python", 60, 40)):
        scalars = tensorboard_scalars(out / "tensorboard" / part)
        assert set(scalars) == {"loss", "global_step/sec"}, (part, scalars)
        for tag, points in scalars.items():
            for tenth in range(10):
                low, high = first + tenth * steps / 10, first + (tenth + 1) * steps / 10
                assert any(low < step <= high for step, _ in points), (part, tag, tenth, points)
            assert all(value > 0 for _, value in points), (part, tag, points)
        losses = [value for _, value in scalars["loss"]]
        assert losses[-1] < losses[0], (part, losses)
    assert "cross_restore_ok: True" in done.stdout
    assert (
        "jhooks demo: logistic regression on Breast Cancer Wisconsin (Diagnostic), 456 train / 113 held-out rows"
        in done.stdout
    )


def test_demo_refuses_a_foreign_nonempty_output_dir(tmp_path):
    (tmp_path / "precious.txt").write_text("keep me")
    done = subprocess.run(
        [sys.executable, "-m", "jhooks", "demo", "--out", str(tmp_path), "--no-progress"],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=280,
    )
    assert done.returncode != 0
    assert "holds no jhooks-demo-report.json" in done.stderr
    assert (tmp_path / "precious.txt").read_text() == "keep me"


@pytest.mark.timeout(300)
def test_demo_report_names_the_given_csv_and_counts_its_rows(tmp_path):
    from jhooks.demo.data import DEFAULT_CSV

    with open(DEFAULT_CSV) as f:
        lines = f.read().splitlines()
    csv = tmp_path / "first100.csv"
    csv.write_text("\n".join(lines[:101]) + "\n")  # header + 100 rows: every 5th (20) held out
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "jhooks",
            "demo",
            "--csv",
            str(csv),
            "--steps-jvm",
            "4",
            "--steps-python",
            "4",
            "--save-steps",
            "2",
            "--out",
            str(tmp_path / "out"),
            "--no-progress",
        ],
        env=_env(),
        capture_output=True,
        text=True,
        timeout=280,
    )
    assert done.returncode == 0, done.stdout + done.stderr[-4000:]
    assert (
        done.stdout.splitlines()[1] == "jhooks demo: logistic regression on first100.csv, 80 train / 20 held-out rows"
    )


@pytest.mark.timeout(300)
def test_demo_console_a_bar_for_each_part_and_one_logger_and_path_style_per_save(tmp_path):
    """On a pipe (stderr captured): each part prints its bar's periodic lines (part 1 a Python
    bar, part 2 a Java bar drawn by Python); each saver's "Saving" and "Saved" lines are under its
    own class's logger, with absolute paths in both languages; nothing else of the hooks at INFO."""
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "jhooks", "demo", "--steps-jvm", "40", "--steps-python", "30", "--save-steps", "10",
         "--out", "out"],
        env=_env(), capture_output=True, text=True, timeout=280, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr[-4000:]
    lines = done.stderr.splitlines()
    bars = [line.split(" steps")[0] for line in lines if re.match(r"\d+/\d+ steps \(\d+%\)", line)]
    assert "40/40" in bars and "30/30" in bars, done.stderr[-4000:]
    records = [m.groups() for m in map(re.compile(r"^\S+ \S+ ([A-Z]) (\S+): (.*)$").match, lines) if m]
    saves = {(name, text.split(" ")[0]) for level, name, text in records if text.startswith(("Saving ", "Saved "))}
    assert saves == {
        ("jhooks.hooks.async_checkpoint_saver", "Saving"),
        ("jhooks.hooks.async_checkpoint_saver", "Saved"),
        ("org.jhooks.hooks.AsyncCheckpointSaverHook", "Saving"),
        ("org.jhooks.hooks.AsyncCheckpointSaverHook", "Saved"),
    }, records
    ckpt = os.path.realpath(out / "checkpoints")
    for *_, text in records:
        if text.startswith(("Saving ", "Saved ")):
            assert f" {ckpt}{os.sep}model.ckpt-" in text, text  # absolute, both languages
    warned = [(name, text) for level, name, text in records if level in "WE" and ".hooks." in name]
    assert warned == [], warned  # (the global step "has not been increased": tests/demo/test_demo_model.py)
    hooks = {name for level, name, _ in records if level == "I" and ".hooks." in name}
    assert hooks == {
        "jhooks.hooks.async_checkpoint_saver",
        "jhooks.hooks.logging_tensor",
        "org.jhooks.hooks.AsyncCheckpointSaverHook",
        "org.jhooks.hooks.LoggingTensorHook",
    }, records
