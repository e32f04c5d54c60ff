"""The demo data set, split and standardized exactly as ``org.jhooks.demo.DemoData`` does it.

- ``data/wdbc.csv``: a header line; every column but the last is a float feature, the last
  (``benign``) the 0/1 label (data/README.md has the source and licence).
- Held out: every 5th row (0-based row index ``i % 5 == 4``); the rest is training data.
- Features standardized with the training rows' mean and population standard deviation (float64,
  a standard deviation of 0 counts as 1), then float32. Labels are float32 of shape [rows, 1].
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass

import numpy as np

DEFAULT_CSV = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "wdbc.csv")
HOLD_OUT_EVERY = 5


@dataclass(frozen=True)
class DemoData:
    featureNames: list[str]
    trainX: np.ndarray  # float32 [trainRows, features]
    trainY: np.ndarray  # float32 [trainRows, 1]
    heldOutX: np.ndarray
    heldOutY: np.ndarray

    def baselineAccuracy(self) -> float:
        """Held-out accuracy of always predicting the training rows' majority class."""
        majority = 1.0 if 2 * int((self.trainY > 0.5).sum()) >= len(self.trainY) else 0.0
        return float((self.heldOutY == majority).mean())


def load(path: str = DEFAULT_CSV) -> DemoData:
    """Reads and prepares ``path``; ValueError names the line of a malformed row."""
    with open(path, newline="") as f:
        reader = csv.reader(f)
        header = next(reader)
        rows = []
        for lineno, cells in enumerate(reader, start=2):
            if not cells:
                continue
            if len(cells) != len(header):
                raise ValueError(f"{path} line {lineno} has {len(cells)} columns, the header has {len(header)}")
            try:
                rows.append([float(c) for c in cells])
            except ValueError as e:
                raise ValueError(f"{path} line {lineno}: {e}") from e
    table = np.asarray(rows, dtype=np.float64)
    held = np.arange(len(table)) % HOLD_OUT_EVERY == HOLD_OUT_EVERY - 1
    train, held_out = table[~held], table[held]
    features = len(header) - 1
    mean = train[:, :features].mean(axis=0)
    std = train[:, :features].std(axis=0)
    std[std == 0] = 1.0

    def x(part: np.ndarray) -> np.ndarray:
        return ((part[:, :features] - mean) / std).astype(np.float32)

    def y(part: np.ndarray) -> np.ndarray:
        return part[:, features:].astype(np.float32)

    return DemoData(header[:features], x(train), y(train), x(held_out), y(held_out))
