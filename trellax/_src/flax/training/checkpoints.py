"""``flax.training.checkpoints``: save and restore checkpoints in Flax's (legacy) msgpack format.

A checkpoint is one file ``<ckpt_dir>/<prefix><step>`` (default prefix ``checkpoint_``) holding
``flax.serialization.to_bytes(target)``: Flax's ``restore_checkpoint`` reads trellax's files and
the reverse. Steps sort naturally (``checkpoint_9`` < ``checkpoint_10``; float steps work).

Writes are atomic: the bytes go to ``<prefix>tmp``, are flushed to disk, and the file is then
renamed onto its final name, so a crash mid-write leaves every earlier checkpoint readable (a
stale ``<prefix>tmp`` is ignored and replaced by the next save). After a save, older checkpoints
beyond ``keep`` are removed (except every ``keep_every_n_steps``-th), and with
``overwrite=True`` newer ones too. Restoring decodes msgpack only: no code is executed.

Differences from Flax (see docs/flax.md): trellax always writes this format. Flax 0.12.8 writes
Orbax directories when ``flax_use_orbax_checkpointing`` is true (its default); trellax cannot read
Orbax checkpoints and says so. ``async_manager`` runs the write in a background thread, as Flax.

Example::

    >>> import tempfile, numpy as np
    >>> d = tempfile.mkdtemp()
    >>> path = save_checkpoint(d, {"w": np.arange(3)}, step=10)
    >>> restore_checkpoint(d, target=None)
    {'w': array([0, 1, 2])}
"""

from __future__ import annotations

import concurrent.futures
import fnmatch
import logging
import os
import re
import shutil
from collections.abc import Callable, Iterable
from typing import Any

from trellax._src.flax import errors
from trellax._src.flax.frozen_dict import FrozenDict, freeze
from trellax._src.flax.msgpack_format import msgpack_restore, to_bytes
from trellax._src.flax.state_dict import from_state_dict

_logger = logging.getLogger(__name__)

SIGNED_FLOAT_RE = re.compile(r"([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)")
UNSIGNED_FLOAT_RE = re.compile(r"((?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)")
MODULE_NUM_RE = re.compile(r"(.*)_\d+$")
SCHEME_RE = re.compile(r"^(?P<scheme>[a-z][a-z0-9.+-]+://)?(?P<path>.*)", re.I)

# Suffix of the directories Flax writes for multi-process arrays; such entries are not steps.
MP_ARRAY_POSTFIX = "_gda"
# Orbax writes a step to a temporary directory whose name contains this marker first.
ORBAX_TMP_DIR_SUFFIX = ".orbax-checkpoint-tmp"
_ORBAX_MARKER_FILES = ("checkpoint", "_METADATA", "manifest.ocdbt")


# ----------------------------------------------------------------- names and sorting


def natural_sort(file_list: Iterable[str], signed: bool = True) -> list[str]:
    """Sorts names by their numeric parts as numbers: ``f_2 < f_10``, ``f_-0.2 < f_0.1``.

    With ``signed=False`` a leading ``-``/``+`` is a separator, not a sign.
    """
    float_re = SIGNED_FLOAT_RE if signed else UNSIGNED_FLOAT_RE

    def sort_key(name: str) -> list[Any]:
        return [float(part) if float_re.match(part) else part for part in float_re.split(name)]

    return sorted(file_list, key=sort_key)


def safe_normpath(path: str) -> str:
    """``os.path.normpath`` that keeps a URL scheme such as ``gs://``."""
    match = SCHEME_RE.match(path)
    assert match is not None  # the pattern matches every string
    return (match.group("scheme") or "") + os.path.normpath(match.group("path"))


def _checkpoint_path(ckpt_dir: str, step: int | float | str, prefix: str) -> str:
    return os.path.join(ckpt_dir, f"{prefix}{step}")


def _checkpoint_path_step(path: str) -> float | None:
    """The last number in ``path`` (the step), or None."""
    for part in reversed(SIGNED_FLOAT_RE.split(path)):
        if SIGNED_FLOAT_RE.match(part):
            return float(part)
    return None


def _local_dir(ckpt_dir: str | os.PathLike[str]) -> str:
    path = safe_normpath(os.fspath(ckpt_dir))
    match = SCHEME_RE.match(path)
    if match is not None and match.group("scheme"):
        raise NotImplementedError(
            f"trellax checkpoints read and write local files only; got the URL {path!r}."
        )
    return path


def _listdir(path: str) -> list[str]:
    try:
        return os.listdir(path)
    except (FileNotFoundError, NotADirectoryError):
        return []


def _matching(dir_path: str, prefix: str, exclude_tmp: bool) -> list[str]:
    """Paths in ``dir_path`` named ``prefix*`` that are checkpoints, naturally sorted."""
    names = [
        name
        for name in _listdir(dir_path)
        if fnmatch.fnmatchcase(name, f"{prefix}*")
        and not name.endswith(MP_ARRAY_POSTFIX)
        and not (exclude_tmp and name == f"{prefix}tmp")
        and not (exclude_tmp and ORBAX_TMP_DIR_SUFFIX in name)
    ]
    return natural_sort(os.path.join(dir_path, name) for name in names)


def _all_checkpoints(ckpt_dir: str | os.PathLike[str], prefix: str = "checkpoint_") -> list[str]:
    return _matching(os.fspath(ckpt_dir), prefix, exclude_tmp=True)


def latest_checkpoint(ckpt_dir: str | os.PathLike[str], prefix: str = "checkpoint_") -> str | None:
    """The path of the newest (naturally largest) checkpoint in ``ckpt_dir``, or None."""
    paths = _all_checkpoints(ckpt_dir, prefix)
    return paths[-1] if paths else None


def available_steps(
    ckpt_dir: str | os.PathLike[str], prefix: str = "checkpoint_", step_type: type = int
) -> list[Any]:
    """The steps of the checkpoints in ``ckpt_dir``, sorted, as ``step_type`` (int or float)."""
    steps = []
    for path in _all_checkpoints(ckpt_dir, prefix):
        steps.append(step_type(path[path.rfind(prefix) + len(prefix) :]))
    return steps


# ----------------------------------------------------------------- saving


def _remove(path: str) -> None:
    if os.path.isdir(path):
        shutil.rmtree(path)
    elif os.path.exists(path):
        os.remove(path)


def _remove_invalid_ckpts(
    ckpt_path: str, base_path: str, keep: int, overwrite: bool, keep_every_n_steps: int | None
) -> None:
    """Removes newer checkpoints (with ``overwrite``) and those beyond ``keep``."""
    dir_path, prefix = os.path.split(base_path)
    paths = _matching(dir_path, prefix, exclude_tmp=False)
    if overwrite and ckpt_path in paths:
        cut = paths.index(ckpt_path) + 1
        for path in paths[cut:]:
            _logger.info("Removing checkpoint at %s", path)
            _remove(path)
        paths = paths[:cut]
    if len(paths) <= keep:
        return
    last_kept = -float("inf")
    for path in paths[: len(paths) - keep]:  # oldest first
        if keep_every_n_steps:
            step = _checkpoint_path_step(path)
            if step and step - last_kept >= keep_every_n_steps:
                last_kept = step
                continue
        _logger.info("Removing checkpoint at %s", path)
        _remove(path)


def _check_overwrite_error(ckpt_tmp_path: str, ckpt_path: str, base_path: str, step: Any) -> None:
    """Raises InvalidCheckpointError if this step or a later one is already saved."""
    dir_path, prefix = os.path.split(base_path)
    paths = _matching(dir_path, prefix, exclude_tmp=False)
    if ckpt_path in paths:
        raise errors.InvalidCheckpointError(ckpt_path, step)
    paths = natural_sort([*paths, ckpt_path])
    if paths[-1] == ckpt_tmp_path:  # a stale temporary file from an interrupted save
        paths.pop()
    if paths[-1] != ckpt_path:
        raise errors.InvalidCheckpointError(ckpt_path, step)


def _write_atomically(data: bytes, tmp_path: str, final_path: str, overwrite: bool) -> None:
    """Writes ``data`` to ``tmp_path``, syncs it and renames it onto ``final_path``."""
    with open(tmp_path, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    if not overwrite and os.path.exists(final_path):
        os.remove(tmp_path)
        raise errors.AlreadyExistsError(final_path)
    if os.path.isdir(final_path):
        _remove(final_path)
    os.replace(tmp_path, final_path)
    _fsync_dir(os.path.dirname(final_path))


def _fsync_dir(path: str) -> None:
    """Makes a rename in ``path`` durable (a no-op where directories cannot be opened)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class AsyncManager:
    """Runs checkpoint writes in one background thread, one at a time.

    ``save_checkpoint(..., async_manager=am)`` returns once the bytes are serialized; the write
    and the clean-up run in the thread. ``wait_previous_save()`` blocks until it is done (and
    re-raises its error).
    """

    def __init__(self, max_workers: int = 1) -> None:
        self.executor = concurrent.futures.ThreadPoolExecutor(max_workers=max_workers)
        self.save_future: concurrent.futures.Future[Any] | None = None

    def wait_previous_save(self) -> None:
        """Blocks until the previous save finished; re-raises its error, if any."""
        if self.save_future is not None and not self.save_future.done():
            _logger.warning("Waiting for the previous checkpoint save to finish.")
        if self.save_future is not None:
            self.save_future.result()

    def save_async(self, task: Callable[[], Any]) -> None:
        """Runs ``task`` in the background thread after the previous save finished."""
        self.wait_previous_save()
        self.save_future = self.executor.submit(task)


def save_checkpoint(
    ckpt_dir: str | os.PathLike[str],
    target: Any,
    step: int | float,
    prefix: str = "checkpoint_",
    keep: int = 1,
    overwrite: bool = False,
    keep_every_n_steps: int | None = None,
    async_manager: AsyncManager | None = None,
    orbax_checkpointer: Any = None,
) -> str:
    """Saves ``target`` (anything ``flax.serialization`` handles) as ``<prefix><step>``.

    Args:
      ckpt_dir: the directory (created if missing).
      target: the object to save.
      step: the step (int or float) that names the file.
      prefix: the file name prefix.
      keep: how many of the newest checkpoints to keep.
      overwrite: allow saving a step that is not newer than every saved one; newer ones are
        then removed. Without it such a save raises ``flax.errors.InvalidCheckpointError``.
      keep_every_n_steps: also keep one checkpoint every this many steps.
      async_manager: write in the background (see :class:`AsyncManager`).
      orbax_checkpointer: not supported (trellax has no Orbax); raises ``NotImplementedError``.

    Returns:
      The checkpoint's path.
    """
    if orbax_checkpointer is not None:
        raise NotImplementedError(
            "trellax.flax checkpoints cannot use Orbax; leave orbax_checkpointer=None to write "
            "Flax's msgpack checkpoint format."
        )
    if keep < 1:
        raise ValueError(f"keep must be at least 1, got {keep}")
    if async_manager is not None:
        async_manager.wait_previous_save()
    ckpt_dir = _local_dir(ckpt_dir)
    ckpt_path = _checkpoint_path(ckpt_dir, step, prefix)
    ckpt_tmp_path = _checkpoint_path(ckpt_dir, "tmp", prefix)
    base_path = os.path.join(ckpt_dir, prefix)
    if not overwrite:
        _check_overwrite_error(ckpt_tmp_path, ckpt_path, base_path, step)
    data = to_bytes(target)

    def write() -> None:
        os.makedirs(ckpt_dir, exist_ok=True)
        _write_atomically(data, ckpt_tmp_path, ckpt_path, overwrite)
        _logger.info("Saved checkpoint at %s", ckpt_path)
        _remove_invalid_ckpts(ckpt_path, base_path, keep, overwrite, keep_every_n_steps)

    if async_manager is not None:
        async_manager.save_async(write)
    else:
        write()
    return ckpt_path


# ----------------------------------------------------------------- restoring


def _is_orbax_checkpoint(path: str) -> bool:
    return os.path.isdir(path) and any(
        os.path.exists(os.path.join(path, name)) for name in _ORBAX_MARKER_FILES
    )


def restore_checkpoint(
    ckpt_dir: str | os.PathLike[str],
    target: Any,
    step: int | float | None = None,
    prefix: str = "checkpoint_",
    parallel: bool = True,
    gda_manager: Any = None,
    allow_partial_mpa_restoration: bool = False,
    orbax_checkpointer: Any = None,
    orbax_transforms: dict[str, Any] | None = None,
) -> Any:
    """Restores the newest checkpoint in ``ckpt_dir`` (or the one at ``step``, or the file
    ``ckpt_dir`` itself) into the structure of ``target``.

    With ``target=None`` the raw state dict is returned (NumPy arrays, as Flax's legacy path).
    When nothing is found (no directory, no matching file, a file path that does not exist),
    ``target`` is returned unchanged; a ``step`` that was not saved raises ``ValueError``.
    ``parallel``, ``gda_manager`` and ``allow_partial_mpa_restoration`` are accepted for
    Flax's signature; one process reads one file here.
    """
    del parallel, gda_manager, allow_partial_mpa_restoration
    if orbax_checkpointer is not None or orbax_transforms is not None:
        raise NotImplementedError("trellax.flax checkpoints cannot use Orbax.")
    ckpt_dir = _local_dir(ckpt_dir)
    if step is not None:
        ckpt_path = _checkpoint_path(ckpt_dir, step, prefix)
        if not os.path.exists(ckpt_path):
            raise ValueError(f"Matching checkpoint not found: {ckpt_path}")
    elif not os.path.exists(ckpt_dir):
        _logger.info("Found no checkpoint directory at %s", ckpt_dir)
        return target
    elif os.path.isdir(ckpt_dir) and not _is_orbax_checkpoint(ckpt_dir):
        latest = latest_checkpoint(ckpt_dir, prefix)
        if latest is None:
            _logger.info("Found no checkpoint files in %s with prefix %s", ckpt_dir, prefix)
            return target
        ckpt_path = latest
    else:
        ckpt_path = ckpt_dir
    if os.path.isdir(ckpt_path):
        raise NotImplementedError(
            f"{ckpt_path} is a directory (an Orbax checkpoint); trellax reads Flax's msgpack "
            "checkpoint files only. Re-save it from Flax with "
            "config.update('flax_use_orbax_checkpointing', False)."
        )
    with open(ckpt_path, "rb") as f:
        state = msgpack_restore(f.read())
    return state if target is None else from_state_dict(target, state)


def convert_pre_linen(params: Any) -> Any:
    """Renames pre-Linen submodule keys (numbered across classes: ``Conv_0``, ``Dense_1``) to
    Linen's per-class numbering (``Conv_0``, ``Dense_0``), recursively; other values unchanged."""
    if not isinstance(params, (dict, FrozenDict)):
        return params
    renamed: dict[str, Any] = {}
    counts: dict[str, int] = {}
    for name in natural_sort(params.keys()):
        value = params[name]
        match = MODULE_NUM_RE.match(name)
        if match:
            module = match.group(1)
            number = counts.get(module, 0)
            counts[module] = number + 1
            name = f"{module}_{number}"
        renamed[name] = convert_pre_linen(value)
    return freeze(renamed) if isinstance(params, FrozenDict) else renamed
