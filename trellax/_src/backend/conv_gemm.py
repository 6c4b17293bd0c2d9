"""The convolution and its two cotangents as blocked matrix products (im2col, GEMM, col2im).

Layout. The input is copied once into a channels-last buffer ``(N, *spatial, C)``, dilated and
padded (negative pads crop), in the compute dtype. Its patches are a strided *view*
``(N, *out_spatial, *kernel, C)`` (no copy); a block of output rows copies its patches into a
small per-worker buffer ``(rows, K*C)`` (K kernel offsets), which stays in cache, and one BLAS
call per feature group multiplies it with the kernel ``(K*C/g, O/g)``. The result is written
straight into the output, channels-last ``(N, P, O)`` or channels-first ``(N, O, P)`` (P output
positions), whichever the output layout is: for channels-first the product is computed
transposed, ``w.T @ patches.T``, which BLAS reads without copying either operand. So neither
operand is ever transposed in memory, except the input on its way into the padded buffer.

Blocks are whole images (several when an image's patches are small) or, for large images, bands
of output rows of one image; they are handed to the shared worker pool one at a time
(:mod:`trellax._src.backend.threads`), with BLAS held to one thread.

The cotangents:

* kernel (``conv_rhs_transpose``): per block ``patches.T @ ct``; the block partials are summed in
  a fixed order (at most :data:`MAX_PARTIALS` running sums over consecutive blocks, then those
  in order), so the bits do not depend on the thread count or scheduling;
* input (``conv_lhs_transpose``): per block ``ct @ w.T`` gives the patches' cotangent, added back
  into a padded channels-last buffer one kernel offset at a time (col2im), in offset order; a
  worker owns whole images, so no two threads add into the same place.

Accumulation: every output element is a sum of ``K * C / g`` products in the compute dtype
(float32 for float16 and the ml_dtypes types, rounded once at the end; int32 for bool), as one
BLAS dot product (or NumPy's own loop for integer types, which is exact). The order of that sum
is BLAS's, as XLA's order is its own; the two cotangents add ``K`` (input) or ``blocks``
(kernel) such sums in the fixed orders above.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from trellax._src.backend import threads
from trellax._src.backend.float_facts import compute_dtype

Pads = tuple[tuple[int, int], ...]

#: Bytes of one block's patch buffer: 512 KiB keeps it, with its slice of the output, in a
#: typical L2 cache (measured on the 64x16x32x32 3x3 case: one image per block, 590 KB, took
#: 16 ms of CPU against 28 ms for the whole im2col and one big product).
BLOCK_BYTES = 1 << 19
#: The fewest output rows of a block, however large the kernel: bounds the Python overhead.
MIN_ROWS = 64
#: The fewest multiply-adds worth the worker pool (~1 ms of one core): below it a call runs on
#: the calling thread, where handing blocks out would cost more than it saves.
PARALLEL_WORK = 1 << 22
#: The most running sums of the kernel cotangent (each of the kernel's size).
MAX_PARTIALS = 8


def _compute(preferred: np.dtype[Any]) -> np.dtype[Any]:
    c = compute_dtype(preferred)
    return np.dtype(np.int32) if c.kind == "b" else c


def _placement(n: int, lo: int, hi: int, d: int) -> tuple[slice, slice, int]:
    """Along one axis of ``n`` elements, dilated by ``d`` and padded by ``(lo, hi)``: the
    padded length, the slice of source elements kept and the slice of positions they land on."""
    total = max(0, ((n - 1) * d + 1 if n else 0) + lo + hi)
    j0 = 0 if lo >= 0 else (-lo + d - 1) // d  # the first element at a position >= 0
    j1 = min(n, max(0, -(-(total - lo) // d)))  # past the last one at a position < total
    if j1 <= j0:
        return slice(0, 0), slice(0, 0), total
    p0 = lo + j0 * d
    return slice(j0, j1), slice(p0, p0 + (j1 - j0 - 1) * d + 1, d), total


def _layout(
    shape: tuple[int, ...], padding: Pads, dilation: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[slice, ...], tuple[slice, ...], bool]:
    """For a channels-last ``shape``: the padded buffer's shape, the source and destination
    indexes of the copy, and whether the buffer is the input itself (no pad, no dilation)."""
    src: list[slice] = [slice(None)]
    dst: list[slice] = [slice(None)]
    out = [shape[0]]
    for i, ((lo, hi), d) in enumerate(zip(padding, dilation)):
        s, t, total = _placement(shape[1 + i], lo, hi, d)
        src.append(s)
        dst.append(t)
        out.append(total)
    out.append(shape[-1])
    src.append(slice(None))
    dst.append(slice(None))
    same = all(lo == hi == 0 for lo, hi in padding) and all(d == 1 for d in dilation)
    return tuple(out), tuple(src), tuple(dst), same


def _channels_last(x: np.ndarray, spec: tuple[int, ...]) -> np.ndarray:
    return np.transpose(x, (spec[0], *spec[2:], spec[1]))


def _is_channels_first(spec: tuple[int, ...]) -> bool:
    return tuple(spec) == tuple(range(len(spec)))


def _padded(
    lhs: np.ndarray,
    spec: tuple[int, ...],
    padding: Pads,
    dilation: tuple[int, ...],
    g: int,
    compute: Any,
    cf: bool,
) -> np.ndarray:
    """The input dilated and padded in ``compute``, ``(g, N, *spatial, C / g)`` or, channels
    first (``cf``), ``(g, N, C / g, *spatial)``: one copy (none when the input already is that)."""
    x = _channels_last(lhs, spec)
    shape, src, dst, same = _layout(x.shape, padding, dilation)
    n, c = x.shape[0], x.shape[-1]
    cg = c // g if g else 0
    sp, lp = x.shape[1:-1], shape[1:-1]
    into: tuple[slice, ...]
    came: tuple[slice, ...]
    if cf:
        xl = np.moveaxis(x, -1, 1)  # (N, C, *spatial)
        xg = np.moveaxis(xl.reshape((n, g, cg, *sp)), 1, 0)
        bshape = (g, n, cg, *lp)
        into = (slice(None), slice(None), slice(None), *dst[1:-1])
        came = (slice(None), slice(None), slice(None), *src[1:-1])
    else:
        xg = np.moveaxis(x.reshape((n, *sp, g, cg)), -2, 0)
        bshape = (g, n, *lp, cg)
        into = (slice(None), *dst)
        came = (slice(None), *src)
    if same and xg.dtype == compute and xg.flags.c_contiguous:
        return xg
    buf = np.zeros(bshape, compute)
    buf[into] = xg[came]
    return buf


def _patch_view(
    xp: np.ndarray,
    ksp: tuple[int, ...],
    strides: tuple[int, ...],
    rdil: tuple[int, ...],
    out_sp: tuple[int, ...],
    cf: bool,
    writeable: bool = False,
) -> np.ndarray:
    """For each output position the inputs each kernel offset sees, a strided view of the
    padded buffer: ``(g, N, *out_sp, *ksp, cg)``, or ``(g, N, cg, *ksp, *out_sp)`` (``cf``)."""
    st = xp.strides
    nsp = len(ksp)
    if cf:
        first = 3
        shape = (*xp.shape[:3], *ksp, *out_sp)
        lead: tuple[int, ...] = st[:3]
        tail: tuple[int, ...] = ()
    else:
        first = 2
        shape = (*xp.shape[:2], *out_sp, *ksp, xp.shape[-1])
        lead, tail = st[:2], (st[-1],)
    moves = tuple(st[first + i] * strides[i] for i in range(nsp))
    taps = tuple(st[first + i] * rdil[i] for i in range(nsp))
    strides_ = (*lead, *taps, *moves) if cf else (*lead, *moves, *taps, *tail)
    return as_strided(xp, shape, strides_, writeable=writeable)


Block = tuple[int, int, int, int]  # images n0:n1, rows h0:h1 of the first output spatial axis


def _blocks(n: int, out_sp: tuple[int, ...], row_bytes: int) -> list[Block]:
    """Whole images (several per block when small) or bands of the first output axis."""
    h = out_sp[0] if out_sp else 1
    per_h = math.prod(out_sp[1:]) if out_sp else 1
    image = max(1, h * per_h * row_bytes)
    if image <= BLOCK_BYTES or h <= 1:
        nb = max(1, BLOCK_BYTES // image)
        return [(i, min(n, i + nb), 0, h) for i in range(0, n, nb)]
    hb = max(1, BLOCK_BYTES // max(1, per_h * row_bytes), -(-MIN_ROWS // max(1, per_h)))
    return [(i, i + 1, j, min(h, j + hb)) for i in range(n) for j in range(0, h, hb)]


def _kernel_matrix(
    rhs: np.ndarray, spec: tuple[int, ...], g: int, compute: Any, cf: bool
) -> np.ndarray:
    """``(g, K * cg, og)``: the kernel as one matrix per group, rows in patch order (kernel
    offset then input feature, or input feature then offset for channels-first patches)."""
    w = np.transpose(rhs, spec).astype(compute, copy=False)  # (O, I, *spatial)
    o, cg = w.shape[:2]
    k = math.prod(w.shape[2:])
    w4 = w.reshape(g, o // g, cg, k)
    rows = w4.transpose(0, 2, 3, 1) if cf else w4.transpose(0, 3, 2, 1)
    return np.ascontiguousarray(rows).reshape(g, k * cg, o // g)


class _Geometry:
    """Shapes shared by the three kernels, for a padded buffer from :func:`_padded`."""

    def __init__(
        self,
        xp_shape: tuple[int, ...],
        cf: bool,
        ksp: tuple[int, ...],
        strides: tuple[int, ...],
        rdil: tuple[int, ...],
        o: int,
        itemsize: int,
    ) -> None:
        self.cf = cf
        self.g, self.n = xp_shape[0], xp_shape[1]
        self.cg = xp_shape[2] if cf else xp_shape[-1]
        self.padded_sp = xp_shape[3:] if cf else xp_shape[2:-1]
        self.o = o
        self.og = o // self.g if self.g else 0
        self.ksp = ksp
        self.k = math.prod(ksp)
        self.out_sp = tuple(
            max(0, (n - ((k - 1) * d + 1)) // s + 1)
            for n, k, s, d in zip(self.padded_sp, ksp, strides, rdil)
        )
        self.p = math.prod(self.out_sp)
        self.per_h = math.prod(self.out_sp[1:]) if self.out_sp else 1
        self.kc = self.k * self.cg
        self.blocks = _blocks(self.n, self.out_sp, self.kc * itemsize)
        self.parallel = self.g * self.n * self.p * self.kc * self.og >= PARALLEL_WORK

    def rows(self, b: Block) -> tuple[int, int, int]:
        """Images, and the range of output positions within an image, of block ``b``."""
        n0, n1, h0, h1 = b
        return n1 - n0, h0 * self.per_h, h1 * self.per_h

    def scratch(self, compute: Any) -> Callable[[], np.ndarray]:
        most = max(((b[1] - b[0]) * (b[3] - b[2]) * self.per_h for b in self.blocks), default=0)
        size = most * self.kc

        def make() -> np.ndarray:
            return np.empty(size, compute)

        return make

    def patches(self, view: np.ndarray, q: int, b: Block, scratch: np.ndarray) -> np.ndarray:
        """Group ``q``'s patches of block ``b`` copied into ``scratch``: ``(nb, pb, K * cg)``,
        or ``(nb, K * cg, pb)`` for channels-first patches."""
        n0, n1, h0, h1 = b
        nb, p0, p1 = self.rows(b)
        if not self.out_sp:
            part = view[q, n0:n1]
        elif self.cf:
            at: tuple[Any, ...] = (q, slice(n0, n1), *([slice(None)] * (1 + len(self.ksp))))
            band: tuple[Any, ...] = (*at, slice(h0, h1))
            part = view[band]
        else:
            part = view[q, n0:n1, h0:h1]
        buf = scratch[: nb * (p1 - p0) * self.kc]
        np.copyto(buf.reshape(part.shape), part)
        if self.cf:
            return buf.reshape(nb, self.kc, p1 - p0)
        return buf.reshape(nb, p1 - p0, self.kc)


def _finish(res3: np.ndarray, geo: _Geometry, first: bool, out_spec: Any, preferred: Any) -> Any:
    """``(N, O, P)`` or ``(N, P, O)`` in the compute dtype -> the output layout and dtype."""
    res = np.transpose(_logical(res3, geo.n, geo.o, geo.out_sp, first), np.argsort(out_spec))
    if preferred.kind == "b":
        return np.asarray(res != 0)
    return np.asarray(res, preferred)


def _logical(res3: np.ndarray, n: int, o: int, sp: tuple[int, ...], first: bool) -> np.ndarray:
    """``(N, O, P)`` / ``(N, P, O)`` as the view ``(N, O, *sp)``."""
    if first:
        return res3.reshape((n, o, *sp))
    return np.moveaxis(res3.reshape((n, *sp, o)), -1, 1)


def _forward(
    xp: np.ndarray,
    cf: bool,
    wm: np.ndarray,
    o: int,
    ksp: tuple[int, ...],
    strides: tuple[int, ...],
    rdil: tuple[int, ...],
    first: bool,
    compute: Any,
) -> tuple[np.ndarray, _Geometry]:
    """The convolution of the padded buffer ``xp`` with the kernel matrices ``wm``: ``(N, O,
    P)`` (``first``) or ``(N, P, O)``, in the compute dtype."""
    geo = _Geometry(xp.shape, cf, ksp, strides, rdil, o, compute.itemsize)
    view = _patch_view(xp, ksp, strides, rdil, geo.out_sp, cf)
    res3 = np.empty((geo.n, geo.o, geo.p) if first else (geo.n, geo.p, geo.o), compute)
    og = geo.og
    wt = wm.transpose(0, 2, 1)  # (g, og, K*cg), a view: BLAS reads it transposed
    items = [(q, b) for b in geo.blocks for q in range(geo.g)]

    def block(i: int, scratch: np.ndarray) -> None:
        q, b = items[i]
        nb, p0, p1 = geo.rows(b)
        pat = geo.patches(view, q, b, scratch)
        n0, cols = b[0], slice(q * og, (q + 1) * og)
        if cf:  # pat: (nb, K*cg, pb)
            if first:
                np.matmul(wt[q], pat, out=res3[n0 : n0 + nb, cols, p0:p1])
            else:
                np.matmul(pat.transpose(0, 2, 1), wm[q], out=res3[n0 : n0 + nb, p0:p1, cols])
        elif first:  # pat: (nb, pb, K*cg)
            np.matmul(wt[q], pat.transpose(0, 2, 1), out=res3[n0 : n0 + nb, cols, p0:p1])
        elif p1 - p0 == geo.p:  # whole images: one product
            rows = nb * geo.p
            out2 = res3[n0 : n0 + nb].reshape(rows, geo.o)[:, cols]
            np.matmul(pat.reshape(rows, geo.kc), wm[q], out=out2)
        else:
            np.matmul(pat[0], wm[q], out=res3[n0, p0:p1, cols])

    threads.run_chunks(block, len(items), geo.scratch(compute), parallel=geo.parallel)
    return res3, geo


def conv_general_dilated(
    lhs: np.ndarray,
    rhs: np.ndarray,
    *,
    window_strides: tuple[int, ...],
    padding: Pads,
    lhs_dilation: tuple[int, ...],
    rhs_dilation: tuple[int, ...],
    dimension_numbers: Any,
    feature_group_count: int,
    preferred_element_type: np.dtype[Any],
) -> np.ndarray:
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    compute = _compute(preferred_element_type)
    g = feature_group_count
    cf = _is_channels_first(lhs_spec)
    wm = _kernel_matrix(rhs, rhs_spec, g, compute, cf)
    ksp = tuple(rhs.shape[a] for a in rhs_spec[2:])
    xp = _padded(lhs, lhs_spec, padding, lhs_dilation, g, compute, cf)
    first = _is_channels_first(out_spec)
    res3, geo = _forward(xp, cf, wm, rhs.shape[rhs_spec[0]], ksp, window_strides, rhs_dilation,
                         first, compute)  # fmt: skip
    return _finish(res3, geo, first, out_spec, preferred_element_type)  # type: ignore[no-any-return]


def _ct3(ct: np.ndarray, out_spec: Any, geo: _Geometry, compute: Any) -> tuple[np.ndarray, bool]:
    """The output cotangent as ``(N, O, P)`` (channels-first) or ``(N, P, O)``, never copied
    when it already has one of those layouts (a cast to the compute dtype aside)."""
    c = ct.astype(compute, copy=False)
    if _is_channels_first(out_spec) and c.flags.c_contiguous:
        return c.reshape(geo.n, geo.o, geo.p), True
    cl = np.ascontiguousarray(_channels_last(c, out_spec))
    return cl.reshape(geo.n, geo.p, geo.o), False


def conv_rhs_transpose(
    lhs: np.ndarray,
    ct: np.ndarray,
    *,
    rhs_shape: tuple[int, ...],
    window_strides: tuple[int, ...],
    padding: Pads,
    lhs_dilation: tuple[int, ...],
    rhs_dilation: tuple[int, ...],
    dimension_numbers: Any,
    feature_group_count: int,
    preferred_element_type: np.dtype[Any],
) -> np.ndarray:
    """The cotangent of the kernel: the patches (as in the forward pass) times ``ct``."""
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    compute = _compute(preferred_element_type)
    g = feature_group_count
    cf = _is_channels_first(lhs_spec)
    ksp = tuple(rhs_shape[a] for a in rhs_spec[2:])
    xp = _padded(lhs, lhs_spec, padding, lhs_dilation, g, compute, cf)
    geo = _Geometry(xp.shape, cf, ksp, window_strides, rhs_dilation, rhs_shape[rhs_spec[0]],
                    compute.itemsize)  # fmt: skip
    view = _patch_view(xp, ksp, window_strides, rhs_dilation, geo.out_sp, cf)
    c3, first = _ct3(ct, out_spec, geo, compute)
    og = geo.og
    ranges = threads.split(len(geo.blocks), MAX_PARTIALS)
    items = [(q, r) for r in ranges for q in range(g)]

    def run(i: int, scratch: np.ndarray) -> np.ndarray:
        q, (j0, j1) = items[i]
        cols = slice(q * og, (q + 1) * og)
        acc = np.zeros((geo.kc, og), compute)
        tmp = np.empty((geo.kc, og), compute)
        for j in range(j0, j1):
            b = geo.blocks[j]
            nb, p0, p1 = geo.rows(b)
            pat = geo.patches(view, q, b, scratch)
            n0 = b[0]
            if not cf and not first and p1 - p0 == geo.p:  # whole images: one product
                rows = nb * geo.p
                cb2 = c3[n0 : n0 + nb].reshape(rows, geo.o)[:, cols]
                np.matmul(pat.reshape(rows, geo.kc).T, cb2, out=tmp)
                np.add(acc, tmp, out=acc)
                continue
            for m in range(nb):
                cb = c3[n0 + m, cols, p0:p1].T if first else c3[n0 + m, p0:p1, cols]
                np.matmul(pat[m] if cf else pat[m].T, cb, out=tmp)
                np.add(acc, tmp, out=acc)
        return acc

    parts = threads.run_chunks(run, len(items), geo.scratch(compute), parallel=geo.parallel)
    dw = np.zeros((g, geo.kc, og), compute)
    for i, part in enumerate(parts):  # in block order within each group: fixed bits
        np.add(dw[items[i][0]], part, out=dw[items[i][0]])
    # (g, K*cg, og) -> (O, cg, *ksp) -> the rhs layout
    if cf:
        w4 = dw.reshape(g, geo.cg, geo.k, og).transpose(0, 3, 1, 2)
    else:
        w4 = dw.reshape(g, geo.k, geo.cg, og).transpose(0, 3, 2, 1)
    logical = w4.reshape((geo.o, geo.cg, *ksp))
    return np.asarray(np.transpose(logical, np.argsort(rhs_spec)), preferred_element_type)


def conv_lhs_transpose(
    ct: np.ndarray,
    rhs: np.ndarray,
    *,
    lhs_shape: tuple[int, ...],
    window_strides: tuple[int, ...],
    padding: Pads,
    lhs_dilation: tuple[int, ...],
    rhs_dilation: tuple[int, ...],
    dimension_numbers: Any,
    feature_group_count: int,
    preferred_element_type: np.dtype[Any],
) -> np.ndarray:
    """The cotangent of the input, in the padded (and dilated) input's coordinates, then
    padding and dilation undone. With unit strides it is a forward convolution of ``ct``
    (padded by the kernel's extent) with the kernel flipped and its features swapped; with
    larger strides each block's ``ct @ w.T`` (the patches' cotangent) is added back into the
    padded input one kernel offset at a time (col2im)."""
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    compute = _compute(preferred_element_type)
    g = feature_group_count
    ksp = tuple(rhs.shape[a] for a in rhs_spec[2:])
    cl_shape = (lhs_shape[lhs_spec[0]], *(lhs_shape[a] for a in lhs_spec[2:]),
                lhs_shape[lhs_spec[1]])  # fmt: skip
    xp_shape, src, dst, same = _layout(cl_shape, padding, lhs_dilation)
    n, c = cl_shape[0], cl_shape[-1]
    lp = xp_shape[1:-1]
    unit = all(s == 1 for s in window_strides)
    if unit and all(d == 1 for d in lhs_dilation):
        # only the input's own positions: the cotangent padded by k - 1 less the input's pads
        ext = [(kk - 1) * d for kk, d in zip(ksp, rhs_dilation)]
        pads = tuple((e - lo, e - hi) for e, (lo, hi) in zip(ext, padding))
        dx = _lhs_transpose_unit_strides(ct, rhs, rhs_spec, out_spec, lhs_spec, g, pads,
                                         cl_shape[1:-1], rhs_dilation, compute)  # fmt: skip
        return np.asarray(np.transpose(dx, np.argsort(lhs_spec)), preferred_element_type)
    if unit:
        ext = [(kk - 1) * d for kk, d in zip(ksp, rhs_dilation)]
        padded = _lhs_transpose_unit_strides(ct, rhs, rhs_spec, out_spec, lhs_spec, g,
                                             tuple((e, e) for e in ext), lp, rhs_dilation,
                                             compute)  # fmt: skip
    else:
        gshape = (g, n, *lp, c // g)
        geo = _Geometry(gshape, False, ksp, window_strides, rhs_dilation,
                        rhs.shape[rhs_spec[0]], compute.itemsize)  # fmt: skip
        wm = _kernel_matrix(rhs, rhs_spec, g, compute, False)
        grad = _col2im(ct, wm, out_spec, geo, gshape, window_strides, rhs_dilation, compute)
        padded = np.moveaxis(np.moveaxis(grad, 0, -2).reshape((n, *lp, c)), -1, 1)
    # padded: (N, C, *padded spatial) -> (N, C, *spatial)
    if same:
        dx = padded
    else:
        dx = np.zeros((n, c, *cl_shape[1:-1]), compute)
        into: tuple[slice, ...] = (slice(None), slice(None), *src[1:-1])
        came: tuple[slice, ...] = (slice(None), slice(None), *dst[1:-1])
        dx[into] = padded[came]
    return np.asarray(np.transpose(dx, np.argsort(lhs_spec)), preferred_element_type)


def _lhs_transpose_unit_strides(
    ct: np.ndarray,
    rhs: np.ndarray,
    rhs_spec: tuple[int, ...],
    out_spec: tuple[int, ...],
    lhs_spec: tuple[int, ...],
    g: int,
    pads: Pads,
    lp: tuple[int, ...],
    rdil: tuple[int, ...],
    compute: Any,
) -> np.ndarray:
    """``(N, C, *lp)`` (a view): the forward convolution of ``ct`` padded by ``pads`` (``(k -
    1) * d`` on each side gives every position of the padded input) with the kernel flipped
    and, per group, its features swapped."""
    w = np.transpose(rhs, rhs_spec)  # (O, cg, *ksp)
    o, cg = w.shape[:2]
    ksp = w.shape[2:]
    nsp = len(ksp)
    wf = w.reshape((g, o // g, cg, *ksp)).swapaxes(1, 2)
    wf = np.flip(wf, axis=tuple(range(3, 3 + nsp))).reshape((g * cg, o // g, *ksp))
    ident = tuple(range(2 + nsp))
    cf = _is_channels_first(out_spec)
    cp = _padded(ct, out_spec, pads, (1,) * nsp, g, compute, cf)
    wm = _kernel_matrix(wf, ident, g, compute, cf)
    first = _is_channels_first(lhs_spec)
    res3, geo = _forward(cp, cf, wm, g * cg, tuple(ksp), (1,) * nsp, rdil, first, compute)
    assert geo.out_sp == lp, (geo.out_sp, lp)
    return _logical(res3, geo.n, g * cg, lp, first)


def _col2im(
    ct: np.ndarray,
    wm: np.ndarray,
    out_spec: Any,
    geo: _Geometry,
    gshape: tuple[int, ...],
    strides: tuple[int, ...],
    rdil: tuple[int, ...],
    compute: Any,
) -> np.ndarray:
    """``(g, N, *padded, cg)``: each block's patch cotangent added back one offset at a time."""
    g, og = geo.g, geo.og
    grad = np.zeros(gshape, compute)
    c3, first = _ct3(ct, out_spec, geo, compute)
    wt = wm.transpose(0, 2, 1)  # (g, og, K*cg)
    nsp = len(geo.ksp)
    offsets = list(np.ndindex(*geo.ksp))
    view = _patch_view(grad, geo.ksp, strides, rdil, geo.out_sp, False, writeable=True)
    # whole images per unit of work: two workers never add into one place
    units: list[tuple[int, list[int]]] = []
    for q in range(g):
        for j, b in enumerate(geo.blocks):
            if units and units[-1][0] == q and geo.blocks[units[-1][1][-1]][0] == b[0]:
                units[-1][1].append(j)
            else:
                units.append((q, [j]))

    def run(u: int, scratch: np.ndarray) -> None:
        q, js = units[u]
        cols = slice(q * og, (q + 1) * og)
        for j in js:
            n0, n1, h0, h1 = b = geo.blocks[j]
            nb, p0, p1 = geo.rows(b)
            gp = scratch[: nb * (p1 - p0) * geo.kc].reshape(nb, p1 - p0, geo.kc)
            if first:
                cb = c3[n0:n1, cols, p0:p1].transpose(0, 2, 1)
            else:
                cb = c3[n0:n1, p0:p1, cols]
            np.matmul(cb, wt[q], out=gp)
            block_sp = (h1 - h0, *geo.out_sp[1:]) if geo.out_sp else ()
            gk = gp.reshape(nb, *block_sp, geo.k, geo.cg)
            target = view[q, n0:n1, h0:h1] if geo.out_sp else view[q, n0:n1]
            for t, off in enumerate(offsets):
                at: tuple[Any, ...] = (Ellipsis, *off, slice(None))
                v = target[at] if nsp else target
                np.add(v, gk[..., t, :], out=v)

    threads.run_chunks(run, len(units), geo.scratch(compute), parallel=geo.parallel)
    return grad
