"""Errors raised by the standard hooks (twins of org.jhooks.hooks.*Exception); checkpoint save
errors live in jhooks.checkpoint.errors."""

from __future__ import annotations


class NanLossDuringTrainingError(RuntimeError):
    """The loss was NaN (TF's ``NanLossDuringTrainingError``); raised by NanTensorHook."""
