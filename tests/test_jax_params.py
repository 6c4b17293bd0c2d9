"""Every keyword parameter of JAX 0.10.2's public functions is accepted by trellax's function of
the same name, and so are those of Flax's ``flax.linen`` classes and functions (``trellax.nn``)
and optax's functions (``trellax.optim``) (``tests/golden/jax_params.json``, from
``tools/gen_golden_jax_params.py``): a program that passes ``jnp.round(a=x)``,
``lax.reshape(operand=x, ...)`` or ``nn.Dense(features=3, use_bias=False)`` runs unchanged.
``KNOWN`` lists what trellax leaves out, with the reason."""

from __future__ import annotations

import importlib
import inspect
import json
import pathlib
from typing import Any

import pytest

_DATA = json.loads((pathlib.Path(__file__).parent / "golden" / "jax_params.json").read_text())
GOLDEN: dict[str, list[str]] = _DATA["params"]
#: the plain-value defaults (bools, numbers, strings, None, tuples of them) of each function
DEFAULTS: dict[str, dict[str, Any]] = _DATA["defaults"]
#: the names that can be passed by position, in order ("" for positional-only)
POSITIONAL: dict[str, list[str]] = _DATA["positional"]
#: functions whose positional order differs on purpose, with the reason
KNOWN_ORDER = {
    "flax.core:scan": "Flax's private _split_transpose/data_transform come before metadata_params",
    ".lax:conv_general_permutations": "an internal helper",
}
#: (function, parameter) whose default differs on purpose, with the reason
KNOWN_DEFAULTS = {
    ("flax.jax_utils:replicate", "axis_name"): "unused on one device; Flax's is a placeholder",
    ("flax.jax_utils:prefetch_to_device", "axis_name"): "unused on one device",
}

_UFUNC = (
    "the ufunc objects' call is the plain function, so JAX's out=None/where=None call keywords "
    "are not accepted (docs/jax_coverage.md: they cost ~12 % of an 8-element add)"
)
_UFUNCS = [
    "add",
    "bitwise_and",
    "bitwise_or",
    "bitwise_xor",
    "logaddexp",
    "logaddexp2",
    "logical_and",
    "logical_or",
    "logical_xor",
    "maximum",
    "minimum",
    "multiply",
    "negative",
    "subtract",
]
KNOWN: dict[str, tuple[set[str], str]] = {
    **{f".numpy:{name}": ({"out", "where"}, _UFUNC) for name in _UFUNCS},
    ":new_ref": ({"kind", "memory_space"}, "array references have one kind and memory here"),
    ":vmap": ({"sum_match"}, "an undocumented flag of JAX's batching internals"),
    ".lax:all_gather": ({"to"}, "varying/unvarying axis types are not modelled"),
    ".lax:conv_general_permutations": ({"dimension_numbers"}, "an internal helper"),
    "flax.core:scan": ({"_split_transpose", "data_transform"}, "Flax-internal scan options"),
}


def _accepts(fn: Any) -> tuple[set[str], bool] | None:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return None
    kinds = inspect.Parameter
    names = {
        p.name
        for p in sig.parameters.values()
        if p.kind in (kinds.POSITIONAL_OR_KEYWORD, kinds.KEYWORD_ONLY)
    }
    return names, any(p.kind == kinds.VAR_KEYWORD for p in sig.parameters.values())


#: where each golden prefix's counterparts live
MODULE = {"flax.linen": "trellax.nn", "optax": "trellax.optim"}


def _counterpart(prefix: str, name: str) -> Any:
    if prefix == ".Array":  # a method, looked up on an array
        return getattr(importlib.import_module("trellax.numpy").ones(2), name, None)
    if prefix.startswith("optax."):
        module = "trellax.optim." + prefix.split(".", 1)[1]
    elif prefix.startswith("jax."):
        module = "trellax." + prefix.split(".", 1)[1]
    elif prefix.startswith("flax.") and prefix != "flax.linen":
        module = "trellax." + prefix
    else:
        module = MODULE.get(prefix, "trellax" + prefix)
    try:
        return getattr(importlib.import_module(module), name, None)
    except ImportError:
        return None


@pytest.mark.parametrize("key", sorted(GOLDEN))
def test_keyword_parameters_of_jax_are_accepted(key: str) -> None:
    prefix, name = key.split(":")
    fn = _counterpart(prefix, name)
    if fn is None or (inspect.isclass(fn) and not prefix.startswith("flax")):
        pytest.skip("trellax has no function of this name (tests/test_jax_names.py)")
    accepted = _accepts(fn)
    if accepted is None or accepted[1]:
        return  # no readable signature, or **kwargs
    missing = set(GOLDEN[key]) - accepted[0]
    known, _ = KNOWN.get(key, (set(), ""))
    assert missing == known, f"{prefix}.{name}'s counterpart lacks {sorted(missing - known)}" + (
        f"; no longer lacks {sorted(known - missing)}: update KNOWN" if known - missing else ""
    )


@pytest.mark.parametrize("key", sorted(k for k in DEFAULTS if DEFAULTS[k]))
def test_plain_defaults_are_jax_s(key: str) -> None:
    """A different default is a silently different result (``rademacher(dtype=None)`` was
    float32, JAX's int32): each plain default equals JAX's, Flax's or optax's."""
    prefix, name = key.split(":")
    fn = _counterpart(prefix, name)
    if fn is None or (inspect.isclass(fn) and not prefix.startswith("flax")):
        pytest.skip("trellax has no function of this name (tests/test_jax_names.py)")
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        pytest.skip("no readable signature")
    for param, want in DEFAULTS[key].items():
        if param not in params or (key, param) in KNOWN_DEFAULTS:
            continue
        got = params[param].default
        got = list(got) if type(got) is tuple else got
        assert (type(got), got) == (type(want), want), f"{param}: {got!r}, JAX's {want!r}"


@pytest.mark.parametrize(
    "key", sorted(k for k in POSITIONAL if POSITIONAL[k] and k not in KNOWN_ORDER)
)
def test_positional_order_is_jax_s(key: str) -> None:
    """An argument passed by position lands on the parameter JAX's function gives it (a
    different order would take ``full_like(x, v, dtype, shape)`` as something else): where both
    accept a position by name, the names agree. trellax may take fewer positions (Flax's
    ``parent``/``name``, trailing ``out_sharding``: keyword-only here) but not other ones."""
    prefix, name = key.split(":")
    fn = _counterpart(prefix, name)
    if fn is None or (inspect.isclass(fn) and not prefix.startswith("flax")):
        pytest.skip("trellax has no function of this name (tests/test_jax_names.py)")
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        pytest.skip("no readable signature")
    kinds = inspect.Parameter
    mine = []
    for p in params:
        if p.kind == kinds.VAR_POSITIONAL:
            return  # *args takes any later position
        if p.kind not in (kinds.POSITIONAL_ONLY, kinds.POSITIONAL_OR_KEYWORD):
            break
        mine.append("" if p.kind == kinds.POSITIONAL_ONLY else p.name)
    for i, (want, got) in enumerate(zip(POSITIONAL[key], mine)):
        assert not want or not got or want == got, f"position {i}: {got!r}, JAX's {want!r}"
