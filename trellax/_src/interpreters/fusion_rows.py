"""Row kernels: reductions over the last axis and their elementwise consumers in one compiled pass.

A softmax, a layer norm or a log-softmax is a fused region (:mod:`.fusion`) whose values have
shape ``S = (n, ..., m)``, with reductions over the last axis (``reduce_max``/``reduce_sum`` to
shape ``S[:-1]``), views of the reduced values back to ``S`` (``expand_dims``,
``broadcast_in_dim``) and elementwise work on both. :mod:`.fusion_compiled` compiles the
elementwise runs between the reductions, but each reduction stays a NumPy pass over the chunk,
so the chunk is read once per reduction and once per run. Here (with the extra
``trellax[compiled]``) such a stretch of a region becomes one :class:`RowGroup`: one kernel that,
for each row, runs *phases* over the row's ``m`` elements. Phase ``p`` evaluates the
elementwise equations whose operands are known after ``p`` row reductions; between phases the
row's reductions are computed from a row buffer (``m`` elements, in L1), and the elementwise
equations on reduced values (``sum / m``, ``rsqrt(var + eps)``) run once per row. A full value
computed in one phase and read in a later one is kept in a row buffer, not recomputed. Anything
a kernel cannot do (a ``log`` of the row sum, say) ends the group: it runs as before (a NumPy
call on the chunk) and a new group starts after it.

Exactness: the elementwise translations are :mod:`.fusion_compiled`'s (the same bits). The row
reductions give the backend impl's bits (``backend/numpy.py``: ``reduce_sum`` is
``numpy.add.reduce`` over the row, ``reduce_max``/``reduce_min`` ``numpy.maximum.reduce`` with
XLA's signed zeros):

* ``sum`` reproduces NumPy's pairwise order for a contiguous row: runs of at most 128 elements,
  each summed with eight interleaved running sums combined as ``((0+1)+(2+3))+((4+5)+(6+7))``
  plus the tail one by one, the run split in halves rounded down to a multiple of 8 above 128
  (runs below 8 are summed one by one), and the total added to the identity 0 (so a row of -0.0
  sums to +0.0). The backend sums the chunk's row the same way (a row of a scratch buffer or of
  a C-contiguous input is one inner loop of NumPy's reduction).
* ``max``/``min`` are exact; zeros get XLA's sign (``max(-0, +0) = +0``, ``min = -0``); a row
  holding a NaN gives a NaN. *Which* NaN is not specified: NumPy's SIMD reduction returns the
  default quiet NaN or the row's NaN depending on the NaN's position and the machine's vector
  width; the kernel returns the default quiet NaN (sign clear).
* float32 and float64 only: float16/bfloat16 regions are never compiled; integer reductions
  stay NumPy calls.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from trellax._src.backend import compiled
from trellax._src.core.jaxpr import JaxprEqn, Literal, Var
from trellax._src.interpreters import fusion_compiled as fc
from trellax._src.interpreters import fusion_native
from trellax._src.interpreters import fusion_runtime as rt

#: Row reductions a kernel computes, and the name of its helper.
ROW_REDUCTIONS = {"reduce_sum": "sum", "reduce_max": "max", "reduce_min": "min"}
_FLOATS = frozenset(np.dtype(t) for t in (np.float32, np.float64))
_VIEWS = frozenset({"broadcast_in_dim", "expand_dims", "stop_gradient"})

#: Helpers of every row kernel module (after ``compiled.HEADER``): NumPy's pairwise row sum,
#: the row max/min with XLA's zero signs.
HELPERS = f"""
_row = numba.njit(nogil=True, cache=_CACHE, error_model="numpy", boundscheck=False)


@_inline
def _leaf(b, lo, n):
    # numpy.add.reduce's sum of a run of at most 128 elements (loops_utils.h: pairwise_sum):
    # eight running sums over blocks of 8, combined as ((0+1)+(2+3))+((4+5)+(6+7)), the tail
    # one by one; below 8 elements one by one
    if n < 8:
        res = b[lo]
        for i in range(lo + 1, lo + n):
            res += b[i]
        return res
{fc.eight_sums("b", "lo", "n", "res", "    ")}
    return res


@_row
def _row_sum(b, plan, stack, zero):
    # the pairwise tree of the row as a post-order plan (pairwise_plan): a run (lo, n) pushes
    # its sum, (-1, 0) adds the top two; not recursive (Numba's cache crashes on recursion)
    sp = 0
    for k in range(plan.shape[0]):
        lo = plan[k, 0]
        if lo < 0:
            stack[sp - 2] = stack[sp - 2] + stack[sp - 1]
            sp -= 1
        else:
            stack[sp] = _leaf(b, lo, plan[k, 1])
            sp += 1
    return zero + stack[0]


@_row
def _row_32(b, cell, want_max):
    # the float bits as integer keys ordered as the floats, -0 below +0 (XLA's max and min of
    # zeros), NaNs beyond +-inf: integer max/min reductions, which vectorize
    k = b.view(np.int32)
    sh = np.int32(31)
    mask = np.int32(2147483647)
    hi = np.int32(-2147483648)
    lo = np.int32(2147483647)
    for i in range(k.shape[0]):
        v = k[i] ^ ((k[i] >> sh) & mask)
        hi = v if v > hi else hi
        lo = v if v < lo else lo
    if hi > np.int32(2139095040) or lo < np.int32(-2139095041):
        return np.float32(np.nan)
    key = hi if want_max else lo
    cell[0] = key ^ ((key >> sh) & mask)
    return cell.view(np.float32)[0]


@_row
def _row_64(b, cell, want_max):
    # the float bits as integer keys ordered as the floats, -0 below +0 (XLA's max and min of
    # zeros), NaNs beyond +-inf: integer max/min reductions, which vectorize
    k = b.view(np.int64)
    sh = np.int64(63)
    mask = np.int64(9223372036854775807)
    hi = np.int64(-9223372036854775808)
    lo = np.int64(9223372036854775807)
    for i in range(k.shape[0]):
        v = k[i] ^ ((k[i] >> sh) & mask)
        hi = v if v > hi else hi
        lo = v if v < lo else lo
    if hi > np.int64(9218868437227405312) or lo < np.int64(-9218868437227405313):
        return np.float64(np.nan)
    key = hi if want_max else lo
    cell[0] = key ^ ((key >> sh) & mask)
    return cell.view(np.float64)[0]

"""

_INIT = {"sum": "{plan}, {stack}, {t}(0)", "max": "{cell}, True", "min": "{cell}, False"}


def pairwise_plan(n: int) -> np.ndarray[Any, Any]:
    """NumPy's pairwise summation tree of ``n`` contiguous elements in post-order: ``(lo, k)``
    sums a run of ``k <= 128`` elements from ``lo``; ``(-1, 0)`` adds the two sums before it.
    A run above 128 elements splits into halves rounded down to a multiple of 8."""
    plan: list[tuple[int, int]] = []
    todo: list[tuple[int, int, bool]] = [(0, n, False)]
    while todo:
        lo, k, expanded = todo.pop()
        if expanded:
            plan.append((-1, 0))
        elif k <= 128:
            plan.append((lo, k))
        else:
            half = k // 2
            half -= half % 8
            todo.append((lo, k, True))
            todo.append((lo + half, k - half, False))
            todo.append((lo, half, False))
    return np.array(plan, dtype=np.int64).reshape(-1, 2)


def main_shape(eqns: list[JaxprEqn], kinds: list[str]) -> tuple[int, ...] | None:
    """The shape ``S`` of a region's row kernels: the operand of its first reduction over the
    last axis (float32/float64, rows of at least two elements), or None (no row kernel)."""
    if not rt.options().compiled_rows:
        return None
    for eqn, kind in zip(eqns, kinds):
        if kind == "reduce" and _row_reduction(eqn, None):
            shape: tuple[int, ...] = eqn.invars[0].aval.shape
            return shape
    return None


def _row_reduction(eqn: JaxprEqn, shape: tuple[int, ...] | None) -> bool:
    x = eqn.invars[0]
    if eqn.primitive.name not in ROW_REDUCTIONS or not isinstance(x, Var):
        return False
    s = x.aval.shape
    return (
        len(s) >= 2
        and s[-1] >= 2
        and (shape is None or s == shape)
        and x.aval.dtype in _FLOATS
        and eqn.outvars[0].aval.dtype == x.aval.dtype
        and tuple(eqn.params["axes"]) == (len(s) - 1,)
    )


@dataclass
class RowGroup:
    """Consecutive members of a region run by one row kernel. Each value is ``full`` (shape
    ``S``, computed in phase ``phase[id]``) or ``row`` (one per row: a reduction, a view of one,
    or elementwise work on them; known once ``phase[id]`` phases have run)."""

    shape: tuple[int, ...]
    members: list[tuple[int, JaxprEqn, str, str]] = field(default_factory=list)
    internal: dict[int, Var] = field(default_factory=dict)
    role: dict[int, str] = field(default_factory=dict)
    phase: dict[int, int] = field(default_factory=dict)
    alias: dict[int, int] = field(default_factory=dict)  # view id -> the value it shows

    def resolve(self, a: Var) -> int:
        return self.alias.get(id(a), id(a))

    def _level(self, eqn: JaxprEqn) -> int:
        return max(
            (self.phase[self.resolve(a)] for a in eqn.invars if isinstance(a, Var) and self.has(a)),
            default=0,
        )

    def has(self, a: Var) -> bool:
        return id(a) in self.internal

    def admit(self, j: int, eqn: JaxprEqn, kind: str) -> bool:
        """Adds ``eqn`` (member ``j`` of the region, of ``kind``) when the kernel can run it."""
        s = self.shape
        out = eqn.outvars[0]
        row_shapes = (s[:-1], (*s[:-1], 1))
        if kind == "elementwise":
            if not fc.compilable(eqn):
                return False
            if out.aval.shape == s:
                role = "full"
            elif out.aval.shape in row_shapes:
                role = "row"
            else:
                return False
            self._add(j, eqn, kind, role, self._level(eqn))
            return True
        if kind == "reduce":
            if not _row_reduction(eqn, s):
                return False
            x = eqn.invars[0]
            assert isinstance(x, Var)
            if self.has(x) and self.role[self.resolve(x)] != "full":
                return False
            self._add(j, eqn, kind, "row", (self.phase[self.resolve(x)] if self.has(x) else 0) + 1)
            return True
        if kind == "view":
            return self._admit_view(j, eqn, row_shapes)
        return False

    def _admit_view(self, j: int, eqn: JaxprEqn, row_shapes: tuple[tuple[int, ...], ...]) -> bool:
        x = eqn.invars[0]
        if not isinstance(x, Var) or not self.has(x):
            return False  # a view of an outside value: read through it (index_of)
        src = self.resolve(x)
        shape = eqn.outvars[0].aval.shape
        if self.role[src] == "full":
            ok = eqn.primitive.name == "stop_gradient"
        else:
            lead = len(self.shape) - 1
            axes = _view_axes(eqn)
            ok = shape in (*row_shapes, self.shape) and all(
                axes[k] == k for k in range(min(lead, len(axes)))
            )
        if not ok:
            return False
        self._add(j, eqn, "view", self.role[src], self.phase[src])
        self.alias[id(eqn.outvars[0])] = src
        return True

    def _add(self, j: int, eqn: JaxprEqn, kind: str, role: str, phase: int) -> None:
        v = eqn.outvars[0]
        self.members.append((j, eqn, kind, role))
        self.internal[id(v)] = v
        self.role[id(v)] = role
        self.phase[id(v)] = phase

    def reductions(self) -> int:
        return sum(kind == "reduce" for _, _, kind, _ in self.members)


def _view_axes(view: JaxprEqn) -> list[int]:
    """The result axis of each axis of a view's operand."""
    name = view.primitive.name
    if name == "broadcast_in_dim":
        return list(view.params["broadcast_dimensions"])
    if name == "expand_dims":
        inserted = set(view.params["dimensions"])
        rank = view.invars[0].aval.ndim + len(inserted)
        return [k for k in range(rank) if k not in inserted]
    return list(range(view.invars[0].aval.ndim))


class _Source:
    """The kernel text being written: parameters, row buffers, per-scope loads."""

    def __init__(self, group: RowGroup, operands: dict[int, fc.Operand], constants: dict[int, str]):
        self.g = group
        self.operands = operands
        self.constants = constants
        self.rank = len(group.shape)
        self.args: list[str] = []
        self.params: list[str] = []
        self.top: list[str] = []  # before the loops: constants, row buffers
        self.const_names: dict[str, str] = {}
        self.rowbufs: dict[int, str] = {}
        self.count = 0
        # row-level lines before phase p's loop, phase p's loop body, reductions after it
        self.before: dict[int, list[str]] = {}
        self.loops: dict[int, list[str]] = {}
        self.after: dict[int, list[str]] = {}
        self.row_local: dict[int, str] = {}
        self.row_loads: dict[tuple[str, tuple[int | None, ...]], str] = {}
        self.loop_local: dict[int, dict[int, str]] = {}
        self.loop_loads: dict[int, dict[tuple[str, tuple[int | None, ...]], str]] = {}
        self.stored: set[tuple[int, int]] = set()

    def fresh(self, prefix: str = "u") -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def param(self, expr: str) -> str:
        if expr not in self.args:
            self.args.append(expr)
            self.params.append(f"a{len(self.params)}")
        return self.params[self.args.index(expr)]

    def const(self, a: Any) -> str:
        expr = self.constants[id(a)]
        if expr not in self.const_names:
            name = self.fresh("k")
            self.top.append(f"{name} = {self.param(expr)}[()]")
            self.const_names[expr] = name
        return self.const_names[expr]

    def load(self, a: Var, phase: int | None) -> str:
        """``a`` (an outside array) at the current point: in phase ``phase``'s loop, or (None)
        once per row."""
        op = self.operands[id(a)]
        last = self.rank - 1
        index = tuple(None if (phase is None and k == last) else k for k in op.index)
        cache = self.row_loads if phase is None else self.loop_loads.setdefault(phase, {})
        key = (op.expr, index)
        if key not in cache:
            name = self.fresh("l")
            idx = ", ".join(f"i{k}" if k is not None else "0" for k in index)
            line = f"{name} = {self.param(op.expr)}[{idx if index else '()'}]"
            if phase is None:
                self.current_row.append(line)
            else:
                self.loops.setdefault(phase, []).append(line)
            cache[key] = name
        return cache[key]

    current_row: list[str]

    def cell(self, dtype: np.dtype[Any]) -> str:
        name = f"cell_{dtype.name}"
        line = f"{name} = np.empty(1, np.int{8 * dtype.itemsize})"
        if line not in self.top:
            self.top.append(line)
        return name

    def stack(self, dtype: np.dtype[Any]) -> str:
        name = f"stack_{dtype.name}"
        line = f"{name} = np.empty(64, {fc._t(dtype)})"
        if line not in self.top:
            self.top.append(line)
        return name

    def rowbuf(self, vid: int, dtype: np.dtype[Any]) -> str:
        if vid not in self.rowbufs:
            name = f"rb{len(self.rowbufs)}"
            self.top.append(f"{name} = np.empty({self.g.shape[-1]}, {fc._t(dtype)})")
            self.rowbufs[vid] = name
        return self.rowbufs[vid]

    def full(self, a: Any, phase: int) -> str:
        """A full operand in phase ``phase``'s loop."""
        if isinstance(a, Literal) or id(a) in self.constants:
            return self.const(a)
        g = self.g
        if not g.has(a):
            return self.load(a, phase)
        vid = g.resolve(a)
        if g.role[vid] == "row":
            return self.row_local[vid]
        p = g.phase[vid]
        if p == phase:
            return self.loop_local[p][vid]
        return self.carried(vid, a.aval.dtype, phase)

    def carried(self, vid: int, dtype: np.dtype[Any], phase: int) -> str:
        """A full value of an earlier phase: stored to its row buffer there, loaded here."""
        rb = self.rowbuf(vid, dtype)
        self.store_rowbuf(vid, dtype)
        cache = self.loop_loads.setdefault(phase, {})
        key = (rb, (self.rank - 1,))
        if key not in cache:
            name = self.fresh("l")
            self.loops.setdefault(phase, []).append(f"{name} = {rb}[i{self.rank - 1}]")
            cache[key] = name
        return cache[key]

    def store_rowbuf(self, vid: int, dtype: np.dtype[Any]) -> str:
        rb = self.rowbuf(vid, dtype)
        p = self.g.phase[vid]
        if (vid, p) not in self.stored:
            self.stored.add((vid, p))
            self.loops.setdefault(p, []).append(
                f"{rb}[i{self.rank - 1}] = {self.loop_local[p][vid]}"
            )
        return rb

    def row(self, a: Any) -> str:
        """An operand of a row member."""
        if isinstance(a, Literal) or id(a) in self.constants:
            return self.const(a)
        if not self.g.has(a):
            return self.load(a, None)
        return self.row_local[self.g.resolve(a)]


def kernel_source(
    group: RowGroup,
    operands: dict[int, fc.Operand],
    constants: dict[int, str],
    outputs: list[Var],
    plan: str,
) -> tuple[str, list[str]]:
    """The kernel module source of ``group`` and the argument expressions of its call
    (``kernel(r, *arrays, *outputs)``); ``outputs`` are stored where they are computed;
    ``plan``: the expression of the row's :func:`pairwise_plan`."""
    src = _Source(group, operands, constants)
    rank = len(group.shape)
    where: dict[int, list[str]] = {}  # value id -> the lines where it is known (row values)
    for _, eqn, kind, role in group.members:
        v = eqn.outvars[0]
        p = group.phase[id(v)]
        if kind == "view":
            continue
        if kind == "reduce":
            x = eqn.invars[0]
            assert isinstance(x, Var)
            outer = ", ".join(f"i{k}" for k in range(rank - 1))
            if group.has(x):
                vid = group.resolve(x)
                p_x = group.phase[vid]
                rb = src.store_rowbuf(vid, x.aval.dtype)
            elif operands[id(x)].index == tuple(range(rank)):  # an outside array: its row
                p_x = 0
                rb = f"{src.param(operands[id(x)].expr)}[{outer}]"
            else:  # a broadcast outside array: copied into a row buffer in the first loop
                vid, p_x = id(x), 0
                src.loop_local.setdefault(0, {})[vid] = src.load(x, 0)
                group.phase.setdefault(vid, 0)
                rb = src.store_rowbuf(vid, x.aval.dtype)
            which = ROW_REDUCTIONS[eqn.primitive.name]
            t = fc._t(x.aval.dtype)
            name = src.fresh("s")
            lines = src.after.setdefault(p_x, [])
            init = _INIT[which].format(
                t=t,
                plan=src.param(plan),
                stack=src.stack(x.aval.dtype),
                cell=src.cell(x.aval.dtype),
            )
            helper = which if which == "sum" else str(8 * x.aval.dtype.itemsize)
            lines.append(f"{name} = _row_{helper}({rb}, {init})  # {eqn.primitive.name}")
            src.row_local[id(v)] = name
            where[id(v)] = lines
            continue
        if role == "row":
            src.current_row = src.before.setdefault(p, [])
            ins = [src.row(a) for a in eqn.invars]
            lines, expr = fc.expression(eqn, ins, src.fresh)
            name = src.fresh()
            src.current_row.extend([*lines, f"{name} = {expr}  # {eqn.primitive.name}"])
            src.row_local[id(v)] = name
            where[id(v)] = src.current_row
            continue
        ins = [src.full(a, p) for a in eqn.invars]
        lines, expr = fc.expression(eqn, ins, src.fresh)
        name = src.fresh()
        src.loops.setdefault(p, []).extend([*lines, f"{name} = {expr}  # {eqn.primitive.name}"])
        src.loop_local.setdefault(p, {})[id(v)] = name
    out_params = [f"o{k}" for k in range(len(outputs))]
    outer = ", ".join(f"i{k}" for k in range(rank - 1))
    for o, v in zip(out_params, outputs):
        vid = id(v)
        if group.role[vid] == "full":
            p = group.phase[vid]
            src.loops[p].append(f"{o}[{outer}, i{rank - 1}] = {src.loop_local[p][vid]}")
        else:
            tail = ", 0" if v.aval.ndim == rank else ""
            where[vid].append(f"{o}[{outer}{tail}] = {src.row_local[vid]}")
    return _assemble(src, group, out_params), src.args


def _assemble(src: _Source, group: RowGroup, out_params: list[str]) -> str:
    rank = len(group.shape)
    head = [f"@_kernel\ndef kernel(r, {', '.join([*src.params, *out_params])}):"]
    body = [f"    {line}" for line in src.top]
    indent = "    "
    body.append(f"{indent}for i0 in range(r):")
    indent += "    "
    for k in range(1, rank - 1):
        body.append(f"{indent}for i{k} in range({group.shape[k]}):")
        indent += "    "
    phases = sorted(set(src.before) | set(src.loops) | set(src.after))
    for p in phases:
        body.extend(indent + line for line in src.before.get(p, []))
        if src.loops.get(p):
            body.append(f"{indent}for i{rank - 1} in range({group.shape[-1]}):")
            body.extend(indent + "    " + line for line in src.loops[p])
        body.extend(indent + line for line in src.after.get(p, []))
    body.append(f"{indent}pass")
    return HELPERS + "\n".join([*head, *body]) + "\n"


# -- writing a region's chunk function (called by fusion_codegen._RegionWriter) ------------------


def write_members(w: Any, partials: list[str]) -> None:
    """Writes the members of ``w``'s region (a :class:`.fusion_codegen._RegionWriter` with
    compiled groups on, whose region has a row reduction) into its chunk function: runs the
    row kernels can do as :class:`RowGroup` kernel calls, everything else as before."""
    region = w.region
    shape = main_shape(region.eqns, region.kinds)
    assert shape is not None
    group: RowGroup | None = None
    for j, (eqn, kind) in enumerate(zip(region.eqns, region.kinds)):
        if group is None:
            group = RowGroup(shape)
        if group.admit(j, eqn, kind):
            continue
        if kind == "view" and group.members and not _reads(group, eqn):
            w.member(j, eqn, kind, partials)  # a view of an outside value: read through it
            w.views[id(eqn.outvars[0])] = eqn
            continue
        if group.members:
            _close(w, group, partials)
            group = RowGroup(shape)
            if group.admit(j, eqn, kind):
                continue
        group = None
        w.member(j, eqn, kind, partials)
        if kind == "view":
            w.views[id(eqn.outvars[0])] = eqn
        w.free_dead(j)
    if group is not None and group.members:
        _close(w, group, partials)


def _reads(group: RowGroup, eqn: JaxprEqn) -> bool:
    return any(isinstance(a, Var) and group.has(a) for a in eqn.invars)


def _unfused(w: Any, group: RowGroup, partials: list[str]) -> None:
    for j, eqn, kind, _ in group.members:
        w.member(j, eqn, kind, partials)
        if kind == "view":
            w.views[id(eqn.outvars[0])] = eqn
        w.free_dead(j)


def _close(w: Any, group: RowGroup, partials: list[str]) -> None:
    """Writes ``group``'s kernel call (or, when an operand cannot be indexed, its members one by
    one); its values used later go to buffers or outputs, views of them are made after it."""
    operands: dict[int, fc.Operand] = {}
    constants: dict[int, str] = {}
    for _, eqn, kind, _ in group.members:
        if kind == "view":
            continue
        shape = group.shape if kind == "reduce" else eqn.outvars[0].aval.shape
        for a in eqn.invars:
            if isinstance(a, Literal):
                constants[id(a)] = w.em.bind(np.asarray(a.value, a.aval.dtype))
            elif not group.has(a):
                op = w.index_of(a, shape)
                if op is None:
                    _unfused(w, group, partials)
                    return
                operands[id(a)] = op
    last = group.members[-1][0]
    needed = {
        id(v)
        for v in group.internal.values()
        if id(v) in w.out_index or w.last_use.get(id(v), -1) > last
    }
    views: list[
        tuple[int, JaxprEqn, str, str]
    ] = []  # views needed later, with the views they are made from
    wanted = set(needed)
    for m in reversed(group.members):
        if m[2] == "view" and id(m[1].outvars[0]) in wanted:
            views.insert(0, m)
            wanted.add(id(m[1].invars[0]))
    stored = {group.resolve(m[1].outvars[0]) for m in views}
    outputs = [
        v
        for v in group.internal.values()
        if (id(v) in needed and id(v) not in group.alias) or id(v) in stored
    ]
    read = {w.buffer[i] for i in operands if i in w.buffer}
    keep = [b for b in w.free if b in read]  # the kernel reads them: not reusable yet
    w.free = [b for b in w.free if b not in read]
    targets = [w.target(v, last, []) for v in outputs]
    w.free.extend(keep)
    plan = pairwise_plan(group.shape[-1])
    plan_expr = w.em.bind(plan, "k")
    text, args = kernel_source(group, operands, constants, outputs, plan_expr)
    kernel = compiled.kernel(text)
    arrays: dict[str, Any] = {plan_expr: plan}
    for op in operands.values():
        arrays[op.expr] = np.zeros((1,) * len(op.index), op.dtype)
    for c in constants.values():
        arrays[c] = np.zeros((), w.em.env[c].dtype)
    dummies = [arrays[a] for a in args]
    dummies += [np.zeros((1,) * v.aval.ndim, v.aval.dtype) for v in outputs]
    # r = 0: compiles for these types, runs nothing
    site = fusion_native.Site(kernel, (0, *dummies), len(outputs))
    k = w.em.bind(site, "c")
    w.warmups.append(site)
    names = ", ".join(eqn.primitive.name for _, eqn, kind, _ in group.members if kind != "view")
    w.body.append(
        f"    {k}.fn(r, {', '.join([*args, *targets])})  # compiled: {names} (row kernel)"
    )
    for v, t in zip(outputs, targets):
        w.expr[id(v)] = t
    for j, eqn, kind, _ in views:
        w.member(j, eqn, kind, partials)
        out = eqn.outvars[0]
        w.views[id(out)] = eqn
        if out.aval.shape != eqn.invars[0].aval.shape:
            # not a buffer of its own shape: never written into in place (its source keeps
            # the buffer alive while it is read: _plan_lifetimes)
            w.buffer.pop(id(out), None)
    w.free_dead(last)
