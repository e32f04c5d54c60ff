"""A task of ``python -m jhooks cluster-demo --launch tf-config`` and of ``examples/kubernetes``,
started with its cluster and role in ``TF_CONFIG`` only, as Kubeflow's TFJob operator starts one:
``python -m jhooks.demo.tf_config_task --csv wdbc.csv --last-step 600 --result-dir DIR ...``.

By ``TF_CONFIG``'s task type (:class:`jhooks.tf.tf_config.TfConfig`):

- ``ps``: the task's TensorFlow server, until the process is killed;
- ``chief`` (or worker 0 without a chief job): trains in Python TensorFlow with Java hooks under
  ``MonitoredTrainingSession``, restores or initializes the model and checkpoints into
  ``--checkpoint-dir``;
- ``worker``: trains in Python with Java hooks, waiting for the chief (the JVM worker is
  ``org.jhooks.demo.TfConfigTask``, started by plain ``java``);
- ``evaluator``: evaluates each new checkpoint of ``--checkpoint-dir`` (:mod:`jhooks.demo.evaluator`).

Each writes ``<result-dir>/<type><index>.result.json``. ``--start-barrier`` lines the training tasks
up before their first step (:class:`TaskStartBarrier`), as the demo's ps restart needs.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from typing import Any

from jhooks.demo import data as demo_data
from jhooks.demo import model
from jhooks.demo.cluster_task import StartBarrier


def barrier_files(cfg: Any, resultDir: str) -> tuple[str | None, list[str]]:
    """The marker a task writes once its first session exists (a worker's), and those the chief
    waits for (every worker's)."""
    if cfg.isChief():
        first = 0 if cfg.taskType() == "chief" else 1  # without a chief job, worker 0 is the chief
        workers = range(first, cfg.cluster().numTasks("worker"))
        return None, [os.path.join(resultDir, f"worker{i}.started") for i in workers]
    if cfg.taskType() == "worker":
        return os.path.join(resultDir, f"worker{cfg.taskIndex()}.started"), []
    return None, []


class TaskStartBarrier(StartBarrier):
    """:class:`StartBarrier` for the task ``TF_CONFIG`` names (its markers in ``resultDir``)."""

    def __init__(self, resultDir: str, maxWaitSecs: float) -> None:
        from jhooks.tf.tf_config import TfConfig

        marker, waitFor = barrier_files(TfConfig.fromEnv(), resultDir)
        super().__init__(marker, waitFor, maxWaitSecs)


def arguments(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m jhooks.demo.tf_config_task", description=__doc__)
    p.add_argument("--csv", default=demo_data.DEFAULT_CSV)
    p.add_argument("--last-step", type=int, required=True, help="train until this global step")
    p.add_argument("--result-dir", required=True, help="where the task writes <type><index>.result.json")
    p.add_argument("--checkpoint-dir", default=None, help="the chief's checkpoints (the evaluator reads them)")
    p.add_argument("--save-steps", type=int, default=100)
    p.add_argument("--learning-rate", type=float, default=model.DEFAULT_LEARNING_RATE)
    p.add_argument("--recovery-wait-secs", type=float, default=0.5)
    p.add_argument("--max-wait-secs", type=float, default=300)
    p.add_argument("--start-barrier", action="store_true")
    p.add_argument("--poll-secs", type=float, default=0.2, help="the evaluator's poll for new checkpoints")
    return p.parse_args(argv)


def _write(path: str, result: dict[str, Any]) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(result, f)
    os.replace(tmp, path)


def main(argv: list[str]) -> int:
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(asctime)s %(name)s %(message)s")
    args = arguments(argv)
    from jhooks.tf.tf_config import TfConfig

    cfg = TfConfig.fromEnv()
    os.makedirs(args.result_dir, exist_ok=True)
    name = f"{cfg.taskType()}{cfg.taskIndex()}"
    resultPath = os.path.join(args.result_dir, f"{name}.result.json")
    if cfg.taskType() == "ps":
        server = cfg.server()
        _write(resultPath, {"job": "ps", "index": cfg.taskIndex(), "lang": "python", "ready": True})
        server.join()
        return 0
    if cfg.isEvaluator():
        from jhooks.demo.evaluator import evaluate_checkpoints

        if args.checkpoint_dir is None:
            raise SystemExit("the evaluator needs --checkpoint-dir")
        result = evaluate_checkpoints(
            args.checkpoint_dir, args.csv, args.last_step, args.poll_secs, args.max_wait_secs, args.learning_rate
        )
    else:
        from jhooks.demo.cluster_task import train_python

        settings = {
            "lastStep": args.last_step,
            "csv": args.csv,
            "learningRate": args.learning_rate,
            "checkpointDir": args.checkpoint_dir,
            "saveSteps": args.save_steps,
            "recoveryWaitSecs": args.recovery_wait_secs,
            "maxWaitSecs": args.max_wait_secs,
        }
        barrier = None
        if args.start_barrier:
            marker, waitFor = barrier_files(cfg, args.result_dir)
            barrier = StartBarrier(marker, waitFor, args.max_wait_secs)
        result = train_python(cfg, settings, barrier)
    result.update(job=cfg.taskType(), index=cfg.taskIndex(), lang="python")
    _write(resultPath, result)
    logging.getLogger(__name__).info("task %s done: %s", name, result)
    sys.stdout.flush()
    # A cluster task's TensorFlow server cannot be stopped (ClusterServer): end the process here.
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
