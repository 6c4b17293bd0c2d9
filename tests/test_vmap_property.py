"""Property test over an op catalogue: ``vmap(f, in_axes, out_axes)(*xs)`` equals stacking ``f``
over the slices, for random in_axes (ints, negative ints, None per argument), random out_axes and
random batch sizes, eagerly and under ``jit``; and the batched program has no per-example loop
(its equation count does not depend on the batch size)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import trellax
import trellax.numpy as tnp
from trellax import lax
from trellax.scipy.special import logsumexp
from trellax.tree_util import tree_leaves

#: An argument: (shape, kind); kind "f" normal floats, "iN" ints in [0, N), "b" booleans.
Arg = tuple[tuple[int, ...], str]

F34: Arg = ((3, 4), "f")
F4: Arg = ((4,), "f")
F33: Arg = ((3, 3), "f")


def _spd(m: Any) -> Any:
    return m @ m.T + 3.0 * tnp.eye(3)


def _while(x: Any) -> Any:
    def cond(c: Any) -> Any:
        return c[0] < (tnp.abs(x[0]) * 3).astype(tnp.int32)

    return lax.while_loop(cond, lambda c: (c[0] + 1, c[1] * 0.5 + x), (0, x))


OPS: dict[str, tuple[Callable[..., Any], list[Arg]]] = {
    # elementwise
    "sin": (tnp.sin, [F34]),
    "exp_tanh": (lambda x: tnp.exp(tnp.tanh(x)), [F34]),
    "sign_abs": (lambda x: tnp.sign(x) * tnp.sqrt(tnp.abs(x)), [F34]),
    "add": (tnp.add, [F34, F34]),
    "add_row": (tnp.add, [F34, F4]),
    "arctan2": (tnp.arctan2, [F34, F34]),
    "where": (lambda x, y: tnp.where(x > 0, x, y), [F34, F34]),
    "clip_round": (lambda x: tnp.round(tnp.clip(x, -0.5, 0.5), 1), [F34]),
    "int_ops": (
        lambda i, j: (i // (j + 1), i % (j + 1), i * j - 7),
        [((3, 4), "i9"), ((3, 4), "i4")],
    ),
    "bool_ops": (lambda b, x: tnp.where(b & (x > 0), 1, 2), [((3, 4), "b"), F34]),
    "astype": (lambda x: (x * 3).astype(tnp.int8), [F34]),
    # reductions and scans
    "sum0": (lambda x: x.sum(0), [F34]),
    "max1": (lambda x: x.max(1), [F34]),
    "mean_var": (lambda x: (x.mean(), x.var(axis=0)), [F34]),
    "argmax": (lambda x: tnp.argmax(x, axis=0), [F34]),
    "prod": (lambda x: tnp.prod(x, axis=1), [F34]),
    "cumsum": (lambda x: tnp.cumsum(x, axis=1), [F34]),
    "cummax": (lambda x: lax.cummax(x, axis=0), [F34]),
    "logsumexp": (lambda x: logsumexp(x, axis=1), [F34]),
    "any_all": (lambda b: (b.any(0), b.all()), [((3, 4), "b")]),
    # shapes
    "transpose": (lambda x: x.T, [F34]),
    "reshape": (lambda x: x.reshape(2, 6), [F34]),
    "ravel": (tnp.ravel, [F34]),
    "expand": (lambda x: x[None, :, None], [F34]),
    "concat": (lambda x, y: tnp.concatenate([x, y * 2]), [F34, F34]),
    "stack": (lambda x, y: tnp.stack([x, y], axis=1), [F4, F4]),
    "tile_repeat": (lambda x: (tnp.tile(x, 2), tnp.repeat(x, 2)), [F4]),
    "pad": (lambda x: tnp.pad(x, ((1, 0), (0, 2)), constant_values=-1.0), [F34]),
    "flip_roll": (lambda x: tnp.roll(tnp.flip(x, 1), 1, axis=0), [F34]),
    "slice": (lambda x: x[1:, ::2], [F34]),
    "swapaxes": (lambda x: tnp.swapaxes(x[None], 0, 2), [F34]),
    "broadcast": (lambda x: tnp.broadcast_to(x, (2, 4)), [F4]),
    # indexing
    "int_index": (lambda x: x[2, -1], [F34]),
    "gather": (lambda x, i: x[i], [F34, ((2,), "i3")]),
    "gather_col": (lambda x, i: x[:, i], [F34, ((5,), "i4")]),
    "take_along": (lambda x, i: tnp.take_along_axis(x, i, axis=1), [F34, ((3, 2), "i4")]),
    "scatter_add": (lambda x, i, u: x.at[i].add(u), [F34, ((2,), "i3"), ((2, 4), "f")]),
    "scatter_set": (lambda x, i: x.at[1, i].set(0.0), [F34, ((), "i4")]),
    "dynamic_slice": (lambda x, i: lax.dynamic_slice(x, (i, i), (2, 2)), [F34, ((), "i3")]),
    "dynamic_update": (
        lambda x, u, i: lax.dynamic_update_slice(x, u, (i, 0)),
        [F34, ((2, 4), "f"), ((), "i3")],
    ),
    # contractions, sorting, linear algebra, fft, windows
    "matmul": (lambda x, y: x @ y, [F34, ((4, 2), "f")]),
    "matvec": (lambda x, v: x @ v, [F34, F4]),
    "einsum": (lambda x, y: tnp.einsum("ij,kj->ik", x, y), [F34, F34]),
    "outer": (tnp.outer, [F4, F4]),
    "sort": (lambda x: tnp.sort(x, axis=0), [F34]),
    "argsort": (lambda x: tnp.argsort(x, axis=1), [F34]),
    "top_k": (lambda x: lax.top_k(x, 2), [F34]),
    "inv": (lambda m: tnp.linalg.inv(_spd(m)), [F33]),
    "det_solve": (
        lambda m, v: (tnp.linalg.det(_spd(m)), tnp.linalg.solve(_spd(m), v)),
        [F33, ((3,), "f")],
    ),
    "cholesky": (lambda m: tnp.linalg.cholesky(_spd(m)), [F33]),
    "fft": (lambda x: tnp.fft.rfft(x), [F34]),
    "conv": (
        lambda x, w: lax.conv_general_dilated(x, w, (1,), "SAME"),
        [((1, 2, 5), "f"), ((3, 2, 2), "f")],
    ),
    "conv_groups": (
        lambda x, w: lax.conv_general_dilated(x, w, (2,), [(1, 1)], feature_group_count=2),
        [((2, 4, 5), "f"), ((4, 2, 3), "f")],
    ),
    "maxpool": (lambda x: lax.reduce_window(x, -tnp.inf, lax.max, (2, 2), (1, 2), "SAME"), [F34]),
    # control flow
    "cond": (lambda x: lax.cond(x.sum() > 0, lambda x: x * 2, tnp.sin, x), [F34]),
    "switch": (lambda i, x: lax.switch(i, [tnp.sin, tnp.cos, lambda x: -x], x), [((), "i3"), F4]),
    "while": (_while, [F4]),
    "scan": (lambda x: lax.scan(lambda c, r: (c + r, c * r), tnp.zeros(4), x), [F34]),
    "fori": (lambda x, n: lax.fori_loop(0, n, lambda i, c: c * 0.5 + x, x), [F4, ((), "i4")]),
    # autodiff inside
    "grad": (trellax.grad(lambda x, y: (tnp.tanh(x @ y) ** 2).sum()), [F34, ((4, 2), "f")]),
}

#: Ops whose (unbatched) program already holds a loop primitive.
LOOPS = {"while", "scan", "fori"}


def _make(arg: Arg, rng: np.random.Generator) -> np.ndarray:
    shape, kind = arg
    if kind == "f":
        return rng.normal(size=shape).astype(np.float32)
    if kind == "b":
        return rng.random(size=shape) < 0.5
    return rng.integers(0, int(kind[1:]), size=shape).astype(np.int32)


def _leaves(x: Any) -> list[np.ndarray]:
    return [np.asarray(leaf) for leaf in tree_leaves(x)]


@st.composite
def _cases(draw: st.DrawFn) -> tuple[str, list[int | None], int, int, int]:
    name = draw(st.sampled_from(sorted(OPS)))
    args = OPS[name][1]
    axes: list[int | None] = []
    for shape, _ in args:
        n = len(shape) + 1
        axes.append(draw(st.one_of(st.none(), st.integers(-n, n - 1))))
    if all(a is None for a in axes):
        axes[draw(st.integers(0, len(args) - 1))] = 0
    out_axis = draw(st.integers(-1, 1))
    size = draw(st.integers(1, 4))
    seed = draw(st.integers(0, 2**16))
    return name, axes, out_axis, size, seed


def _check(case: tuple[str, list[int | None], int, int, int], jit: bool) -> None:
    name, axes, out_axis, size, seed = case
    f, specs = OPS[name]
    rng = np.random.default_rng(seed)
    per = [[_make(s, rng) for s in specs] for _ in range(size)]
    # an unmapped argument is the same for every example
    for j, ax in enumerate(axes):
        if ax is None:
            for ex in per:
                ex[j] = per[0][j]
    args = [
        tnp.asarray(per[0][j]) if ax is None else tnp.asarray(np.stack([ex[j] for ex in per], ax))
        for j, ax in enumerate(axes)
    ]
    outs = [_leaves(f(*[tnp.asarray(a) for a in ex])) for ex in per]
    if out_axis > min(o.ndim for o in outs[0]):  # one int applies to every output leaf
        out_axis = 0
    want = [np.stack([o[k] for o in outs], axis=out_axis) for k in range(len(outs[0]))]
    g = trellax.vmap(f, in_axes=tuple(axes), out_axes=out_axis)
    got = _leaves((trellax.jit(g) if jit else g)(*args))
    assert len(got) == len(want)
    for a, b in zip(got, want):
        assert a.dtype == b.dtype and a.shape == b.shape, (name, axes, out_axis)
        np.testing.assert_allclose(a, b, rtol=2e-5, atol=2e-5, err_msg=f"{name} {axes} {out_axis}")


@settings(max_examples=120, deadline=None)
@given(_cases())
def test_vmap_equals_stacking_eager(case: tuple[str, list[int | None], int, int, int]) -> None:
    _check(case, jit=False)


@settings(max_examples=60, deadline=None)
@given(_cases())
def test_vmap_equals_stacking_under_jit(case: tuple[str, list[int | None], int, int, int]) -> None:
    _check(case, jit=True)


@pytest.mark.parametrize("name", sorted(OPS))
def test_every_op_batches_with_every_argument_mapped(name: str) -> None:
    """Each catalogue op once with all arguments mapped at axis 0 and once at their last axis."""
    specs = OPS[name][1]
    _check((name, [0] * len(specs), 0, 3, 1), jit=False)
    _check((name, [-1] * len(specs), -1, 2, 2), jit=True)


def _eqn_count(name: str, size: int) -> tuple[int, str]:
    f, specs = OPS[name]
    rng = np.random.default_rng(0)
    args = [tnp.asarray(np.stack([_make(s, rng) for _ in range(size)])) for s in specs]
    closed = trellax.make_jaxpr(trellax.vmap(f))(*args)
    return len(closed.jaxpr.eqns), str(closed)


@pytest.mark.parametrize("name", sorted(OPS))
def test_batched_program_has_no_per_example_loop(name: str) -> None:
    """The jaxpr of vmap(f) has as many equations for 2 examples as for 7, and gains no loop."""
    n2, text = _eqn_count(name, 2)
    n7, _ = _eqn_count(name, 7)
    assert n2 == n7, name
    if name not in LOOPS:
        assert "while[" not in text and "scan[" not in text, text
