"""``einsum`` and ``einsum_path``: Einstein summation as a sequence of ``dot_general`` calls.

The operands are promoted together (``einsum('i,i', int8, float16)`` is float16, weak when all
operands are weak). A contraction order is chosen on *shapes only* with NumPy's
``einsum_path`` (``optimize="greedy"`` by default, ``"optimal"``, ``False`` for left to right,
or an explicit path); then each pairwise contraction is one ``dot_general`` (shared labels that
are still needed become batch dimensions), labels used by a single operand are summed out first,
repeated labels within one operand take its diagonal, and a final transpose orders the output.
"""

from __future__ import annotations

import functools
import string
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.api.api import run_cached
from trellax._src.core.basearray import Array
from trellax._src.core.out_sharding import check_out_sharding
from trellax._src.dtypes import dtypes
from trellax._src.lax.reductions import dot_general, reduce_or, reduce_sum
from trellax._src.lax.shapes import broadcast_to
from trellax._src.lax.sharding_rules import with_out_sharding
from trellax._src.lax.structural import _convert, reshape, slice, transpose
from trellax._src.numpy.util import promote_args_keep_shapes

ArrayLike = Any
_LETTERS = set(string.ascii_letters)


def _parse(subscripts: str, shapes: Sequence[tuple[int, ...]]) -> tuple[list[str], str]:
    """Input label strings (ellipses expanded to fresh labels) and the output labels."""
    labels, out = _parse_cached(subscripts, tuple(tuple(s) for s in shapes))
    return list(labels), out


@functools.lru_cache(maxsize=512)
def _parse_cached(
    subscripts: str, shapes: tuple[tuple[int, ...], ...]
) -> tuple[tuple[str, ...], str]:
    s = _letters_only(subscripts.replace(" ", ""))
    if "->" in s:
        lhs, out = s.split("->")
        explicit = True
    else:
        lhs, out, explicit = s, "", False
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(
            f"einsum: {len(terms)} operand subscripts for {len(shapes)} operands in {subscripts!r}"
        )
    used = {c for c in s if c in _LETTERS}
    fresh = iter(c for c in string.ascii_letters if c not in used)
    ell_len = 0
    for t, shape in zip(terms, shapes):
        if "..." in t:
            ell_len = max(ell_len, len(shape) - (len(t) - 3))
    ell = "".join(next(fresh) for _ in range(ell_len))
    labels = []
    for t, shape in zip(terms, shapes):
        bad = [c for c in t.replace("...", "") if c not in _LETTERS]
        if bad:
            raise ValueError(f"einsum: invalid subscript characters {bad} in {subscripts!r}")
        if "..." in t:
            n = len(shape) - (len(t) - 3)
            t = t.replace("...", ell[ell_len - n :] if n else "")
        if len(t) != len(shape):
            raise ValueError(
                f"einsum: operand with shape {shape} has {len(shape)} dimensions but subscripts "
                f"{t!r} name {len(t)}"
            )
        labels.append(t)
    if explicit:
        out = out.replace("...", ell)
        for c in out:
            if not any(c in t for t in labels):
                raise ValueError(f"einsum: output label {c!r} does not appear in the inputs")
        if len(set(out)) != len(out):
            raise ValueError(f"einsum: output subscript {out!r} repeats a label")
    else:
        counts: dict[str, int] = {}
        for t in labels:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, k in counts.items() if k == 1 and c not in ell))
    return tuple(labels), out


def _letters_only(s: str) -> str:
    """``s`` with every label that is not an ASCII letter (a digit, a Unicode letter: JAX's
    einsum takes any character) renamed to a letter ``s`` does not use."""
    others = sorted({c for c in s if c not in _LETTERS and c not in ".,->"})
    if not others:
        return s
    free = [c for c in string.ascii_letters if c not in s]
    if len(free) < len(others):
        raise ValueError(f"einsum: more than {len(_LETTERS)} distinct labels in {s!r}")
    return s.translate({ord(c): f for c, f in zip(others, free)})


def _check_sizes(labels: Sequence[str], shapes: Sequence[tuple[int, ...]]) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for i, (t, shape) in enumerate(zip(labels, shapes)):
        for c, n in zip(t, shape):
            if c in sizes and sizes[c] != n and n != 1 and sizes[c] != 1:
                raise ValueError(
                    f"Size of label '{c}' for operand {i} ({n}) does not match previous terms "
                    f"({sizes[c]})."
                )
            if c not in sizes or sizes[c] == 1:  # a size 1 takes the other's size (0 too)
                sizes[c] = n
    return sizes


def _path(
    labels: Sequence[str], out: str, shapes: Sequence[tuple[int, ...]], optimize: Any
) -> list[tuple[int, ...]]:
    n = len(labels)
    if n == 1:
        return [(0,)]
    if optimize is False or optimize is None or n == 2:
        return [(0, 1)] * (n - 1)
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        return [tuple(p) for p in optimize[1:]]
    if isinstance(optimize, (list, tuple)):
        return [tuple(p) for p in optimize]
    strategy = "optimal" if optimize == "optimal" else "greedy"
    return list(_cached_path(",".join(labels) + "->" + out, tuple(map(tuple, shapes)), strategy))


@functools.lru_cache(maxsize=512)
def _cached_path(
    expression: str, shapes: tuple[tuple[int, ...], ...], strategy: str
) -> tuple[tuple[int, ...], ...]:
    """NumPy's contraction order for these shapes (computed on zero-strided dummies, cached)."""
    dummies = [
        np.lib.stride_tricks.as_strided(np.zeros((), np.float64), shape=s, strides=(0,) * len(s))
        for s in shapes
    ]
    path, _ = np.einsum_path(expression, *dummies, optimize=strategy)
    return tuple(tuple(p) for p in path[1:])


def einsum_path(
    subscripts: str, /, *operands: ArrayLike, optimize: Any = "auto"
) -> tuple[list[Any], str]:
    """The contraction order :func:`einsum` would use, and NumPy's description of it (computed
    from the operands' shapes only)."""
    shapes = [tuple(np.shape(o)) for o in operands]
    labels, out = _parse(subscripts, shapes)
    strategy = "optimal" if optimize == "optimal" else "greedy"
    dummies = [
        np.lib.stride_tricks.as_strided(np.zeros((), np.float64), shape=s, strides=(0,) * len(s))
        for s in shapes
    ]
    path, text = np.einsum_path(",".join(labels) + "->" + out, *dummies, optimize=strategy)
    return list(path), str(text)


def _sum_out(x: Array, labels: str, keep: set[str]) -> tuple[Array, str]:
    axes = tuple(i for i, c in enumerate(labels) if c not in keep)
    if not axes:
        return x, labels
    red = reduce_or if x.dtype == dtypes.bool_ else reduce_sum
    return red(x, axes), "".join(c for c in labels if c in keep)


def _diagonal(x: Array, labels: str) -> tuple[Array, str]:
    """Takes diagonals until every label occurs once in ``labels``."""
    while len(set(labels)) != len(labels):
        c = next(c for c in labels if labels.count(c) > 1)
        p = labels.index(c)
        q = labels.index(c, p + 1)
        rest = [i for i in range(x.ndim) if i not in (p, q)]
        x = transpose(x, (*rest, p, q))
        n = x.shape[-1]
        lead = x.shape[:-2]
        # the diagonal of an (n, n) block is every (n+1)-th element of its flattening
        flat = reshape(x, (*lead, n * n))
        x = slice(flat, (0,) * (len(lead) + 1), (*lead, n * n), (1,) * len(lead) + (n + 1,))
        labels = "".join(labels[i] for i in rest) + c
    return x, labels


def _contract(
    x: Array,
    lx: str,
    y: Array,
    ly: str,
    keep: set[str],
    precision: Any,
    preferred: Any,
    dot: Callable[..., Array] | None = None,
) -> tuple[Array, str]:
    shared = [c for c in lx if c in ly]
    batch = [c for c in shared if c in keep]
    contract = [c for c in shared if c not in keep]
    dn = (
        (tuple(lx.index(c) for c in contract), tuple(ly.index(c) for c in contract)),
        (tuple(lx.index(c) for c in batch), tuple(ly.index(c) for c in batch)),
    )
    if dot is None:
        out = dot_general(x, y, dn, precision, preferred)
    else:
        out = dot(x, y, dn, precision, preferred_element_type=preferred)
    free_x = [c for c in lx if c not in shared]
    free_y = [c for c in ly if c not in shared]
    return out, "".join(batch + free_x + free_y)


def einsum(
    subscripts: str,
    /,
    *operands: ArrayLike,
    out: None = None,
    optimize: Any = "auto",
    precision: Any = None,
    preferred_element_type: Any = None,
    out_sharding: Any = None,
    _dot_general: Callable[..., Array] | None = None,
) -> Array:
    """Einstein summation: ``einsum('ij,jk->ik', a, b)`` is ``a @ b``.

    Operands are promoted together; ``preferred_element_type`` sets the accumulation and result
    dtype (``einsum('i,i', int8, int8, preferred_element_type='int32')``). ``optimize`` picks
    the contraction order (see the module docstring). ``_dot_general`` (JAX's hook, used by
    Flax's fp8 layers) replaces ``lax.dot_general`` in the pairwise contractions; it is called
    as ``_dot_general(x, y, dimension_numbers, precision, preferred_element_type=dtype)`` with
    the result dtype when none is preferred, as JAX calls it.

    >>> import trellax.numpy as tnp
    >>> einsum("ii", tnp.asarray([[1, 2], [3, 4]]))
    Array(5, dtype=int32)
    """
    if out_sharding is not None:
        check_out_sharding("numpy.einsum", out_sharding)
        return with_out_sharding(
            lambda: einsum(
                subscripts,
                *operands,
                out=out,
                optimize=optimize,
                precision=precision,
                preferred_element_type=preferred_element_type,
                _dot_general=_dot_general,
            ),
            out_sharding,
        )
    if out is not None:
        raise NotImplementedError("The 'out' argument to trellax.numpy.einsum is not supported.")
    if not isinstance(subscripts, str):
        raise TypeError(
            "einsum: the subscripts must be a string (the sublist form is not supported)"
        )
    if not operands:
        raise ValueError("einsum: at least one operand is required")
    arrays = promote_args_keep_shapes("einsum", *operands)
    pref = None
    if preferred_element_type is not None:
        pref = dtypes.check_user_dtype(preferred_element_type, "einsum")
    if _dot_general is not None:  # a user function (often a new closure per call): not cached
        if pref is None:
            pref = dtypes.result_type(*arrays)
        return _einsum(subscripts, arrays, optimize, precision, pref, _dot_general)
    if not isinstance(optimize, (str, bool)):
        return _einsum(subscripts, arrays, optimize, precision, pref)

    def program(*xs: Array) -> Array:
        return _einsum(subscripts, xs, optimize, precision, pref)

    # Planning (parsing, the contraction path) dominates small einsums: run it once per signature.
    result: Array = run_cached(("einsum", subscripts, optimize, pref), program, arrays)
    return result


def _einsum(
    subscripts: str,
    arrays: Sequence[Array],
    optimize: Any,
    precision: Any,
    pref: Any,
    dot: Callable[..., Array] | None = None,
) -> Array:
    shapes = [tuple(a.shape) for a in arrays]
    labels, out_labels = _parse(subscripts, shapes)
    sizes = _check_sizes(labels, shapes)
    ops: list[tuple[Array, str]] = []
    for a, t in zip(arrays, labels):
        full = tuple(sizes[c] for c in t)
        if tuple(a.shape) != full:  # a size-1 axis broadcasts against its label's size (JAX)
            a = broadcast_to(a, full)
        ops.append(_diagonal(a, t))
    for pair in _path([t for _, t in ops], out_labels, [tuple(a.shape) for a, _ in ops], optimize):
        picked = [ops[i] for i in pair]
        ops = [o for i, o in enumerate(ops) if i not in pair]
        others = set(out_labels).union(*[set(t) for _, t in ops])
        if len(picked) == 1:
            x, lx = picked[0]
            ops.append(_sum_out(x, lx, others))
            continue
        x, lx = picked[0]
        for k in range(1, len(picked)):  # explicit paths may name more than two operands
            y, ly = picked[k]
            later = others.union(*[set(t) for _, t in picked[k + 1 :]])
            x, lx = _sum_out(x, lx, later | set(ly))
            y, ly = _sum_out(y, ly, later | set(lx))
            x, lx = _contract(x, lx, y, ly, later, precision, pref, dot)
        ops.append((x, lx))
    (result, labels_left), *rest = ops
    for z, lz in rest:  # a path that left operands unconsumed: outer products
        result, labels_left = _contract(
            result, labels_left, z, lz, set(out_labels), precision, pref, dot
        )
    result, labels_left = _sum_out(result, labels_left, set(out_labels))
    if labels_left != out_labels:
        result = transpose(result, tuple(labels_left.index(c) for c in out_labels))
    if pref is not None and result.dtype != pref:
        result = _convert(result, pref, False)
    return result
