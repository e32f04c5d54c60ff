"""A --hook module that configures logging on import (WARNING): the launcher must leave it so."""

import logging

from launcher_hooks import InfoLogger

logging.basicConfig(level=logging.WARNING, format="quiet %(levelname)s %(name)s: %(message)s")

__all__ = ["InfoLogger"]
