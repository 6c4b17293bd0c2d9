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


def _group_major(x: np.ndarray, g: int) -> np.ndarray:
    """``(N, *spatial, C)`` -> the view ``(g, N, *spatial, C / g)``."""
    return np.moveaxis(x.reshape((*x.shape[:-1], g, x.shape[-1] // g)), -2, 0)


def _padded(
    lhs: np.ndarray,
    spec: tuple[int, ...],
    padding: Pads,
    dilation: tuple[int, ...],
    g: int,
    compute: Any,
) -> np.ndarray:
    """The input dilated and padded, ``(g, N, *spatial, C / g)``, in ``compute``: one copy
    (none when the input already is exactly that)."""
    x = _channels_last(lhs, spec)
    shape, src, dst, same = _layout(x.shape, padding, dilation)
    xg = _group_major(x, g)
    if same and xg.dtype == compute and xg.flags.c_contiguous:
        return xg
    buf = np.zeros((g, *shape[:-1], shape[-1] // g), compute)
    into: tuple[slice, ...] = (slice(None), *dst)
    came: tuple[slice, ...] = (slice(None), *src)
    buf[into] = xg[came]
    return buf


def _patch_view(
    xp: np.ndarray,
    ksp: tuple[int, ...],
    strides: tuple[int, ...],
    rdil: tuple[int, ...],
    out_sp: tuple[int, ...],
    writeable: bool = False,
) -> np.ndarray:
    """``(g, N, *out_sp, *ksp, cg)``: for each output position the inputs each kernel offset
    sees, a strided view of the padded buffer ``(g, N, *spatial, cg)``."""
    st = xp.strides
    nsp = len(ksp)
    shape = (*xp.shape[:2], *out_sp, *ksp, xp.shape[-1])
    strides_ = (
        *st[:2],
        *(st[2 + i] * strides[i] for i in range(nsp)),
        *(st[2 + i] * rdil[i] for i in range(nsp)),
        st[-1],
    )
    return as_strided(xp, shape, strides_, writeable=writeable)


def _out_spatial(
    padded: tuple[int, ...], ksp: tuple[int, ...], strides: tuple[int, ...], rdil: tuple[int, ...]
) -> tuple[int, ...]:
    """Output spatial sizes for a padded buffer ``(g, N, *spatial, cg)``."""
    return tuple(
        max(0, (padded[2 + i] - ((k - 1) * d + 1)) // s + 1)
        for i, (k, s, d) in enumerate(zip(ksp, strides, rdil))
    )


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


def _kernel_matrix(rhs: np.ndarray, spec: tuple[int, ...], g: int, compute: Any) -> np.ndarray:
    """``(g, K * cg, og)``: the kernel as one matrix per group, rows in patch order (kernel
    offset, then input feature)."""
    w = np.transpose(rhs, (*spec[2:], spec[1], spec[0])).astype(compute, copy=False)
    k = math.prod(w.shape[:-2])
    cg, o = w.shape[-2], w.shape[-1]
    return np.ascontiguousarray(w.reshape(k, cg, g, o // g).transpose(2, 0, 1, 3)).reshape(
        g, k * cg, o // g
    )


class _Geometry:
    """Shapes shared by the three kernels, for a padded buffer ``(g, N, *spatial, cg)``."""

    def __init__(
        self,
        xp_shape: tuple[int, ...],
        ksp: tuple[int, ...],
        strides: tuple[int, ...],
        rdil: tuple[int, ...],
        o: int,
        itemsize: int,
    ) -> None:
        self.g, self.n, self.cg = xp_shape[0], xp_shape[1], xp_shape[-1]
        self.o = o
        self.og = o // self.g if self.g else 0
        self.ksp = ksp
        self.k = math.prod(ksp)
        self.out_sp = _out_spatial(xp_shape, ksp, strides, rdil)
        self.p = math.prod(self.out_sp)
        self.per_h = math.prod(self.out_sp[1:]) if self.out_sp else 1
        self.kc = self.k * self.cg
        self.blocks = _blocks(self.n, self.out_sp, self.kc * itemsize)
        work = self.g * self.n * self.p * self.kc * self.og
        self.parallel = work >= PARALLEL_WORK

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
        """Group ``q``'s patches of block ``b`` copied into ``scratch``: ``(nb, pb, K * cg)``."""
        n0, n1, h0, h1 = b
        nb, p0, p1 = self.rows(b)
        part = view[q, n0:n1, h0:h1] if self.out_sp else view[q, n0:n1]
        buf = scratch[: nb * (p1 - p0) * self.kc]
        np.copyto(buf.reshape(part.shape), part)
        return buf.reshape(nb, p1 - p0, self.kc)


def _is_channels_first(spec: tuple[int, ...]) -> bool:
    return tuple(spec) == tuple(range(len(spec)))


def _finish(res3: np.ndarray, geo: _Geometry, first: bool, out_spec: Any, preferred: Any) -> Any:
    """``(N, O, P)`` or ``(N, P, O)`` in the compute dtype -> the output layout and dtype."""
    if first:
        logical = res3.reshape((geo.n, geo.o, *geo.out_sp))
    else:
        logical = np.moveaxis(res3.reshape((geo.n, *geo.out_sp, geo.o)), -1, 1)
    res = np.transpose(logical, np.argsort(out_spec))
    if preferred.kind == "b":
        return np.asarray(res != 0)
    return np.asarray(res, preferred)


def _forward(
    xp: np.ndarray,
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
    geo = _Geometry(xp.shape, ksp, strides, rdil, o, compute.itemsize)
    view = _patch_view(xp, ksp, strides, rdil, geo.out_sp)
    res3 = np.empty((geo.n, geo.o, geo.p) if first else (geo.n, geo.p, geo.o), compute)
    og = geo.og
    wt = wm.transpose(0, 2, 1)  # (g, og, K*cg), a view: BLAS reads it transposed
    items = [(q, b) for b in geo.blocks for q in range(geo.g)]

    def block(i: int, scratch: np.ndarray) -> None:
        q, b = items[i]
        nb, p0, p1 = geo.rows(b)
        pat = geo.patches(view, q, b, scratch)
        n0, cols = b[0], slice(q * og, (q + 1) * og)
        if first:
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
    wm = _kernel_matrix(rhs, rhs_spec, g, compute)
    ksp = tuple(rhs.shape[a] for a in rhs_spec[2:])
    xp = _padded(lhs, lhs_spec, padding, lhs_dilation, g, compute)
    first = _is_channels_first(out_spec)
    res3, geo = _forward(xp, wm, rhs.shape[rhs_spec[0]], ksp, window_strides, rhs_dilation,
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
    ksp = tuple(rhs_shape[a] for a in rhs_spec[2:])
    xp = _padded(lhs, lhs_spec, padding, lhs_dilation, g, compute)
    geo = _Geometry(xp.shape, ksp, window_strides, rhs_dilation, rhs_shape[rhs_spec[0]],
                    compute.itemsize)  # fmt: skip
    view = _patch_view(xp, ksp, window_strides, rhs_dilation, geo.out_sp)
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
            if not first and p1 - p0 == geo.p:  # whole images: one product
                rows = nb * geo.p
                cb2 = c3[n0 : n0 + nb].reshape(rows, geo.o)[:, cols]
                np.matmul(pat.reshape(rows, geo.kc).T, cb2, out=tmp)
                np.add(acc, tmp, out=acc)
                continue
            for m in range(nb):
                cb = c3[n0 + m, cols, p0:p1].T if first else c3[n0 + m, p0:p1, cols]
                np.matmul(pat[m].T, cb, out=tmp)
                np.add(acc, tmp, out=acc)
        return acc

    parts = threads.run_chunks(run, len(items), geo.scratch(compute), parallel=geo.parallel)
    dw = np.zeros((g, geo.kc, og), compute)
    for i, part in enumerate(parts):  # in block order within each group: fixed bits
        np.add(dw[items[i][0]], part, out=dw[items[i][0]])
    # (g, K*cg, og) -> (*ksp, cg, O) -> the rhs layout
    dw = dw.reshape(g, geo.k, geo.cg, og).transpose(1, 2, 0, 3).reshape((*ksp, geo.cg, geo.o))
    logical = np.moveaxis(np.moveaxis(dw, -1, 0), -1, 1)  # (O, I, *spatial)
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
    wm = _kernel_matrix(rhs, rhs_spec, g, compute)  # (g, K*cg, og)
    ksp = tuple(rhs.shape[a] for a in rhs_spec[2:])
    o = rhs.shape[rhs_spec[0]]
    cl_shape = (lhs_shape[lhs_spec[0]], *(lhs_shape[a] for a in lhs_spec[2:]),
                lhs_shape[lhs_spec[1]])  # fmt: skip
    xp_shape, src, dst, same = _layout(cl_shape, padding, lhs_dilation)
    c = cl_shape[-1]
    gshape = (g, *xp_shape[:-1], c // g)
    geo = _Geometry(gshape, ksp, window_strides, rhs_dilation, o, compute.itemsize)
    if all(s == 1 for s in window_strides):
        grad = _lhs_transpose_unit_strides(ct, wm, out_spec, geo, gshape, rhs_dilation, compute)
    else:
        grad = _col2im(ct, wm, out_spec, geo, gshape, window_strides, rhs_dilation, compute)
    # grad: (g, N, *padded, cg) -> (N, *spatial, C)
    if not same:
        kept: tuple[slice, ...] = (slice(None), *dst)
        grad = grad[kept]
    dx_g = np.moveaxis(grad, 0, -2)
    if same:
        dx = dx_g.reshape(cl_shape)
    else:
        dx = np.zeros(cl_shape, compute)
        dx.reshape((*cl_shape[:-1], g, c // g))[src] = dx_g
    logical = np.moveaxis(dx, -1, 1)
    return np.asarray(np.transpose(logical, np.argsort(lhs_spec)), preferred_element_type)


def _lhs_transpose_unit_strides(
    ct: np.ndarray,
    wm: np.ndarray,
    out_spec: Any,
    geo: _Geometry,
    gshape: tuple[int, ...],
    rdil: tuple[int, ...],
    compute: Any,
) -> np.ndarray:
    """``(g, N, *padded, cg)``: the forward convolution of ``ct`` padded by ``(k - 1) * d`` on
    each side with the flipped kernel, per group (``og`` in, ``cg`` out features)."""
    g, k, cg, og = geo.g, geo.k, geo.cg, geo.og
    ksp = geo.ksp
    pads = tuple(((kk - 1) * d, (kk - 1) * d) for kk, d in zip(ksp, rdil))
    cp = _padded(ct, out_spec, pads, (1,) * len(ksp), g, compute)  # (g, N, *, og)
    # flipped kernel matrices (g, K*og, cg): offset t' = K-1-t, rows (offset, out feature)
    w = wm.reshape((g, *ksp, cg, og))
    w = np.flip(w, axis=tuple(range(1, 1 + len(ksp))))
    wf = np.ascontiguousarray(np.swapaxes(w, -1, -2)).reshape(g, k * og, cg)
    res3, _ = _forward(cp, wf, g * cg, ksp, (1,) * len(ksp), rdil, False, compute)
    # (N, P, C) with P = the padded input's positions -> (g, N, *padded, cg)
    out = res3.reshape((geo.n, *gshape[2:-1], g, cg))
    return np.moveaxis(out, -2, 0)


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
    g, og, cg = geo.g, geo.og, geo.cg
    grad = np.zeros(gshape, compute)
    c3, first = _ct3(ct, out_spec, geo, compute)
    wt = wm.transpose(0, 2, 1)  # (g, og, K*cg)
    nsp = len(geo.ksp)
    offsets = list(np.ndindex(*geo.ksp))
    view = _patch_view(grad, geo.ksp, strides, rdil, geo.out_sp, writeable=True)
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
            gk = gp.reshape(nb, *block_sp, geo.k, cg)
            target = view[q, n0:n1, h0:h1] if geo.out_sp else view[q, n0:n1]
            for t, off in enumerate(offsets):
                at: tuple[Any, ...] = (Ellipsis, *off, slice(None))
                v = target[at] if nsp else target
                np.add(v, gk[..., t, :], out=v)

    threads.run_chunks(run, len(units), geo.scratch(compute), parallel=geo.parallel)
    return grad
