"""Subprocess for the SIGKILL test: trains forever with AsyncCheckpointSaverHook(saveSteps=1),
resuming from the latest checkpoint, and prints each finished global step (flushed)."""

import sys

import tensorflow as tf
from hooks_support import Model, monitored

from jhooks.hooks import AsyncCheckpointSaverHook


def main(checkpointDir: str, size: int) -> None:
    with tf.Graph().as_default():
        m = Model(size=size)
        hook = AsyncCheckpointSaverHook(checkpointDir, saveSteps=1, maxToKeep=3)
        with monitored([hook], checkpointDir) as sess:
            while True:
                sess.run(m.train)
                print(int(sess.run(m.gs)), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
