"""Resolves ``jax`` to trellax for JAX's own test files, with stand-ins for JAX internals.

``install()`` uses ``trellax.compat.install()`` when it exists (the supported import hook);
otherwise it maps ``jax`` and its public modules to trellax's own modules. Either way, the
internal modules the test files import (``jax._src.test_util``, ``jax._src.config``,
``jax._src.dtypes``, ``jax.interpreters.batching``, ...) become *stand-ins*: modules that look
names up in the trellax modules that hold the counterpart, and raise an ``AttributeError``
saying "trellax has no counterpart of ..." for the rest, so a test file imports and only the
tests that use a missing internal fail.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import pkgutil
import sys
import types
from collections.abc import Sequence
from typing import Any

# The trellax modules that hold the counterparts of JAX's internal modules (searched in order).
STANDINS: dict[str, tuple[str, ...]] = {
    "jax._src": ("trellax._src",),
    "jax._src.api": ("trellax", "trellax._src.api"),
    "jax._src.api_util": (),
    "jax._src.config": (
        "trellax:config",
        "trellax._src.jax_flags",
        "trellax._src.config_flags",
        "trellax",
    ),
    "jax._src.core": ("trellax._src.core", "trellax.core", "trellax.errors"),
    "jax._src.dtypes": ("trellax.dtypes", "trellax._src.dtypes"),
    "jax._src.tree_util": ("trellax.tree_util", "trellax._src.tree_util"),
    "jax._src.util": (),
    "jax._src.lib": (),
    "jax._src.lax": ("trellax.lax",),
    "jax._src.lax.lax": ("trellax.lax", "trellax._src.lax"),
    "jax._src.random": ("trellax._src.random.keys", "trellax.random"),
    "jax._src.random.prng": ("trellax._src.random.keys", "trellax.random"),
    "jax._src.random.core": ("trellax._src.random.keys", "trellax.random"),
    "jax._src.literals": (),
    "jax._src.array": (),
    "jax._src.sharding_impls": ("trellax.sharding",),
    "jax.interpreters": (),
    "jax.interpreters.batching": ("trellax._src.interpreters.batching",),
    "jax.interpreters.ad": ("trellax._src.interpreters.ad",),
}
VALUES: dict[str, dict[str, Any]] = {
    "jax._src.lib": {"jaxlib_extension_version": 10**6, "version": (0, 10, 2)},
}
# Used only when trellax lacks the name (so "before" runs of the harness can start at all).
FALLBACKS: dict[str, dict[str, Any]] = {
    "jax._src.config": {"parse_flags_with_absl": lambda: None},
}


class Standin(types.ModuleType):
    """A JAX internal module answered from trellax modules (see the module doc)."""

    def __init__(self, name: str, targets: Sequence[str]) -> None:
        super().__init__(name)
        self.__dict__["_targets"] = tuple(targets)
        self.__dict__["__path__"] = []
        self.__dict__.update(VALUES.get(name, {}))

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        child = f"{self.__name__}.{attr}"
        if child in sys.modules:
            return sys.modules[child]
        for target in self.__dict__["_targets"]:
            modname, _, member = target.partition(":")
            try:
                module: Any = importlib.import_module(modname)
            except ImportError:
                continue
            if member:
                module = getattr(module, member)
            if hasattr(module, attr):
                return getattr(module, attr)
        fallback = FALLBACKS.get(self.__name__, {})
        if attr in fallback:
            return fallback[attr]
        raise AttributeError(f"trellax has no counterpart of {child}")


class _StandinFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Any other ``jax._src.*`` / ``jax.interpreters.*`` module: an empty stand-in."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname.startswith(("jax._src.", "jax.interpreters.", "jax.experimental.")):
            if fullname.startswith("jax.experimental.") and _trellax_has(fullname):
                return None
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return Standin(spec.name, STANDINS.get(spec.name, ()))

    def exec_module(self, module: types.ModuleType) -> None:
        pass


def _trellax_has(name: str) -> bool:
    try:
        return importlib.util.find_spec("trellax" + name[3:]) is not None
    except ImportError:
        return False


def _own_alias() -> None:
    """Maps ``jax`` and every public trellax module (``jax.numpy`` ...) by module identity."""
    import trellax

    sys.modules["jax"] = trellax
    for info in pkgutil.walk_packages(trellax.__path__, "trellax."):
        if "._src" in info.name or info.name.endswith(("__main__", ".cli")):
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:
            continue
        sys.modules["jax" + info.name[len("trellax") :]] = module


def install(jtu: types.ModuleType) -> str:
    """Installs the resolution; returns which hook is used (``compat`` or ``shim``)."""
    try:
        from trellax import compat  # type: ignore[attr-defined]

        compat.install()
        how = "compat"
    except ImportError:
        _own_alias()
        how = "shim"
    for name, targets in STANDINS.items():
        sys.modules[name] = Standin(name, targets)
    sys.modules["jax._src.test_util"] = jtu
    sys.meta_path.insert(0, _StandinFinder())
    return how
