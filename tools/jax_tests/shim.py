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
from pathlib import Path
from typing import Any

# The trellax modules that hold the counterparts of JAX's internal modules (searched in order).
STANDINS: dict[str, tuple[str, ...]] = {
    "jax._src": ("trellax._src",),
    "jax._src.api": ("trellax", "trellax._src.api.api", "trellax._src.compat.jax_src.api"),
    "jax._src.api_util": (),
    "jax._src.config": (
        "trellax._src.config.jax_option_flags",
        "trellax._src.config.jax_flags",
        "trellax",
        "trellax:config",
        "trellax._src.config.flags",
    ),
    "jax._src.core": ("trellax._src.core.core", "trellax.errors", "trellax.ref"),
    "jax._src.errors": ("trellax.errors",),
    "jax._src.typing": ("trellax.typing", "trellax._src.core.typing"),
    "jax._src.debugging": ("trellax.debug",),
    "jax._src.dispatch": ("trellax._src.compat.jax_src.dispatch",),
    # JAX's module of its public lax.linalg.qdwh
    "jax._src.tpu.linalg.qdwh": ("trellax.lax.linalg",),
    "jax._src.dtypes": ("trellax._src.compat.jax_src.dtypes",),
    "jax._src.custom_derivatives": ("trellax._src.compat.jax_src.custom_derivatives",),
    "jax._src.tree_util": ("trellax.tree_util", "trellax._src.tree.tree_util"),
    "jax._src.util": (),
    "jax._src.lib": (),
    "jax._src.lax": ("trellax.lax",),
    "jax._src.lax.lax": ("trellax.lax", "trellax._src.lax"),
    "jax._src.lax.parallel": ("trellax.lax",),
    "jax._src.random": (
        "trellax._src.random.keys",
        "trellax.random",
        "trellax._src.compat.jax_src.random.prng",
    ),
    "jax._src.random.prng": ("trellax._src.compat.jax_src.random.prng", "trellax.random"),
    "jax._src.random.core": ("trellax._src.compat.jax_src.random.core", "trellax.random"),
    "jax._src.random.threefry2x32": ("trellax._src.compat.jax_src.random.threefry2x32",),
    "jax._src.literals": ("trellax._src.compat.jax_src.literals",),
    "jax._src.deprecations": ("trellax._src.compat.jax_src.deprecations",),
    "jax._src.array": (),
    "jax._src.sharding_impls": ("trellax.sharding",),
    "jax.interpreters": (),
    "jax.interpreters.batching": (
        "trellax.interpreters.batching",
        "trellax._src.interpreters.batching",
    ),
    "jax.interpreters.ad": ("trellax.interpreters.ad", "trellax._src.interpreters.ad"),
    "jax.interpreters.mlir": ("trellax.interpreters.mlir",),
    "jax._src.interpreters.batching": (
        "trellax.interpreters.batching",
        "trellax._src.interpreters.batching",
    ),
    "jax._src.interpreters.mlir": ("trellax.interpreters.mlir",),
}


def _debug_print(*args: Any, **kwargs: Any) -> Any:
    import trellax.debug

    return trellax.debug.print(*args, **kwargs)


VALUES: dict[str, dict[str, Any]] = {
    # debugging names only (JAX's error messages); trellax's custom functions take none
    "jax._src.api_util": {"debug_info": lambda *args, **kwargs: None},
    "jax._src.lib": {"jaxlib_extension_version": 10**6, "version": (0, 10, 2)},
    # jax.debug.print under its internal name; the runtime-token table the tests reset (trellax
    # runs effects synchronously: there is nothing to clear)
    "jax._src.debugging": {"debug_print": _debug_print},
    "jax._src.dispatch": {"runtime_tokens": types.SimpleNamespace(clear=lambda: None)},
    # JAX's internal helper: f applied to each tuple of the zipped sequences, for its effects
    "jax._src.util": {
        "foreach": lambda f, *seqs: [f(*a) for a in zip(*seqs, strict=True)] and None
    },
}


# Used only when trellax lacks the name (so "before" runs of the harness can start at all).
def _placeholder(name: str, base: type) -> type:
    """A class trellax does not have, so that a module-level alias in a test file imports."""
    return type(name, (base,), {"__doc__": f"harness placeholder: trellax has no {name}"})


def _jax_dtype(x: Any, *, canonicalize: bool = False) -> Any:
    """``jax._src.dtypes.dtype``: the dtype of a value or dtype-like (Python types: 64-bit)."""
    import numpy as np

    from trellax import dtypes

    py = {bool: "bool", int: "int64", float: "float64", complex: "complex128"}
    if x is None:
        raise ValueError(f"Invalid argument to dtype: {x}.")
    if isinstance(x, type) and x in py:
        d = np.dtype(py[x])
    elif type(x) in py:
        d = np.dtype(py[type(x)])
    elif hasattr(x, "dtype") and not isinstance(x, type):
        d = x.dtype
    else:
        d = np.dtype(x)
    return dtypes.canonicalize_dtype(d) if canonicalize else d


def _default_types() -> dict[str, Any]:
    import numpy as np

    from trellax import dtypes

    return {
        "b": lambda: np.dtype(bool),
        "i": dtypes.default_int_dtype,
        "u": dtypes.default_uint_dtype,
        "f": dtypes.default_float_dtype,
        "c": dtypes.default_complex_dtype,
    }


#: ``dtypes.register_canonicalize_value_handler(type, handler)`` of a test module (its custom
#: array types): recorded here; trellax consults no such table.
CANONICALIZE_VALUE_HANDLERS: dict[type, Any] = {}

FALLBACKS: dict[str, dict[str, Any]] = {
    "jax._src.dtypes": {
        "dtype": _jax_dtype,
        "default_types": _default_types(),
        "register_canonicalize_value_handler": CANONICALIZE_VALUE_HANDLERS.__setitem__,
    },
    "jax._src.config": {"parse_flags_with_absl": lambda: None},
    "jax._src.literals": {
        "TypedInt": _placeholder("TypedInt", int),
        "TypedFloat": _placeholder("TypedFloat", float),
        "TypedComplex": _placeholder("TypedComplex", complex),
        "TypedNdArray": _placeholder("TypedNdArray", object),
    },
}


class Missing(tuple):  # type: ignore[type-arg]
    """A name trellax lacks, met while a test module is defined: a tuple holding one element
    (so a parameter list built from it has a case, and the file still imports) that raises when
    used, so the tests that need it fail."""

    def __new__(cls, name: str) -> Missing:
        self = super().__new__(cls, (f"<missing {name}>",))
        self.__dict__["name"] = name
        return self

    def _fail(self, *args: Any, **kwargs: Any) -> Any:
        raise AttributeError(f"trellax has no counterpart of {self.__dict__['name']}")

    __call__ = _fail

    def __mro_entries__(self, bases: tuple[Any, ...]) -> tuple[type, ...]:
        # a test module's class derived from a missing one (``class FooTy(dtypes.ExtendedDType)``)
        # is defined on a placeholder base, so the rest of the module imports
        return (_placeholder(self.__dict__["name"].rpartition(".")[2], object),)

    def __getattr__(self, attr: str) -> Any:
        # a missing module's attribute is missing too (``parallel.psum`` of a missing module)
        if attr in ("__name__", "__qualname__"):
            return self.__dict__["name"].rpartition(".")[2]
        if attr.startswith("__"):
            raise AttributeError(attr)
        return Missing(f"{self.__dict__['name']}.{attr}")

    def __bool__(self) -> bool:
        return self._fail()  # type: ignore[no-any-return]

    def __repr__(self) -> str:
        return f"<missing {self.__dict__['name']}>"


class Standin(types.ModuleType):
    """A JAX internal module answered from trellax modules (see the module doc)."""

    def __init__(self, name: str, targets: Sequence[str]) -> None:
        super().__init__(name)
        if name.startswith("jax._src."):  # trellax's own stand-in module comes first
            targets = (f"trellax._src.compat.jax_src.{name[len('jax._src.') :]}", *targets)
        self.__dict__["_targets"] = tuple(targets)
        self.__dict__["__path__"] = []
        self.__dict__.update(VALUES.get(name, {}))

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__"):
            raise AttributeError(attr)
        child = f"{self.__name__}.{attr}"
        if child in sys.modules:
            return sys.modules[child]
        if _support_file(child).exists():
            return importlib.import_module(child)
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
            if modname.startswith("trellax._src.compat.jax_src") and hasattr(module, "__path__"):
                # a stand-in package's submodule (``jax._src.lax.control_flow``)
                try:
                    return importlib.import_module(f"{modname}.{attr}")
                except ImportError:
                    pass
        fallback = FALLBACKS.get(self.__name__, {})
        if attr in fallback:
            return fallback[attr]
        return Missing(child)


def _support_file(module: str) -> Path:
    """Where ``run_jax_tests`` put one of JAX's test-support modules (the tests run there)."""
    return Path.cwd() / "_jax_support" / f"{module}.py"


class _StandinFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Any other ``jax._src.*`` / ``jax.interpreters.*`` module: an empty stand-in."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        support = _support_file(fullname)
        if support.exists():  # JAX's own test-support module (``run_jax_tests.SUPPORT``)
            return importlib.util.spec_from_file_location(fullname, support)
        if fullname.startswith(("jax._src.", "jax.interpreters.")):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        if fullname.startswith("jax.") and not _trellax_has(fullname):
            # a public module trellax lacks: its tests fail, the rest of the file runs
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
    # ``import jax._src.util as u`` reads the attribute ``_src`` of ``jax``: set each stand-in
    # on its parent, as importing a submodule does
    import jax  # type: ignore[import-not-found]  # the alias module installed above

    for name in [*STANDINS, "jax._src.test_util"]:
        parent, _, child = name.rpartition(".")
        module = sys.modules.get(parent)
        if module is not None:
            module.__dict__[child] = sys.modules[name]
    del jax
    sys.meta_path.insert(0, _StandinFinder())
    return how
