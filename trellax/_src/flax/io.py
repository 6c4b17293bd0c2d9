"""``flax.io``: the file operations Flax's checkpoint code uses, on the local file system.

Flax routes these through ``tensorflow.io.gfile`` when TensorFlow is installed (for ``gs://``
paths); trellax never does: only local paths work. ``BackendMode.TF`` is accepted by
``set_mode``/``override_mode`` for Flax's signature, and then each operation raises
``NotImplementedError``.

Example::

    >>> import tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> with GFile(os.path.join(d, "a.txt"), "w") as f:
    ...     _ = f.write("hi")
    >>> listdir(d)
    ['a.txt']
"""

from __future__ import annotations

import contextlib
import enum
import glob as glob_module
import os
import shutil
from collections.abc import Iterator
from typing import IO, Any

from trellax._src.flax import errors


class BackendMode(enum.Enum):
    """Where file operations go: ``DEFAULT`` (local files) or ``TF`` (not available here)."""

    DEFAULT = 0
    TF = 1


io_mode = BackendMode.DEFAULT
NotFoundError = FileNotFoundError


def _local() -> None:
    if io_mode is not BackendMode.DEFAULT:
        raise NotImplementedError(
            "trellax.flax.io has no TensorFlow gfile backend; only local files (BackendMode.DEFAULT)."
        )


@contextlib.contextmanager
def override_mode(override: BackendMode) -> Iterator[None]:
    """Sets the backend mode inside the ``with`` block."""
    global io_mode
    previous = io_mode
    io_mode = override
    try:
        yield
    finally:
        io_mode = previous


def set_mode(override: BackendMode) -> None:
    """Sets the backend mode."""
    global io_mode
    io_mode = override


def GFile(name: str | os.PathLike[str], mode: str) -> IO[Any]:
    """``open(name, mode)`` (text mode as UTF-8)."""
    _local()
    if "b" in mode:
        return open(name, mode)
    return open(name, mode, encoding="utf-8")


def listdir(path: str | os.PathLike[str]) -> list[str]:
    """The names in directory ``path``."""
    _local()
    return os.listdir(path)


def isdir(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a directory."""
    _local()
    return os.path.isdir(path)


def exists(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` exists."""
    _local()
    return os.path.exists(path)


def copy(src: str, dst: str, overwrite: bool = False) -> None:
    """Copies file ``src`` to ``dst``; an existing ``dst`` needs ``overwrite=True``."""
    _local()
    if os.path.exists(dst) and not overwrite:
        raise errors.AlreadyExistsError(dst)
    shutil.copy(src, dst)


def rename(src: str, dst: str, overwrite: bool = False) -> None:
    """Renames ``src`` to ``dst``; an existing ``dst`` needs ``overwrite=True``."""
    _local()
    if os.path.exists(dst) and not overwrite:
        raise errors.AlreadyExistsError(dst)
    os.replace(src, dst)


def makedirs(path: str | os.PathLike[str]) -> None:
    """Creates directory ``path`` and its parents (no error if it exists)."""
    _local()
    os.makedirs(path, exist_ok=True)


def glob(pattern: str) -> list[str]:
    """The paths matching ``pattern`` (no trailing slashes)."""
    _local()
    return [path.rstrip("/") for path in glob_module.glob(pattern, recursive=False)]


def remove(path: str | os.PathLike[str]) -> None:
    """Removes the file ``path``."""
    _local()
    os.remove(path)


def rmtree(path: str | os.PathLike[str]) -> None:
    """Removes directory ``path`` and everything in it."""
    _local()
    shutil.rmtree(path)


def getsize(path: str | os.PathLike[str]) -> int:
    """The size of ``path`` in bytes."""
    _local()
    return os.path.getsize(path)
