"""pytest plugin of tools/run_flax_tests.py: Flax's test files run with ``jax``, ``flax`` (and
``optax``/``chex``, installed with ``--no-deps``) resolved by ``trellax.compat``.

Loaded with ``-p flax_harness_plugin`` before any test module is imported. Modules that trellax
does not provide but that Flax's test files import at their top (``flax.nnx``) become
placeholders whose every attribute raises ``NotImplementedError``: the file still runs, and only
the tests that use them fail, each with that message. (Flax's checkpoints_test.py reads one
fact from Orbax, the marker in its temporary directory names, which the placeholder keeps.)
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

import trellax.compat

trellax.compat.install()

PLACEHOLDERS = ("flax.nnx", "orbax", "orbax.checkpoint")


class _Placeholder(types.ModuleType):
    """A module trellax lacks: any attribute read says so."""

    def __getattr__(self, attr: str) -> Any:
        if attr.startswith("__") and attr.endswith("__"):
            raise AttributeError(attr)
        raise NotImplementedError(f"trellax has no counterpart of {self.__name__} ({attr})")


for _name in PLACEHOLDERS:
    try:
        importlib.import_module(_name)
    except ImportError:
        _module = _Placeholder(_name)
        sys.modules[_name] = _module
        _parent, _, _child = _name.rpartition(".")
        if _parent:
            sys.modules[_parent].__dict__[_child] = _module

if isinstance(sys.modules.get("orbax.checkpoint"), _Placeholder):
    from trellax._src.flax.training.checkpoints import ORBAX_TMP_DIR_SUFFIX

    sys.modules["orbax.checkpoint"].__dict__["utils"] = types.SimpleNamespace(
        TMP_DIR_SUFFIX=ORBAX_TMP_DIR_SUFFIX
    )
