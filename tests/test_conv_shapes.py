"""Convolution shapes at the edges of the blocked kernels (``backend/conv_gemm.py``): batch 1,
1x1 kernels, odd image and kernel sizes, depthwise groups, 1-d and 3-d convolutions, both
layouts, ``batch_group_count``. Values against a direct float64 loop over kernel offsets;
gradients against finite differences (float64) and against the gradient of the reference.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

import trellax
import trellax.lax as lax
import trellax.numpy as tnp
from trellax.test_util import check_grads

RNG = np.random.default_rng(2023)


def _reference(
    x: np.ndarray, w: np.ndarray, strides: Any, pads: Any, rdil: Any, g: int
) -> np.ndarray:
    """Channels-first convolution (``(N, C, *sp)`` with ``(O, C/g, *k)``) in float64."""
    x = x.astype(np.float64)
    w = w.astype(np.float64)
    nsp = x.ndim - 2
    x = np.pad(x, [(0, 0), (0, 0), *pads])
    o, cg = w.shape[:2]
    ksp = w.shape[2:]
    out_sp = [(x.shape[2 + i] - ((ksp[i] - 1) * rdil[i] + 1)) // strides[i] + 1 for i in range(nsp)]
    out = np.zeros((x.shape[0], o, *out_sp))
    og = o // g
    for off in itertools.product(*(range(k) for k in ksp)):
        sl = tuple(
            slice(k * d, k * d + (m - 1) * s + 1, s)
            for k, d, m, s in zip(off, rdil, out_sp, strides)
        )
        patch = x[(slice(None), slice(None), *sl)]
        for q in range(g):
            wk = w[(slice(q * og, (q + 1) * og), slice(None), *off)]
            out[:, q * og : (q + 1) * og] += np.einsum(
                "nc...,oc->no...", patch[:, q * cg : (q + 1) * cg], wk
            )
    return out


# name, input (N, C, *sp), kernel (O, C/g, *k), strides, pads, rhs dilation, groups
CASES = [
    ("batch 1", (1, 3, 6, 5), (4, 3, 3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1), 1),
    ("1x1 kernel", (2, 5, 4, 6), (3, 5, 1, 1), (1, 1), ((0, 0), (0, 0)), (1, 1), 1),
    ("1x1 kernel strided", (2, 4, 7, 5), (6, 2, 1, 1), (2, 3), ((0, 1), (1, 0)), (1, 1), 2),
    ("odd sizes", (3, 3, 9, 7), (5, 3, 5, 3), (1, 1), ((2, 2), (1, 1)), (1, 1), 1),
    ("odd kernel, stride, dilation", (2, 4, 11, 9), (4, 4, 3, 2), (2, 1), ((1, 2), (0, 1)),
     (2, 3), 1),
    ("depthwise", (2, 6, 6, 6), (6, 1, 3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1), 6),
    ("depthwise multiplier 2, dilated", (1, 4, 8, 7), (8, 1, 3, 3), (1, 2), ((2, 2), (2, 2)),
     (2, 2), 4),
    ("groups strided", (2, 6, 9, 8), (9, 2, 3, 3), (2, 2), ((1, 1), (1, 1)), (1, 1), 3),
    ("1d", (2, 4, 13), (6, 4, 4), (3,), ((2, 1),), (2,), 1),
    ("3d", (2, 2, 4, 5, 3), (3, 2, 2, 3, 2), (1, 2, 1), ((1, 0), (1, 1), (0, 1)), (1, 1, 2), 1),
]  # fmt: skip
LAYOUTS = {1: ("NCH", "OIH", "NCH"), 2: ("NCHW", "OIHW", "NCHW"), 3: ("NCHWD", "OIHWD", "NCHWD")}
LAST = {1: ("NHC", "HIO", "NHC"), 2: ("NHWC", "HWIO", "NHWC"), 3: ("NHWDC", "HWDIO", "NHWDC")}


def _conv(layout: Any, strides: Any, pads: Any, rdil: Any, g: int) -> Any:
    def f(x: Any, w: Any) -> Any:
        return lax.conv_general_dilated(x, w, strides, pads, rhs_dilation=rdil,
                                        dimension_numbers=layout, feature_group_count=g)  # fmt: skip

    return f


def _perm(spec: str, logical: str) -> list[int]:
    return [logical.index(a) for a in spec]


@pytest.mark.parametrize("channels_last", [False, True], ids=["first", "last"])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_conv_and_gradients_match_the_reference(case: Any, channels_last: bool) -> None:
    _, xs, ws, strides, pads, rdil, g = case
    nsp = len(xs) - 2
    layout = (LAST if channels_last else LAYOUTS)[nsp]
    logical = LAYOUTS[nsp]
    x = RNG.standard_normal(xs).astype(np.float32)
    w = RNG.standard_normal(ws).astype(np.float32)
    xl = np.ascontiguousarray(x.transpose(_perm(layout[0], logical[0])))
    wl = np.ascontiguousarray(w.transpose(_perm(layout[1], logical[1])))
    f = _conv(layout, strides, pads, rdil, g)
    out = np.asarray(f(tnp.asarray(xl), tnp.asarray(wl)))
    ref = _reference(x, w, strides, pads, rdil, g)
    got = out.transpose(_perm(logical[2], layout[2]))
    assert got.shape == ref.shape
    np.testing.assert_allclose(got, ref, atol=1e-5 * (np.abs(w).sum() + 1))
    # gradients of <conv(x, w), ct>: the reference is linear in each operand, so its gradient
    # is the reference applied to the basis (small shapes)
    ct = RNG.standard_normal(ref.shape)
    ctl = ct.transpose(_perm(layout[2], logical[2])).astype(np.float32)
    gx, gw = trellax.grad(lambda a, b: (f(a, b) * ctl).sum(), (0, 1))(
        tnp.asarray(xl), tnp.asarray(wl)
    )
    gx_l = np.asarray(gx).transpose(_perm(logical[0], layout[0]))
    gw_l = np.asarray(gw).transpose(_perm(logical[1], layout[1]))
    ref_gx = np.zeros(x.shape)
    for idx in np.ndindex(*x.shape):
        e = np.zeros(x.shape)
        e[idx] = 1.0
        ref_gx[idx] = (_reference(e, w, strides, pads, rdil, g) * ct).sum()
    ref_gw = np.zeros(w.shape)
    for idx in np.ndindex(*w.shape):
        e = np.zeros(w.shape)
        e[idx] = 1.0
        ref_gw[idx] = (_reference(x, e, strides, pads, rdil, g) * ct).sum()
    np.testing.assert_allclose(gx_l, ref_gx, atol=1e-4 * (np.abs(w).sum() + 1))
    np.testing.assert_allclose(gw_l, ref_gw, atol=1e-4 * (np.abs(x).sum() + 1))


@pytest.mark.parametrize("case", CASES[:4] + CASES[5:6] + CASES[8:], ids=lambda c: c[0])
def test_conv_gradients_match_finite_differences(case: Any) -> None:
    _, xs, ws, strides, pads, rdil, g = case
    layout = LAST[len(xs) - 2]
    nsp = len(xs) - 2
    perm_x = _perm(layout[0], LAYOUTS[nsp][0])
    perm_w = _perm(layout[1], LAYOUTS[nsp][1])
    with trellax.enable_x64(True):
        x = tnp.asarray(RNG.standard_normal(xs).transpose(perm_x))
        w = tnp.asarray(RNG.standard_normal(ws).transpose(perm_w))
        check_grads(_conv(layout, strides, pads, rdil, g), (x, w), order=1)


@pytest.mark.parametrize("channels_last", [False, True], ids=["first", "last"])
def test_batch_group_count_values_and_gradients(channels_last: bool) -> None:
    # batch_group_count=b: output feature group k convolves lhs batch group k
    n, c, o, b = 4, 3, 6, 2
    x = RNG.standard_normal((n, c, 7, 6)).astype(np.float32)
    w = RNG.standard_normal((o, c, 3, 2)).astype(np.float32)
    layout = LAST[2] if channels_last else LAYOUTS[2]
    px, pw = _perm(layout[0], "NCHW"), _perm(layout[1], "OIHW")
    xl, wl = np.ascontiguousarray(x.transpose(px)), np.ascontiguousarray(w.transpose(pw))

    def f(a: Any, k: Any) -> Any:
        return lax.conv_general_dilated(a, k, (2, 1), ((1, 1), (0, 1)), rhs_dilation=(1, 2),
                                        dimension_numbers=layout, batch_group_count=b)  # fmt: skip

    out = np.asarray(f(tnp.asarray(xl), tnp.asarray(wl))).transpose(_perm("NCHW", layout[2]))
    nb, ob = n // b, o // b
    parts = [
        _reference(
            x[k * nb : (k + 1) * nb], w[k * ob : (k + 1) * ob], (2, 1), ((1, 1), (0, 1)), (1, 2), 1
        )
        for k in range(b)
    ]
    ref = np.concatenate(parts, axis=1)
    np.testing.assert_allclose(out, ref, atol=1e-4)
    with trellax.enable_x64(True):
        check_grads(f, (tnp.asarray(xl.astype(np.float64)), tnp.asarray(wl.astype(np.float64))),
                    order=1)  # fmt: skip
