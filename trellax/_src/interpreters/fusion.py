"""Cache-blocked fusion of elementwise regions in compiled ``jit`` programs: the plan.

Eagerly, and in a straight-line compiled program, every equation of ``((x * 2 + 1) ** 2).sum()``
makes a full-size temporary that travels through main memory. :func:`plan` groups a jaxpr's
equations into *regions* that can instead run chunk by chunk: each chunk of rows is read once,
every equation of the region is evaluated on it while it is in cache (into per-worker scratch
buffers, with NumPy's ``out=``), and only the region's outputs are written back.

A region has a row count ``n`` (the leading axis of its values); every value it computes has
``n`` rows and is evaluated ``rows`` rows at a time. Its equations are:

* elementwise equations (primitives marked ``fusable``) whose result has ``n`` rows; operands may be the
  region's values, or values from outside with ``n`` rows (sliced per chunk) or one row / 0-d
  (broadcast whole);
* ``broadcast_in_dim``/``expand_dims`` to ``n`` rows (views, per chunk);
* reductions: over axes other than the leading one they are computed per chunk and may feed the
  region's later equations (softmax's max and sum over the last axis); over the leading axis
  (a full sum, say) each chunk gives a partial, combined in chunk order after the loop, and the
  result is available only after the region.

Regions whose values all have one shape and read no row-shaped operand are run on the flattened
arrays (``flat``): chunks are then ``chunk`` elements whatever the shape. Code generation is in
:mod:`trellax._src.interpreters.fusion_codegen`; the loop and the thread pool in
:mod:`trellax._src.interpreters.fusion_runtime`.

Exactness: every elementwise result is the unfused one, bit for bit. A ufunc equation is the same
ufunc on the same dtypes (its result dtype is checked against the equation's when the plan is
made); other equations either replay their impl's NumPy calls with ``out=`` (``integer_pow``'s
multiplications, ``select_n``'s copies, same-kind casts) or call the impl itself on the chunk.
Only cross-chunk sums and products associate differently (see ``docs/performance.md``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import ml_dtypes
import numpy as np

from trellax._src.backend import compiled, fp_errors, sum_order
from trellax._src.core.jaxpr import Jaxpr, JaxprEqn, Literal, Var
from trellax._src.interpreters.fusion_runtime import Bounds, FusionOptions, Tree, pairwise_plan

#: Reductions a region can hold, and how their per-chunk partials combine.
REDUCTIONS = {
    "reduce_sum": "sum",
    "reduce_prod": "prod",
    "reduce_max": "max",
    "reduce_min": "min",
    "reduce_and": "and",
    "reduce_or": "or",
    "reduce_xor": "xor",
}

#: Reductions computed per chunk only (over axes other than the leading one).
ROW_ONLY = frozenset({"argmax", "argmin"})

_BF16 = np.dtype(ml_dtypes.bfloat16)
_F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)
#: The types a region holds in float32: bfloat16 always (exactly, rounding after each operation);
#: float16 too under ``fused_excess_precision`` (where neither is rounded inside the region).
NARROW = frozenset({_BF16, _F16})

_VIEWS = frozenset({"broadcast_in_dim", "expand_dims", "stop_gradient"})


def _supported_dtype(d: np.dtype[Any]) -> bool:
    """NumPy's own numeric types, and bfloat16 (ml_dtypes' loops evaluate it in float32 and
    round once, like float16's). The other ml_dtypes types (int4, float8, ...) stay unfused."""
    return d.kind in "biufc" or d.name == "bfloat16"


_PROBES: dict[Any, bool] = {}


def _same_dtype_as_impl(eqn: JaxprEqn) -> bool:
    """Whether the impl, run on one-element operands of the equation's dtypes, returns the
    equation's result dtype (so writing its result into a buffer of that dtype changes nothing)."""
    dts = tuple(a.aval.dtype for a in eqn.invars)
    try:
        key: Any = (eqn.primitive, dts, tuple(sorted(eqn.params.items())))
        hash(key)
    except TypeError:
        key = None
    if key is not None and key in _PROBES:
        return _PROBES[key]
    impl = eqn.primitive.impl
    ok = False
    if impl is not None:
        try:
            with fp_errors.quiet():
                out = impl(*[np.zeros((1,), d) for d in dts], **eqn.params)
            ok = np.asarray(out).dtype == eqn.outvars[0].aval.dtype
        except Exception:
            ok = False
    if key is not None:
        _PROBES[key] = ok
    return ok


def classify(eqn: JaxprEqn) -> str | None:
    """The role ``eqn`` can play in a region (``"elementwise"``, ``"view"``, ``"reduce"``,
    ``"row_reduce"``), or None when it is never fused."""
    name = eqn.primitive.name
    if eqn.primitive.multiple_results or len(eqn.outvars) != 1 or eqn.primitive.impl is None:
        return None
    dtypes = [a.aval.dtype for a in (*eqn.invars, *eqn.outvars)]
    if not all(_supported_dtype(d) for d in dtypes):
        return None
    if eqn.primitive.fusable:  # set beside the primitive's definition (lax.shapes.def_elementwise)
        return "elementwise" if _same_dtype_as_impl(eqn) else None
    if name in _VIEWS:
        return "view"
    if name == "reduce_sum":
        x = eqn.invars[0].aval
        if sum_order.in_domain(x.shape, x.dtype, tuple(eqn.params["axes"])):
            return None  # XLA's order, decided by the whole operand (backend/sum_order.py)
    if name in REDUCTIONS and not (name == "reduce_prod" and dtypes[0].kind == "c"):
        return "reduce"  # (complex products: the impl folds with XLA's complex product)
    if name in ROW_ONLY:
        return "row_reduce"
    return None


@dataclass
class Region:
    """Equations evaluated together, chunk by chunk, over ``n`` rows."""

    n: int
    eqns: list[JaxprEqn] = field(default_factory=list)
    kinds: list[str] = field(default_factory=list)
    #: Values computed per chunk (id -> var); ``late``: results of cross-chunk reductions.
    values: dict[int, Var] = field(default_factory=dict)
    late: dict[int, Var] = field(default_factory=dict)
    row_elements: int = 1
    # Decided when the region closes (:meth:`finish`):
    flat: bool = False
    #: bfloat16 values held in float32 (every equation :func:`widens`); under excess precision
    #: (``excess``), bfloat16 and float16 values, unrounded (every equation
    #: :func:`widens_excess`).
    wide: bool = False
    excess: bool = False
    #: Its elementwise runs are compiled (``fusion_compiled.py``): decided with the chunk size.
    compiled: bool = False
    rows: int = 1
    #: For a cross-chunk float32/float64/complex sum over a whole array: the scalars per element
    #: it holds for, the chunks (nodes of NumPy's pairwise tree, :func:`pairwise_plan`) and the
    #: tree that combines their sums into the unfused sum bit for bit.
    pairwise: tuple[int, Bounds, Tree] | None = None
    externals: list[Var] = field(default_factory=list)
    outputs: list[Var] = field(default_factory=list)

    @property
    def size(self) -> int:
        return self.n * self.row_elements

    def _chunked(self, v: Var) -> bool:
        """Whether an operand from outside is sliced per chunk (else it is broadcast whole)."""
        return v.aval.ndim > 0 and v.aval.shape[0] == self.n

    def fits(self, eqn: JaxprEqn, kind: str) -> bool:
        """Whether ``eqn`` can join this region (read only its chunked values, not its late
        ones, and produce ``n`` rows)."""
        for a in eqn.invars:
            if isinstance(a, Var) and id(a) in self.late:
                return False
        out = eqn.outvars[0].aval
        if kind == "elementwise":
            return out.ndim > 0 and out.shape[0] == self.n
        x = eqn.invars[0]
        if not isinstance(x, Var):
            return False
        mine = id(x) in self.values
        name = eqn.primitive.name
        if kind == "view":
            if out.ndim == 0 or out.shape[0] != self.n:
                return False
            if name == "stop_gradient":
                return mine or self._chunked(x)
            if name == "expand_dims":
                return (mine or self._chunked(x)) and 0 not in eqn.params["dimensions"]
            dims = eqn.params["broadcast_dimensions"]
            if mine or (dims and dims[0] == 0 and x.aval.shape[0] == self.n):
                return bool(dims) and dims[0] == 0
            return 0 not in dims or x.aval.shape[dims.index(0)] == 1
        if not (mine or self._chunked(x)):
            return False
        if kind == "row_reduce":
            return 0 not in eqn.params["axes"]
        return True

    def add(self, eqn: JaxprEqn, kind: str) -> None:
        self.eqns.append(eqn)
        out = eqn.outvars[0]
        late = kind == "reduce" and 0 in eqn.params["axes"]
        self.kinds.append("late" if late else kind)
        if late:
            self.late[id(out)] = out
        else:
            self.values[id(out)] = out
        for v in (out, *eqn.invars):
            shape = v.aval.shape
            if (
                isinstance(v, Var)
                and shape
                and shape[0] == self.n
                and (id(v) in self.values or self._chunked(v))
            ):
                self.row_elements = max(self.row_elements, int(np.prod(shape[1:], dtype=np.int64)))

    def finish(self, needed_outside: set[int], opts: FusionOptions) -> bool:
        """Decides the externals, outputs, flat mode and rows per chunk; False when the region
        is not worth a chunk loop (then its equations run unfused)."""
        computes = sum(k in ("elementwise", "late", "reduce", "row_reduce") for k in self.kinds)
        dtypes = {a.aval.dtype for e in self.eqns for a in (*e.invars, *e.outvars)}
        if opts.excess_precision and dtypes & NARROW:
            self.excess = all(widens_excess(e, k) for e, k in zip(self.eqns, self.kinds))
        self.wide = self.excess or (
            _BF16 in dtypes and all(widens(e, k) for e, k in zip(self.eqns, self.kinds))
        )
        # One equation is worth a loop only when it runs in float32 instead of bfloat16.
        if (len(self.eqns) < 2 and not self.wide) or computes < 1:
            return False
        if self.size == 0 or self.size < opts.min_elements:
            return False
        mine = set(self.values) | set(self.late)
        seen: set[int] = set()
        for eqn in self.eqns:
            for a in eqn.invars:
                if isinstance(a, Var) and id(a) not in mine and id(a) not in seen:
                    seen.add(id(a))
                    self.externals.append(a)
        self.outputs = [v for v in self.values.values() if id(v) in needed_outside]
        self.flat = self._flat_ok()
        chunk = opts.chunk
        self.compiled = (
            opts.compiled != "off"
            and not self.wide
            and self.size >= opts.compiled_min
            and compiled.available()
        )
        if self.compiled:  # fewer, longer kernel calls: less Python per element
            chunk = max(chunk, opts.compiled_chunk)
        if self.flat:
            self.rows = max(1, chunk)
        else:
            self.rows = max(1, chunk // max(1, self.row_elements))
        self._plan_pairwise()
        return True

    def _plan_pairwise(self) -> None:
        """Sets :attr:`pairwise` from the first cross-chunk sum that NumPy sums pairwise over a
        whole array (complex and real trees split at different places, so one tree per region).
        The tree's chunks may hold up to 4/3 of ``rows`` (then ``rows`` grows to the longest),
        so they average about ``rows`` instead of between half and all of it."""
        for eqn, kind in zip(self.eqns, self.kinds):
            scalars = pairwise_scalars(self, eqn, kind)
            if scalars:
                n = self.size if self.flat else self.n
                plan = pairwise_plan(n, max(1, self.rows * 4 // 3), scalars)
                if plan is not None:
                    self.pairwise = (scalars, *plan)
                    self.rows = max(i1 - i0 for i0, i1 in plan[0])
                return

    def _flat_ok(self) -> bool:
        """Every value one shape ``S`` (ndim >= 2), every outside operand ``S``-shaped or a single
        element, and only full reductions: then chunks run over the flattened arrays."""
        shape = self.eqns[0].outvars[0].aval.shape
        if self.kinds[0] == "late":
            shape = self.eqns[0].invars[0].aval.shape
        if len(shape) < 2:
            return False
        for eqn, kind in zip(self.eqns, self.kinds):
            if kind in ("row_reduce", "reduce"):
                return False
            name = eqn.primitive.name
            if kind == "view" and name != "broadcast_in_dim":
                return False
            if kind == "late":
                if eqn.invars[0].aval.shape != shape:
                    return False
                if tuple(eqn.params["axes"]) != tuple(range(len(shape))):
                    return False
            elif eqn.outvars[0].aval.shape != shape:
                return False
        return all(v.aval.shape == shape or v.aval.size == 1 for v in self.externals)

    def describe(self) -> str:
        """One paragraph for ``Lowered.as_text()``: what is fused and how it is chunked."""
        ops = []
        for eqn, kind in zip(self.eqns, self.kinds):
            tag = {"late": " (across chunks)", "reduce": " (per row)", "row_reduce": " (per row)"}
            ops.append(eqn.primitive.name + tag.get(kind, ""))
        unit = "elements of the flattened operands" if self.flat else "rows"
        n = self.size if self.flat else self.n
        return (
            f"{len(self.eqns)} equations over {n} {unit}, {self.rows} per chunk: "
            + ", ".join(ops)
            + f"; {len(self.outputs)} array outputs, {len(self.late)} cross-chunk reductions"
        )


_PAIRWISE_SCALARS = {
    np.dtype(np.float32): 1,
    np.dtype(np.float64): 1,
    np.dtype(np.complex64): 2,
    np.dtype(np.complex128): 2,
}


def pairwise_scalars(region: Region, eqn: JaxprEqn, kind: str) -> int:
    """Scalars per element (1, or 2 for complex) of a cross-chunk ``reduce_sum`` of
    ``region`` that NumPy sums pairwise over a whole array in its own dtype: float32, float64
    and complex, over a flat or 1-D operand; else 0 (narrow floats accumulate in float32
    through cast buffers, a sum over the leading axis of rows is NumPy's row-by-row loop,
    integer sums are exact in any order)."""
    if kind != "late" or eqn.primitive.name != "reduce_sum":
        return 0
    x = eqn.invars[0].aval
    if not (region.flat or x.ndim == 1):
        return 0
    return _PAIRWISE_SCALARS.get(x.dtype, 0)


#: bfloat16 operations computed in float32 and rounded once, exactly as ml_dtypes' loops do
#: (checked against them on every bfloat16 value, and every float32 bit pattern for the
#: rounding, in tests/test_fusion.py).
_WIDE_OPS = frozenset(
    {"add", "sub", "mul", "div", "sqrt", "rsqrt", "neg", "abs", "integer_pow", "is_finite"}
    | {"eq", "ne", "lt", "le", "gt", "ge"}
)

#: NumPy's sums of bfloat16 in float32 cast through buffers of this many elements; a row sum of
#: at most this many elements is the same sum of the widened values.
_CAST_BUFFER = 8192


def widens(eqn: JaxprEqn, kind: str) -> bool:
    """Whether ``eqn`` computes the same bits with its bfloat16 values held in float32 (with a
    rounding after each operation). A region runs widened only if every equation does:
    ml_dtypes' bfloat16 loops cost ~10-20 ns an element, float32 ufuncs and the rounding ~2."""
    dts = {a.aval.dtype for a in (*eqn.invars, *eqn.outvars)}
    if _BF16 not in dts:
        return True
    name = eqn.primitive.name
    if kind == "view":
        return True
    if name in _WIDE_OPS:
        return dts <= {_BF16, np.dtype(np.bool_)}
    if name == "select_n":
        return eqn.invars[0].aval.dtype == np.bool_ and len(eqn.invars) == 3
    if name == "convert_element_type":
        return dts == {_BF16, np.dtype(np.float32)}
    if name == "reduce_sum":
        if kind == "late":
            return True
        x, axes = eqn.invars[0].aval, tuple(eqn.params["axes"])
        trailing = axes == tuple(range(x.ndim - len(axes), x.ndim))
        return trailing and math.prod(x.shape[a] for a in axes) <= _CAST_BUFFER
    return False


def shadow(eqn: JaxprEqn) -> JaxprEqn:
    """``eqn`` with its bfloat16/float16 operands and results typed float32 (what it computes
    under excess precision); its parameters are unchanged."""

    def wide(a: Any) -> Var:
        d = a.aval.dtype
        return Var(a.aval.update(dtype=_F32) if d in NARROW else a.aval)

    return JaxprEqn(
        eqn.primitive, [wide(a) for a in eqn.invars], [wide(eqn.outvars[0])], eqn.params
    )


def widens_excess(eqn: JaxprEqn, kind: str) -> bool:
    """Under excess precision: whether ``eqn`` can compute with its bfloat16/float16 values held
    in float32, unrounded (its impl on float32 operands gives float32). A convert to a narrow
    type rounds (from float32 or the other narrow type only: from a wider type the rounding
    through float32 could differ); a convert from one reads the float32 value."""
    dts = {a.aval.dtype for a in (*eqn.invars, *eqn.outvars)}
    if not dts & NARROW or kind == "view":
        return True
    if eqn.primitive.name == "convert_element_type":
        src = eqn.invars[0].aval.dtype
        return src in NARROW or src == _F32
    if kind == "elementwise":
        return _same_dtype_as_impl(shadow(eqn))
    return True


Step = JaxprEqn | Region


def plan(jaxpr: Jaxpr, opts: FusionOptions) -> list[Step]:
    """The jaxpr's equations in an order that runs them, with fusable runs grouped into regions.

    One region is open at a time. An equation joins it when it fits; an equation that reads the
    open region's values (or starts a large region of its own) closes it first; any other
    equation runs before the region (it does not depend on it), so moving the region's
    evaluation to the point where it closes respects every dependency.
    """
    steps: list[Step] = []
    if not opts.enabled:
        return list(jaxpr.eqns)
    users: dict[int, list[int]] = {}
    for j, eqn in enumerate(jaxpr.eqns):
        for a in eqn.invars:
            if isinstance(a, Var):
                users.setdefault(id(a), []).append(j)
    index = {id(eqn): j for j, eqn in enumerate(jaxpr.eqns)}
    out_ids = {id(a) for a in jaxpr.outvars if isinstance(a, Var)}
    current: Region | None = None

    def close() -> None:
        nonlocal current
        region, current = current, None
        if region is None:
            return
        members = {index[id(e)] for e in region.eqns}
        needed = {
            vid
            for vid in region.values
            if vid in out_ids or any(j not in members for j in users.get(vid, ()))
        }
        if region.finish(needed, opts):
            steps.append(region)
        else:
            steps.extend(region.eqns)

    for eqn in jaxpr.eqns:
        kind = classify(eqn)
        if current is not None and kind is not None and current.fits(eqn, kind):
            current.add(eqn, kind)
            continue
        if current is not None and _reads(eqn, current):
            close()
        if kind is not None:
            fresh = _start(eqn, kind)
            # A small equation of another shape (a broadcast of a bias row) must not end a
            # large region: it runs before it instead.
            if fresh is not None and (
                current is None or fresh.size >= max(opts.min_elements, current.size)
            ):
                close()
                current = fresh
                continue
        steps.append(eqn)
    close()
    return steps


def _reads(eqn: JaxprEqn, region: Region) -> bool:
    return any(
        isinstance(a, Var) and (id(a) in region.values or id(a) in region.late) for a in eqn.invars
    )


def _start(eqn: JaxprEqn, kind: str) -> Region | None:
    """A new region holding ``eqn``, or None when it cannot anchor one."""
    if kind in ("reduce", "row_reduce"):
        x = eqn.invars[0]
        if isinstance(x, Literal) or x.aval.ndim == 0:
            return None
        n = x.aval.shape[0]
    else:
        out = eqn.outvars[0].aval
        if out.ndim == 0:
            return None
        n = out.shape[0]
    region = Region(n)
    if not region.fits(eqn, kind):
        return None
    region.add(eqn, kind)
    return region
