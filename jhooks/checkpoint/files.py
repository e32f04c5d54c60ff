"""The files of V2 checkpoints in a checkpoint dir: names, existence, deletion, stale temporaries.

Twin of org.jhooks.checkpoint.Checkpoints. Names are compared literally (never as glob patterns),
so a basename such as ``m?``, ``run[1]`` or ``*`` names only itself; nothing outside the checkpoint
dir is ever deleted. See docs/contract.md, "Checkpoints".
"""

from __future__ import annotations

import logging
import os
import re

logger = logging.getLogger(__name__)

DEFAULT_BASENAME = "model.ckpt"
"""The savers' default ``checkpointBasename``: prefixes ``<dir>/model.ckpt-<global step>``, as TensorFlow's."""
_DATA = re.compile(r"^\.data-\d{5}-of-\d{5}$")
_STATE_TEMP = "checkpoint.tmp"
_BUNDLE_TEMP = ".tempstate"  # TensorFlow's BundleWriter writes <file>.tempstate<random>, then renames
GRAPH_FILE = "graph.pbtxt"
"""The text-format GraphDef the savers write into the checkpoint dir at session creation (TF's name)."""
_GRAPH_TEMP = GRAPH_FILE + ".tmp"


def validate_basename(hook: str, checkpointBasename: object) -> str:
    """``checkpointBasename`` if it is a plain file name; ValueError naming ``hook`` and the value
    if it is empty, not a str, or holds a path separator (``/`` or ``\\``), ``..`` or a NUL, which
    would put checkpoints (and their rotation) outside the checkpoint dir."""
    if (
        not isinstance(checkpointBasename, str)
        or not checkpointBasename
        or any(c in checkpointBasename for c in ("/", "\\", "\0"))
        or ".." in checkpointBasename
        or checkpointBasename == "."
    ):
        shown = f"'{checkpointBasename}'" if isinstance(checkpointBasename, str) else repr(checkpointBasename)
        raise ValueError(
            f"{hook}: checkpointBasename must be a file name without a path separator or '..', got {shown}"
        )
    return checkpointBasename


def checkpoint_prefix(checkpointDir: str, checkpointBasename: str, globalStep: int) -> str:
    """``checkpointDir/checkpointBasename-globalStep`` (TF's naming)."""
    return os.path.join(checkpointDir, f"{checkpointBasename}-{int(globalStep)}")


def _files_of(prefix: str) -> list[str]:
    """The existing ``.index``, ``.meta`` and ``.data-NNNNN-of-NNNNN`` files of ``prefix`` (literal names)."""
    parent, name = os.path.split(os.path.abspath(prefix))
    try:
        entries = os.listdir(parent)
    except OSError:
        return []
    out = []
    for entry in entries:
        if not entry.startswith(name):
            continue
        suffix = entry[len(name) :]
        if suffix in (".index", ".meta") or _DATA.match(suffix):
            out.append(os.path.join(parent, entry))
    return out


def checkpoint_exists(prefix: str) -> bool:
    """Whether the V2 checkpoint at ``prefix`` has its ``.index`` and at least one ``.data-*`` file."""
    suffixes = [os.path.basename(f)[len(os.path.basename(prefix)) :] for f in _files_of(prefix)]
    return ".index" in suffixes and any(s.startswith(".data-") for s in suffixes)


def is_own_checkpoint(checkpointDir: str, checkpointBasename: str, prefix: str) -> bool:
    """Whether ``prefix`` is ``<checkpointDir>/<checkpointBasename>-<digits>``: the only checkpoints
    a saver of that dir and basename may rotate or delete."""
    parent, name = os.path.split(os.path.normpath(os.path.abspath(prefix)))
    if parent != os.path.normpath(os.path.abspath(checkpointDir)):
        return False
    head = checkpointBasename + "-"
    return name.startswith(head) and name[len(head) :].isdigit() and name[len(head) :].isascii()


def delete_checkpoint(checkpointDir: str, checkpointBasename: str, prefix: str) -> list[str]:
    """Removes ``prefix.index``, ``prefix.meta`` and ``prefix.data-*``; returns the removed paths
    (none when the checkpoint had none left).

    Raises ValueError when ``prefix`` is not this dir's checkpoint of this basename (see
    :func:`is_own_checkpoint`); nothing is deleted then.
    """
    if not is_own_checkpoint(checkpointDir, checkpointBasename, prefix):
        raise ValueError(
            f"refusing to delete {prefix!r}: not a checkpoint of basename {checkpointBasename!r} in {checkpointDir!r}"
        )
    removed = _files_of(prefix)
    for path in removed:
        os.remove(path)
    return removed


def copy_checkpoint(prefix: str, destPrefix: str) -> list[str]:
    """Copies the files of the checkpoint ``prefix`` (``.index``, ``.data-*``, ``.meta``) to
    ``destPrefix`` + the same suffixes: each to a temporary name in the destination dir, then
    renamed over its target (``.index`` last, so a half-copied checkpoint has no index). Returns
    the written paths. FileNotFoundError when ``prefix`` has no complete checkpoint."""
    if not checkpoint_exists(prefix):
        raise FileNotFoundError(f"no {prefix}.index / {prefix}.data-* to copy")
    import shutil

    name = os.path.basename(os.path.abspath(prefix))
    files = sorted(_files_of(prefix), key=lambda f: f.endswith(".index"))
    written = []
    for source in files:
        target = destPrefix + os.path.basename(source)[len(name) :]
        temporary = target + _BUNDLE_TEMP + ".copy"
        try:
            shutil.copyfile(source, temporary)
            os.replace(temporary, target)
        finally:
            if os.path.exists(temporary):
                os.remove(temporary)
        written.append(target)
    return written


def write_graph(checkpointDir: str, graphDef: bytes) -> str:
    """Writes ``graphDef`` (a serialized ``GraphDef`` proto) as text to ``checkpointDir/graph.pbtxt``,
    as TensorFlow's ``tf.io.write_graph(graph_def, checkpointDir, "graph.pbtxt", as_text=True)``
    (protobuf's text format, ``float_format=''`` where the protobuf has it), and returns that path. The text goes to a
    temporary ``graph.pbtxt.tmp*`` in the same dir, then is renamed over ``graph.pbtxt``, so a reader
    never sees a half-written file; the temporary is removed when the write fails. Only files inside
    ``checkpointDir`` are touched (the dir is created).

    Raises OSError when the dir or the file cannot be written (e.g. EFBIG under a file size limit,
    ``graph.pbtxt`` taken by a directory), google.protobuf's DecodeError when ``graphDef`` is not
    a serialized GraphDef."""
    import tempfile

    from google.protobuf import text_format
    from tensorboard.compat.proto import graph_pb2  # the GraphDef of TensorFlow's proto files, no TF import

    message = graph_pb2.GraphDef.FromString(bytes(graphDef))
    try:
        text = text_format.MessageToString(message, float_format="")
    except TypeError:  # protobuf 6 dropped float_format; TensorFlow's write_graph then passes none
        text = text_format.MessageToString(message)
    os.makedirs(checkpointDir, exist_ok=True)
    target = os.path.join(checkpointDir, GRAPH_FILE)
    fd, tmp = tempfile.mkstemp(prefix=_GRAPH_TEMP, dir=checkpointDir)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return target


def clean_stale_temporaries(checkpointDir: str, checkpointBasename: str) -> list[str]:
    """Deletes what a killed save leaves in ``checkpointDir``: state-file temporaries
    (``checkpoint.tmp*``), graph-file temporaries (``graph.pbtxt.tmp*``) and TensorFlow's bundle
    temporaries of this basename's checkpoints (``<basename>-<step>.*.tempstate*``). Regular files
    only; returns the deleted paths."""
    removed: list[str] = []
    try:
        entries = sorted(os.listdir(checkpointDir))
    except OSError:
        return removed
    head = checkpointBasename + "-"
    for entry in entries:
        ours = (
            entry.startswith(_STATE_TEMP)
            or entry.startswith(_GRAPH_TEMP)
            or (entry.startswith(head) and _BUNDLE_TEMP in entry[len(head) :])
        )
        path = os.path.join(checkpointDir, entry)
        if ours and os.path.isfile(path) and not os.path.islink(path):
            os.remove(path)
            removed.append(path)
    if removed:
        logger.info(
            "Removed %d temporary file(s) of an interrupted save in %s: %s", len(removed), checkpointDir, removed
        )
    return removed
