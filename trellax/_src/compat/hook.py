"""The import hook that resolves ``jax``, ``flax``, ``optax`` and ``chex`` imports to trellax.

While installed, a finder at the front of ``sys.meta_path`` answers for every module of those
packages (see ``names.resolve``). ``jax.numpy`` becomes an *alias module*: a module object of its
own, named ``jax.numpy``, that holds trellax.numpy's names. Its ``__getattr__`` turns a name trellax
lacks into an error that says so (``trellax has no counterpart of jax.numpy.foo yet``), so
trellax's own modules keep their behaviour for normal users. Real optax and chex, when installed,
are imported normally and see ``jax`` as the alias.

Installing removes (and remembers) modules of those packages that were imported before, so a real
JAX imported earlier is not used by later imports; uninstalling removes every alias and module of
those packages imported meanwhile and puts the remembered ones back. Nothing is changed outside
``install()``/``uninstall()``.
"""

from __future__ import annotations

import dis
import importlib
import importlib.abc
import importlib.machinery
import os
import sys
import threading
import types
import warnings
from collections.abc import Sequence
from typing import Any, Final

from trellax._src.compat import names

_DUNDER_COPIED: Final = ("__doc__", "__all__", "__file__")
_IMPORT_FROM: Final = dis.opmap["IMPORT_FROM"]


class Recorder:
    """Collects the names a program reads from the alias modules (for ``trellax run --report``).

    Each entry maps a dotted JAX/Flax name to whether trellax has it and to the top-level
    packages of the modules that read it (``__main__`` for the script itself).
    """

    def __init__(self) -> None:
        self.found: dict[str, bool] = {}
        self.users: dict[str, set[str]] = {}
        self._lock = threading.Lock()

    def record(self, name: str, present: bool) -> None:
        """Notes that ``name`` was looked up, and by which package (the first frame outside the
        import machinery and this hook)."""
        frame: types.FrameType | None = sys._getframe(1)
        caller = "?"
        while frame is not None:
            module = str(frame.f_globals.get("__name__", "?"))
            if not module.startswith(("importlib", "trellax._src.compat", "_frozen_importlib")):
                caller = module
                break
            frame = frame.f_back
        user = caller.partition(".")[0]
        with self._lock:
            self.found[name] = self.found.get(name, False) or present
            self.users.setdefault(name, set()).add(user)


def _missing_attribute(alias: str, attr: str) -> Exception:
    """The error for ``alias.attr`` that trellax lacks: ImportError inside ``from alias import``.

    Python turns an AttributeError raised during ``from m import x`` into its own "cannot import
    name" ImportError, losing the message; so the caller's instruction is looked at here, which is
    the point of reading a frame.
    """
    message = names.missing_message(f"{alias}.{attr}")
    frame = sys._getframe(2)
    code = frame.f_code.co_code
    if 0 <= frame.f_lasti < len(code) and code[frame.f_lasti] == _IMPORT_FROM:
        return ImportError(message, name=alias)
    return AttributeError(message)


class AliasModule(types.ModuleType):
    """A module of JAX's (or Flax's) name whose contents are a trellax module's."""

    __trellax_target__: types.ModuleType | None

    def __init__(self, name: str, target: types.ModuleType | None, copy_names: bool) -> None:
        super().__init__(name, target.__doc__ if target is not None else None)
        self.__dict__["__trellax_target__"] = target
        self.__dict__["__path__"] = []  # a package, so that ``jax.numpy.linalg`` is looked up
        if name == "jax.lib":  # jaxlib's version, which programs compare with jax's
            self.__dict__["__version__"] = names.JAX_VERSION
        if target is None:
            return
        for key in _DUNDER_COPIED:
            if key in target.__dict__:
                self.__dict__[key] = target.__dict__[key]
        if copy_names:  # else every read goes through __getattr__, which records it
            for key, value in target.__dict__.items():
                if not key.startswith("__") and not isinstance(value, types.ModuleType):
                    self.__dict__[key] = value
        if name == "jax":
            self.__dict__["__version__"] = names.JAX_VERSION
            self.__dict__["__version_info__"] = tuple(int(p) for p in names.JAX_VERSION.split("."))

    def _lookup(self, attr: str) -> Any:
        """The value of ``attr``: the target's, with modules that have an alias as their alias."""
        target = self.__dict__["__trellax_target__"]
        value = _ABSENT if target is None else getattr(target, attr, _ABSENT)
        if attr.startswith("__"):
            return value
        child = f"{self.__dict__['__name__']}.{attr}"
        if value is _ABSENT or isinstance(value, types.ModuleType):
            where = names.resolve(child)
            if where == names.REAL_FLAX:
                return importlib.import_module(child)
            if where in (names.MISSING, names.REAL):
                return _ABSENT if isinstance(value, types.ModuleType) else value
            if value is _ABSENT and where != names.EMPTY:
                if not names.trellax_module_exists(where):
                    return _ABSENT
            elif isinstance(value, types.ModuleType) and value.__name__ != where:
                return value  # a module held under another name (e.g. NumPy): not an alias
            return importlib.import_module(child)
        return value

    def __getattr__(self, attr: str) -> Any:
        value = self._lookup(attr)
        recorder = _STATE.recorder
        if recorder is not None and not attr.startswith("__"):
            recorder.record(f"{self.__dict__['__name__']}.{attr}", value is not _ABSENT)
        if value is _ABSENT:
            if attr.startswith("__") and attr.endswith("__"):
                raise AttributeError(f"module {self.__name__!r} has no attribute {attr!r}")
            raise _missing_attribute(self.__dict__["__name__"], attr)
        return value

    def __setattr__(self, attr: str, value: Any) -> None:
        # A module-level setting written through the alias (``flax.serialization.MAX_CHUNK_SIZE
        # = n``, a test patching ``jax.numpy.sum``) must reach the trellax module that reads it,
        # as it would reach JAX's or Flax's own module; the alias keeps its copy in step.
        target = self.__dict__["__trellax_target__"]
        if target is not None and not attr.startswith("__") and hasattr(target, attr):
            setattr(target, attr, value)
            if attr in self.__dict__:
                self.__dict__[attr] = value
            return
        super().__setattr__(attr, value)

    def __dir__(self) -> list[str]:
        target = self.__dict__["__trellax_target__"]
        own = set(self.__dict__)
        if target is not None:
            own |= set(dir(target))
        return sorted(own)


class _Absent:
    pass


_ABSENT: Final = _Absent()


class AliasFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds and loads the alias modules (one instance sits on ``sys.meta_path`` when installed)."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        """The spec of an alias module, None for a real package, an error for a missing one."""
        del path, target
        if not names.in_families(fullname):
            return None
        where = names.resolve(fullname)
        if where == names.REAL:
            return None
        if where == names.REAL_FLAX:
            return _real_flax_spec(fullname)
        if where == names.MISSING or (
            where != names.EMPTY and not names.trellax_module_exists(where)
        ):
            if _STATE.recorder is not None:
                _STATE.recorder.record(fullname, False)
            raise ModuleNotFoundError(names.missing_message(fullname), name=fullname)
        if _STATE.recorder is not None:
            _STATE.recorder.record(fullname, True)
        return importlib.machinery.ModuleSpec(fullname, self, origin=where, is_package=True)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        """Imports the trellax module and wraps it in an alias of the requested name."""
        where = spec.origin
        target = None if where == names.EMPTY else importlib.import_module(str(where))
        module = AliasModule(spec.name, target, copy_names=_STATE.recorder is None)
        if target is not None and getattr(target, "__file__", None):
            spec.origin = target.__file__
            spec.has_location = True
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the alias was filled in ``create_module``."""
        del module


def _real_flax_spec(fullname: str) -> importlib.machinery.ModuleSpec | None:
    """The spec of the real Flax's source file for ``fullname`` (``flax.nnx.module``: the file
    ``<flax>/nnx/module.py``), loaded under that name so that its ``flax.*`` and ``jax`` imports
    go through the hook; None when the file does not exist."""
    root = names.real_flax_dir()
    if root is None:
        return None
    folder = os.path.join(root, *fullname.split(".")[1:-1])
    return importlib.machinery.PathFinder.find_spec(fullname, [folder])


class _HookState:
    def __init__(self) -> None:
        self.finder: AliasFinder | None = None
        self.saved: dict[str, types.ModuleType] = {}
        self.recorder: Recorder | None = None
        self.lock = threading.RLock()


_STATE: Final = _HookState()


def _family_modules() -> list[str]:
    return [name for name in list(sys.modules) if names.in_families(name)]


def install(*, recorder: Recorder | None = None) -> None:
    """Makes ``import jax`` (and ``jax.*``, ``flax.*``, ``optax``, ``chex``) use trellax.

    ``jax`` and its modules become trellax's, ``flax.linen`` is ``trellax.nn``, other ``flax``
    modules are ``trellax.flax``'s, and ``optax``/``chex`` are the real packages when installed
    (running on trellax), else ``optax`` is ``trellax.optim``. Calling it again changes nothing.
    Modules of those packages imported before are set aside (with a warning, since objects made
    from them keep using them) until ``uninstall()``.
    """
    with _STATE.lock:
        if _STATE.finder is not None:
            if recorder is not None and _STATE.recorder is None:
                raise RuntimeError(
                    "trellax.compat is already installed without a recorder; uninstall() first"
                )
            return
        before = _family_modules()
        if before:
            shown = ", ".join(sorted(before)[:4]) + (", ..." if len(before) > 4 else "")
            warnings.warn(
                f"trellax.compat.install(): {shown} were imported before; later imports get "
                "trellax, but objects already made from them keep using the originals",
                RuntimeWarning,
                stacklevel=2,
            )
        _STATE.saved = {name: sys.modules.pop(name) for name in before}
        _STATE.recorder = recorder
        _STATE.finder = AliasFinder()
        sys.meta_path.insert(0, _STATE.finder)
        importlib.invalidate_caches()


def uninstall() -> None:
    """Undoes ``install()``: removes the hook and every module it made, restores what it moved."""
    with _STATE.lock:
        if _STATE.finder is None:
            return
        if _STATE.finder in sys.meta_path:
            sys.meta_path.remove(_STATE.finder)
        for name in _family_modules():
            del sys.modules[name]
        sys.modules.update(_STATE.saved)
        _STATE.saved = {}
        _STATE.finder = None
        _STATE.recorder = None
        importlib.invalidate_caches()


def is_installed() -> bool:
    """Whether ``install()`` is in effect."""
    return _STATE.finder is not None
