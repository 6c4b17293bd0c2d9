"""Which trellax module stands for which module of JAX, Flax, optax and chex.

``resolve(name)`` answers for one dotted module name: a trellax module's name, ``REAL`` (leave the
import to Python: the real package is installed), ``REAL_FLAX`` (the real Flax's source file of that
name, run under that name on trellax: ``flax.nnx`` and the few ``flax.*`` modules it needs that
``trellax.flax`` lacks), ``EMPTY`` (a package with no module of its own, kept so that its mapped
children can be imported) or ``MISSING`` (trellax has no counterpart).
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
from typing import Final

#: The JAX release whose public API trellax follows (``jax.__version__`` under the hook).
JAX_VERSION: Final = "0.10.2"

#: Top-level packages the hook answers for.
FAMILIES: Final = ("jax", "flax", "optax", "chex")

REAL: Final = "<real package>"
REAL_FLAX: Final = "<real flax file>"
EMPTY: Final = "<empty package>"
MISSING: Final = "<missing>"

# Modules of trellax that have no JAX namesake: ``import jax.optim`` fails as it does with JAX.
_TRELLAX_ONLY: Final = frozenset({"_src", "cli", "compat", "flax", "optim", "report"})

# Packages that trellax replaces only when the real one is not installed, and by what.
_FALLBACKS: Final[dict[str, str | None]] = {"optax": "trellax.optim", "chex": None}


def real_package_installed(top: str) -> bool:
    """Whether ``top`` can be imported from ``sys.path`` (without importing it)."""
    return importlib.machinery.PathFinder.find_spec(top) is not None


def real_flax_dir() -> str | None:
    """The folder of the installed real Flax package (found without importing it), or None.

    Only Flax 0.12.8's pure-Python modules are run from it (``flax.nnx`` first of all); its
    ``flax/__init__.py`` never runs: ``flax`` stays ``trellax.flax``.
    """
    spec = importlib.machinery.PathFinder.find_spec("flax")
    locations = None if spec is None else spec.submodule_search_locations
    return None if not locations else str(next(iter(locations)))


def real_flax_file(parts: list[str]) -> str | None:
    """The source file of the real Flax's module ``flax.<parts>`` (a package's ``__init__.py``),
    or None when real Flax is not installed or has no such module."""
    root = real_flax_dir()
    if root is None:
        return None
    base = os.path.join(root, *parts)
    for candidate in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(candidate):
            return candidate
    return None


def trellax_module_exists(name: str) -> bool:
    """Whether the trellax module ``name`` can be imported (its parents are imported to look)."""
    try:
        return importlib.util.find_spec(name) is not None
    except ImportError:  # a parent package is missing
        return False


def resolve(name: str) -> str:
    """The trellax module that stands for module ``name`` (or ``REAL``, ``EMPTY``, ``MISSING``)."""
    top, _, rest = name.partition(".")
    parts = rest.split(".") if rest else []
    if top == "jax":
        if parts and parts[0] == "_src":  # JAX internals: only the stand-ins that exist
            return ".".join(["trellax._src.compat.jax_src", *parts[1:]])
        if parts and parts[0] in _TRELLAX_ONLY:
            return MISSING
        if rest == "lib":  # only jaxlib's version (the hook sets it): trellax has no jaxlib
            return EMPTY
        return "trellax" + (f".{rest}" if rest else "")
    if top == "flax":
        if parts and parts[0] == "linen":
            return ".".join(["trellax.nn", *parts[1:]])
        target = ".".join(["trellax.flax", *parts])
        if not parts and not trellax_module_exists(target):
            return EMPTY  # ``import flax.linen`` needs a parent even before trellax.flax exists
        # flax.nnx (and what it needs beyond trellax.flax) is the real Flax's, run on trellax.
        if (
            parts
            and (parts[0] == "nnx" or not trellax_module_exists(target))
            and real_flax_file(parts) is not None
        ):
            return REAL_FLAX
        return target
    if top in _FALLBACKS:
        if real_package_installed(top):
            return REAL
        base = _FALLBACKS[top]
        if base is None:
            return MISSING
        return ".".join([base, *parts])
    raise ValueError(f"{name!r} is not in a family the compat hook maps ({', '.join(FAMILIES)})")


def in_families(name: str) -> bool:
    """Whether ``name`` is one of the mapped packages or a module inside one."""
    return name.partition(".")[0] in FAMILIES


def missing_message(name: str) -> str:
    """The plain error text for a module or attribute that trellax lacks."""
    top = name.partition(".")[0]
    if name == "flax.nnx" or name.startswith("flax.nnx."):
        return (
            f"trellax has no counterpart of {name}: install the real flax (pip install "
            "'trellax[nnx]' and pip install --no-deps flax==0.12.8; see docs/compat.md) to run "
            "flax.nnx on trellax"
        )
    if top in _FALLBACKS and _FALLBACKS[top] is None and not real_package_installed(top):
        return (
            f"trellax has no counterpart of {name}: install the real {top} "
            f"(pip install --no-deps {top}; see docs/compat.md) to use it on trellax"
        )
    return f"trellax has no counterpart of {name} yet"
