"""Cache-blocked fusion: the generated code of a region (see :mod:`.fusion` for the plan).

A region becomes a top-level *chunk function* of the generated module::

    def _region1(i0, i1, s, x):          # rows i0:i1; s: this worker's scratch; x: operands
        x0, o0 = x
        b0, = s
        r = i1 - i0
        if r != 65536:
            b0 = b0[:r]
        e0 = x0[i0:i1]
        _mul(e0, k2, out=b0)             # mul
        _add(b0, k3, out=b0)             # add
        _mul(b0, b0, out=b0)             # integer_pow[y=2]
        return (_partial_sum(b0, (0,)),)  # reduce_sum, across chunks

and, at the region's place in ``run``, a call of :func:`~.fusion_runtime.run_region` followed by
the combination of each cross-chunk reduction's partials. Array outputs are allocated once and
written chunk by chunk (``out=`` their slice); values used only inside the region live in scratch
buffers of one chunk, reused as soon as a value is dead.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ml_dtypes
import numpy as np

from trellax._src.backend import compiled, fp_errors, select_bits, sum_order
from trellax._src.backend.convert import convert
from trellax._src.core.core import Primitive
from trellax._src.core.jaxpr import Atom, JaxprEqn, Literal, Var, eqn_kernel
from trellax._src.interpreters import fusion_compiled as fc
from trellax._src.interpreters import fusion_native
from trellax._src.interpreters import fusion_rows as fr
from trellax._src.interpreters import fusion_runtime as rt
from trellax._src.interpreters.fusion import (
    _BF16,
    NARROW,
    REDUCTIONS,
    Region,
    pairwise_scalars,
    shadow,
)

if TYPE_CHECKING:
    from trellax._src.interpreters.tracing import Emitter


def _astype_kind(src: np.dtype[Any], dst: np.dtype[Any]) -> bool:
    """Whether ``convert(x, dst)`` is plain ``x.astype(dst)`` for every value (so a cast into a
    buffer, which runs the same cast loop, is identical): no complex source losing its imaginary
    part, no float -> integer saturation, no ``!= 0`` test for bool."""
    if dst == np.bool_ or (src.kind == "c" and dst.kind != "c"):
        return False
    return not (src.kind in "fV" and dst.kind in "iu")


class _RegionWriter:
    """Writes one region's chunk function and its call (see the module docstring)."""

    def __init__(
        self,
        em: Emitter,
        region: Region,
        ref: Callable[[Atom], str],
        indent: str,
        compile_: bool = False,
    ) -> None:
        self.em = em
        self.compile_ = compile_  # write elementwise runs as compiled groups
        #: the kernel call sites (each with arguments of its types that compile it ahead)
        self.warmups: list[fusion_native.Site] = []
        self.indent = indent
        self.region = region
        self.ref = ref
        self.body: list[str] = []
        self.expr: dict[int, str] = {}  # var id -> its expression inside the chunk function
        self.buffer: dict[int, int] = {}  # var id -> scratch buffer holding it
        self.buffers: list[tuple[np.dtype[Any], tuple[int, ...]]] = []  # (dtype, row shape)
        self.free: list[int] = []
        self.count = 0
        self.wide = False
        self.excess = False
        self.narrow_scratch: dict[tuple[np.dtype[Any], tuple[int, ...]], str] = {}
        self.views: dict[int, JaxprEqn] = {}  # var id -> the view member that made it
        self.round_scratch: dict[tuple[int, ...], tuple[str, str]] = {}
        #: external var id -> its value when known as the program is generated (a constant)
        self.known: dict[int, Any] = {}

    def fresh(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def chunk_shape(self, v: Var) -> tuple[int, ...]:
        return () if self.region.flat else tuple(v.aval.shape[1:])

    # -- buffers --------------------------------------------------------------------------------

    def is_wide(self, v: Atom) -> bool:
        """Whether ``v`` is a bfloat16 (or, under excess precision, float16) value held in
        float32 (see :func:`.fusion.widens` and :func:`.fusion.widens_excess`)."""
        d = v.aval.dtype
        return self.wide and (d == _BF16 or (self.excess and d in NARROW))

    def storage(self, v: Var) -> np.dtype[Any]:
        return np.dtype(np.float32) if self.is_wide(v) else v.aval.dtype

    def new_buffer(self, v: Var) -> str:
        key = (self.storage(v), self.chunk_shape(v))
        for i, b in enumerate(self.free):
            if self.buffers[b] == key:
                del self.free[i]
                return f"b{b}"
        self.buffers.append(key)
        return f"b{len(self.buffers) - 1}"

    def target(self, v: Var, j: int, inplace: list[Atom]) -> str:
        """Where member ``j`` writes ``v``: its output slice, an operand's buffer that dies
        here (``inplace``: operands it may overwrite), or a scratch buffer."""
        if id(v) in self.out_index and not self.is_wide(v):
            return self.out_slice(v)
        for a in inplace:
            if (
                isinstance(a, Var)
                and id(a) in self.buffer
                and self.last_use.get(id(a)) == j
                and a.aval.shape == v.aval.shape
                and a.aval.dtype == v.aval.dtype
                and self.buffer[id(a)] not in self.free
                # a view (a broadcast) shares the buffer of a smaller value: the buffer itself
                # must have v's chunk shape and storage
                and self.buffers[self.buffer[id(a)]] == (self.storage(v), self.chunk_shape(v))
                and self.dies_here(self.buffer[id(a)], j)
            ):
                b = self.buffer[id(a)]
                self.buffer[id(v)] = b
                return f"b{b}"
        name = self.new_buffer(v)
        self.buffer[id(v)] = int(name[1:])
        return name

    def dies_here(self, b: int, j: int) -> bool:
        """Whether every value held in buffer ``b`` (a value and its views, such as a widened
        bfloat16 value and its convert to float32) is last read by member ``j``."""
        return all(self.last_use.get(k, j) <= j for k, bb in self.buffer.items() if bb == b)

    def out_slice(self, v: Var) -> str:
        name = self.fresh("t")
        self.body.append(f"    {name} = o{self.out_index[id(v)]}[i0:i1]")
        return name

    def store(self, v: Var, expr: str) -> None:
        """Writes a wide output into its output slice: a bfloat16 value (exact mode) is its
        float32 bits' top half; under excess precision the float32 value is rounded by the cast
        (round to nearest even, as the narrow type's own conversion)."""
        if id(v) in self.out_index and self.is_wide(v):
            if self.excess:
                self.body.append(f"    _copyto({self.out_slice(v)}, {expr}, casting='unsafe')")
            else:
                self.body.append(f"    _narrow_bf16({expr}, {self.out_slice(v)})")

    def round_narrow(self, t: str, v: Var, x: str, comment: str) -> None:
        """Excess precision: ``t`` = float32 ``x`` rounded to ``v``'s narrow type (a cast there
        and back through a scratch buffer of that type)."""
        key = (v.aval.dtype, self.chunk_shape(v))
        if key not in self.narrow_scratch:
            self.buffers.append(key)
            self.narrow_scratch[key] = f"b{len(self.buffers) - 1}"
        nb = self.narrow_scratch[key]
        self.body.append(f"    _copyto({nb}, {x}, casting='unsafe'){comment}")
        self.body.append(f"    _copyto({t}, {nb})")

    def round_bf16(self, t: str, v: Var) -> None:
        """Rounds the float32 values in ``t`` (shaped like ``v``'s chunk) to bfloat16."""
        key = self.chunk_shape(v)
        if key not in self.round_scratch:
            self.buffers.append((np.dtype(np.uint32), key))
            u = len(self.buffers) - 1
            self.buffers.append((np.dtype(np.bool_), key))
            self.round_scratch[key] = (f"b{u}", f"b{u + 1}")
        u_name, m_name = self.round_scratch[key]
        self.body.append(f"    _round_bf16({t}, {u_name}, {m_name}, nanfix)")

    # -- the chunk function -----------------------------------------------------------------

    def write(self, alt: tuple[str, _RegionWriter, compiled.Ready] | None = None) -> None:
        """Writes the region's chunk function into the preamble and its call into ``run``;
        with ``alt`` (the compiled version's function, writer and readiness), the call runs
        that version once its kernels are compiled."""
        fn, values_in = self.write_function()
        self._emit_call(fn, values_in, alt)

    def write_function(self) -> tuple[str, list[str]]:
        """Writes the chunk function into the preamble; returns its name and the outer
        expressions of its inputs."""
        region = self.region
        self.out_index = {id(v): i for i, v in enumerate(region.outputs)}
        self.wide = region.wide
        self.excess = region.excess
        self._plan_lifetimes()
        values_in = self._read_inputs()
        if self.wide and not self.excess:
            self._check_nans()

        partials: list[str] = []
        compile_ = self.compile_ and self.region.compiled and not self.wide
        if compile_ and not region.flat and fr.main_shape(region.eqns, region.kinds) is not None:
            fr.write_members(self, partials)  # row kernels (fusion_rows.py)
            return self._define_function(partials), values_in
        group: fc.Group | None = None
        for j, (eqn, kind) in enumerate(zip(region.eqns, region.kinds)):
            if compile_:
                if kind == "elementwise" and fc.compilable(eqn):
                    shape = eqn.outvars[0].aval.shape
                    if group is not None and group.shape != shape:
                        self.close_group(group)
                        group = None
                    if group is None:
                        group = fc.Group(shape)
                    group.add(j, eqn)
                    continue
                if kind == "late" and fc.sums_in_kernel(eqn, group, region.flat):
                    assert group is not None
                    self.close_group(group, (j, eqn), partials)
                    group = None
                    continue
                if kind == "view" and group is not None and not group.reads_internal(eqn):
                    self.member(j, eqn, kind, partials)  # a view: no buffer to free
                    self.views[id(eqn.outvars[0])] = eqn
                    continue
                if group is not None:
                    self.close_group(group)
                    group = None
            self.member(j, eqn, kind, partials)
            if kind == "view":
                self.views[id(eqn.outvars[0])] = eqn
            self.free_dead(j)
        if group is not None:
            self.close_group(group)

        return self._define_function(partials), values_in

    def free_dead(self, j: int) -> None:
        """Returns to the free list the buffers whose values are last read by member ``j``."""
        for b in set(self.buffer.values()) - set(self.free):
            if self.dies_here(b, j):
                self.free.append(b)

    # -- compiled groups (fusion_compiled.py) ---------------------------------------------------

    def index_of(self, a: Var, shape: tuple[int, ...]) -> fc.Operand | None:
        """How a group whose results have aval shape ``shape`` (``a``'s rank) reads ``a``: an
        array of the chunk function and, per axis of that array, the axis of ``shape`` whose
        loop indexes it (None: a size-1 axis, broadcast). Through views, their source is read.
        None when ``a`` has no expression here."""
        view = self.views.get(id(a))
        if view is not None and isinstance(view.invars[0], Var):
            src: Var = view.invars[0]
            inner = self.index_of(src, src.aval.shape)
            if inner is None or self.region.flat:
                return inner  # flat: the source is the whole chunk, or a single element
            axes = _view_axes(view)  # source axis -> result axis
            index = tuple(
                None if k is None or src.aval.shape[k] != shape[axes[k]] else axes[k]
                for k in inner.index
            )
            return fc.Operand(inner.expr, index, inner.dtype)
        expr = self.expr.get(id(a))
        if expr is None:
            return None
        if self.region.flat:  # chunks are 1-d slices, or 0-d single elements
            return fc.Operand(expr, (0,) if a.aval.size == self.region.size else (), a.aval.dtype)
        index = tuple(None if d != shape[k] else k for k, d in enumerate(a.aval.shape))
        return fc.Operand(expr, index, a.aval.dtype)

    def close_group(
        self,
        group: fc.Group,
        late: tuple[int, JaxprEqn] | None = None,
        partials: list[str] | None = None,
    ) -> None:
        """Writes ``group``'s kernel call into the chunk function (or its members one by one,
        when an operand cannot be indexed); its values used later go to buffers or outputs.
        With ``late`` (a cross-chunk sum of one of its values, see ``fc.sums_in_kernel``), a
        chunk of at least 128 elements is summed inside a second kernel, in NumPy's order; other
        chunks store the value and sum it with NumPy. The partial goes to ``partials``."""
        operands: dict[int, fc.Operand] = {}
        constants: dict[int, str] = {}
        for _, eqn in group.members:
            for a in eqn.invars:
                if isinstance(a, Literal):
                    value = np.asarray(a.value, a.aval.dtype)
                    constants[id(a)] = self.em.bind(value)
                elif id(a) not in group.internal:
                    op = self.index_of(a, group.shape)
                    if op is None:
                        self._group_unfused(group)
                        if late is not None and partials is not None:
                            self.member(late[0], late[1], "late", partials)
                            self.free_dead(late[0])
                        return
                    operands[id(a)] = op
        last = group.members[-1][0] if late is None else late[0]
        outputs = [
            v
            for v in group.internal.values()
            if id(v) in self.out_index or self.last_use.get(id(v), -1) > last
        ]
        fast_outputs = list(outputs)
        if late is not None:
            summed = late[1].invars[0]
            assert isinstance(summed, Var)
            fast_outputs = [v for v in outputs if v is not summed or id(v) in self.out_index]
            if summed not in outputs:
                outputs.append(summed)
        read = {self.buffer[i] for i in operands if i in self.buffer}
        keep = [b for b in self.free if b in read]  # the kernel reads them: not reusable yet
        self.free = [b for b in self.free if b not in read]
        targets = [self.target(v, last, []) for v in outputs]
        self.free.extend(keep)
        if self.region.flat:
            loop_dims: tuple[int | None, ...] = (None,)
        else:
            loop_dims = (None, *group.shape[1:])
        src, args = fc.kernel_source(group, operands, constants, outputs, loop_dims)
        kernel = compiled.kernel(src)
        dummies = self._dummies(args, operands, constants, outputs, targets)
        site = fusion_native.Site(kernel, dummies, len(targets))
        k = self.em.bind(site, "c")
        self.warmups.append(site)
        names = ", ".join(eqn.primitive.name for _, eqn in group.members)
        call = f"{k}.fn(r, {', '.join([*args, *targets])})  # compiled: {names}"
        for v, t in zip(outputs, targets):
            self.expr[id(v)] = t
        if late is None or partials is None:
            self.body.append(f"    {call}")
            self.free_dead(last)
            return
        fast_targets = [t for v, t in zip(outputs, targets) if v in fast_outputs]
        src_sum = fc.sum_kernel_source(group, operands, constants, fast_outputs, late[1])
        kernel_sum = compiled.kernel(src_sum)
        dummies = self._dummies(args, operands, constants, fast_outputs, fast_targets)
        summed_dtype = late[1].invars[0].aval.dtype
        site_sum = fusion_native.Site(kernel_sum, dummies, len(fast_targets), summed_dtype)
        ks = self.em.bind(site_sum, "c")
        self.warmups.append(site_sum)
        q = self.fresh("q")
        axes = (0,) if self.region.flat else tuple(late[1].params["axes"])
        self.body.append("    if r >= 128:  # summed inside, in NumPy's pairwise order")
        # Numba returns a float32 as a Python float: back to the dtype (exact), as combine
        # stacks the partials in their own dtype
        scalar = self.em.bind(late[1].invars[0].aval.dtype.type, "t")
        self.body.append(f"        {q} = {scalar}({ks}.fn(r, {', '.join([*args, *fast_targets])}))")
        self.body.append("    else:")
        self.body.append(f"        {call}")
        summed_expr = self.expr[id(late[1].invars[0])]
        self.body.append(f"        {q} = _partial_sum({summed_expr}, {axes})  # reduce_sum")
        partials.append(q)
        self.free_dead(last)

    def _dummies(
        self,
        args: list[str],
        operands: dict[int, fc.Operand],
        constants: dict[int, str],
        outputs: list[Var],
        targets: list[str],
    ) -> tuple[Any, ...]:
        """Arguments of a kernel's types (``r`` = 0: nothing runs), to compile it ahead."""
        arrays: dict[str, np.ndarray[Any, Any]] = {}
        for op in operands.values():
            arrays[op.expr] = np.zeros((1,) * len(op.index), op.dtype)
        for c in constants.values():
            arrays[c] = np.zeros((), self.em.env[c].dtype)
        for v, t in zip(outputs, targets):
            arrays[t] = np.zeros((1,) * (1 if self.region.flat else v.aval.ndim), v.aval.dtype)
        return (0, *(arrays[a] for a in args), *(arrays[t] for t in targets))

    def _group_unfused(self, group: fc.Group) -> None:
        for j, eqn in group.members:
            self.member(j, eqn, "elementwise", [])
            self.free_dead(j)

    def _plan_lifetimes(self) -> None:
        """The last use of each value inside the region; a view keeps its source alive."""
        region = self.region
        mine = set(region.values) | {id(v) for v in region.externals}
        self.last_use: dict[int, int] = {}
        for j, eqn in enumerate(region.eqns):
            for a in eqn.invars:
                if isinstance(a, Var) and id(a) in mine:
                    self.last_use[id(a)] = j
        for j in reversed(range(len(region.eqns))):
            eqn = region.eqns[j]
            if self.aliases(eqn, region.kinds[j]) and isinstance(eqn.invars[0], Var):
                src, dst = id(eqn.invars[0]), id(eqn.outvars[0])
                if src in mine:
                    self.last_use[src] = max(self.last_use.get(src, j), self.last_use.get(dst, j))

    def _read_inputs(self) -> list[str]:
        """The outer expressions of the region's inputs; the body slices (and widens) those
        that are chunked, once per chunk."""
        region, em = self.region, self.em
        values_in: list[str] = []
        for i, v in enumerate(region.externals):
            outer = self.ref(v)
            self.known[id(v)] = em.known_value(outer)
            chunked = v.aval.ndim > 0 and v.aval.shape[0] == region.n
            if region.flat:
                chunked = v.aval.size == region.size
                outer = f"{outer}.reshape({'-1' if chunked else '()'})"
            if self.is_wide(v) and not chunked:
                outer = f"{outer}.astype({em.bind(np.dtype(np.float32), 'd')})"
            values_in.append(outer)
            self.expr[id(v)] = f"x{i}"
            if chunked:  # slice once per chunk
                name = self.fresh("e")
                self.body.append(f"    {name} = x{i}[i0:i1]")
                self.expr[id(v)] = name
                if self.is_wide(v):
                    buf = self.new_buffer(v)
                    self.buffer[id(v)] = int(buf[1:])
                    if v.aval.dtype == _BF16:  # the bits' shift: faster than the cast
                        self.body.append(f"    _widen_bf16({name}, {buf})")
                    else:
                        self.body.append(f"    _copyto({buf}, {name})")
                    self.expr[id(v)] = buf
        return values_in

    def _check_nans(self) -> None:
        """Whether the chunk must fix NaNs up after rounding to bfloat16."""
        region = self.region
        # The rounding fixes NaNs up only if one comes in (see fusion_runtime.round_bf16).
        checks = [f"_has_nan({self.expr[id(v)]})" for v in region.externals if self.is_wide(v)]
        literal_nan = any(
            isinstance(a, Literal) and a.aval.dtype == _BF16 and bool(np.isnan(a.value))
            for e in region.eqns
            for a in e.invars
        )
        if literal_nan or not checks:
            checks = [str(literal_nan)]
        self.body.append(f"    nanfix = {' or '.join(checks)}")

    def _define_function(self, partials: list[str]) -> str:
        """The chunk function (its head, the body written so far, the partial results), added
        to the preamble; returns its name."""
        region, em = self.region, self.em
        fn = em.fresh("_region")
        n_x, n_o = len(region.externals), len(region.outputs)
        names_x = [f"x{i}" for i in range(n_x)] + [f"o{i}" for i in range(n_o)]
        head = [f"def {fn}(i0, i1, s, x):"]
        if names_x:
            head.append(f"    {', '.join(names_x)}, = x")
        if self.buffers:
            bnames = [f"b{i}" for i in range(len(self.buffers))]
            head.append(f"    {', '.join(bnames)}, = s")
            head.append(f"    if i1 - i0 != {region.rows}:")
            head.append(f"        {', '.join(bnames)}, = [b[: i1 - i0] for b in s]")
        head.append("    r = i1 - i0")
        ret = f"    return ({', '.join(partials)}{',' if len(partials) == 1 else ''})"
        em.preamble.extend([*head, *self.body, ret, ""])
        return fn

    def scratch(self) -> str:
        """The bound allocator of one worker's scratch buffers."""
        specs = [(d, (self.region.rows, *s)) for d, s in self.buffers]
        return self.em.bind(functools.partial(_allocate, specs), "s")

    def _emit_call(
        self, fn: str, values_in: list[str], alt: tuple[str, _RegionWriter, compiled.Ready] | None
    ) -> None:
        """The call of the chunk function at the region's place in ``run`` (or in a
        control-flow body inside it), and the combination of the cross-chunk reductions."""
        region, em = self.region, self.em
        indent = self.indent
        em.emit(f"{indent}# fused region {fn}: {region.describe()}")
        outs: list[str] = []
        for v in region.outputs:
            o = em.fresh("o")
            shape = (region.size,) if region.flat else v.aval.shape
            em.emit(f"{indent}{o} = _empty({shape}, {em.bind(v.aval.dtype, 'd')})")
            outs.append(o)
        scratch = self.scratch()
        run = "_run_region"
        if alt is not None:  # the compiled version once its kernels are ready
            fn_c, writer_c, ready = alt
            flag = em.bind(ready, "ready")
            em.emit(f"{indent}# compiled version {fn_c}: runs once {flag}.done")
            run = f"_run_either({flag}, {fn_c}, {writer_c.scratch()}, "
        n_rows = region.size if region.flat else region.n
        row_elements = 1 if region.flat else region.row_elements
        parts = em.fresh("p")
        vals = ", ".join([*values_in, *outs])
        sep = "(" if alt is None else ""
        plan = region.pairwise
        bounds = "" if plan is None else f", {em.bind(plan[1], 'bounds')}"
        em.emit(
            f"{indent}{parts} = {run}{sep}{fn}, {n_rows}, {region.rows}, {scratch}, "
            f"({vals}{',' if len(values_in) + len(outs) == 1 else ''}), {row_elements}{bounds})"
        )
        self.results: dict[int, str] = {}
        for v, o in zip(region.outputs, outs):
            self.results[id(v)] = f"{o}.reshape({v.aval.shape})" if region.flat else o
        k = 0
        for eqn, kind in zip(region.eqns, region.kinds):
            if kind != "late":
                continue
            v = eqn.outvars[0]
            name = em.fresh()
            f = em.bind(_impl(eqn))
            if plan is not None and pairwise_scalars(region, eqn, kind) == plan[0]:
                em.emit(
                    f"{indent}{name} = _combine_pairwise({em.bind(plan[2], 'tree')}, "
                    f"[q[{k}] for q in {parts}], {em.bind(v.aval.dtype, 'd')})"
                    f"  # {eqn.primitive.name}, across chunks in NumPy's pairwise order"
                )
            else:
                em.emit(
                    f"{indent}{name} = _combine({f}, {REDUCTIONS[eqn.primitive.name]!r}, "
                    f"[q[{k}] for q in {parts}], {em.bind(v.aval.dtype, 'd')})"
                    f"  # {eqn.primitive.name}, across chunks"
                )
            em.fix(name, v.aval, indent)
            self.results[id(v)] = name
            k += 1

    def aliases(self, eqn: JaxprEqn, kind: str) -> bool:
        """Whether ``eqn``'s result is a view of its operand inside the chunk function (a
        widened value converted to float32)."""
        if kind == "view":
            return True
        return (
            eqn.primitive.name == "convert_element_type"
            and self.is_wide(eqn.invars[0])
            and eqn.outvars[0].aval.dtype == np.float32
        )

    def operand(self, a: Atom) -> str:
        if isinstance(a, Literal):
            if self.is_wide(a):
                return self.em.bind(np.asarray(a.value).astype(np.float32))
            return self.em.bind(a.value)
        return self.expr[id(a)]

    def member(self, j: int, eqn: JaxprEqn, kind: str, partials: list[str]) -> None:
        em, region = self.em, self.region
        v = eqn.outvars[0]
        ins = [self.operand(a) for a in eqn.invars]
        name = eqn.primitive.name
        params = eqn.params
        comment = f"  # {name}"
        if kind == "late":
            axes = (0,) if region.flat else tuple(params["axes"])
            which = REDUCTIONS[name]
            q = self.fresh("q")
            if which in ("sum", "prod"):
                f = em.bind(rt.partial_sum if which == "sum" else rt.partial_prod)
                self.body.append(f"    {q} = {f}({ins[0]}, {axes}){comment}")
            else:
                f = em.bind(functools.partial(_impl(eqn), **{**params, "axes": axes}))
                self.body.append(f"    {q} = {f}({ins[0]}){comment}")
            partials.append(q)
            return
        if self.aliases(eqn, kind) and kind != "view":  # bfloat16 -> float32, widened
            kind, eqn = "view", JaxprEqn(_STOP_GRADIENT, eqn.invars, eqn.outvars, {})
        if kind in ("reduce", "row_reduce", "view"):
            expr = self.view_or_row_reduce(eqn, ins)
            if self.is_wide(v) and name == "reduce_sum" and not self.excess:
                expr = f"_round_bf16_new(_partial_sum({ins[0]}, {tuple(params['axes'])}))"
            if id(v) in self.out_index and self.is_wide(v):
                local = self.fresh("w")
                self.body.append(f"    {local} = {expr}{comment}")
                self.store(v, local)
                self.expr[id(v)] = local
            elif id(v) in self.out_index:
                t = self.target(v, j, [])
                self.body.append(f"    _copyto({t}, {expr}, casting='unsafe'){comment}")
                self.expr[id(v)] = t
            else:
                local = self.fresh("w")
                self.body.append(f"    {local} = {expr}{comment}")
                self.expr[id(v)] = local
                # A view of a scratch buffer shares that buffer.
                src = eqn.invars[0]
                if kind == "view" and isinstance(src, Var) and id(src) in self.buffer:
                    self.buffer[id(v)] = self.buffer[id(src)]
            return
        calc = eqn
        if self.excess and any(self.is_wide(a) for a in (*eqn.invars, v)):
            if name == "convert_element_type":
                self.convert_excess(j, eqn, ins[0], comment)
                return
            calc = shadow(eqn)  # the float32 computation: its impl and ufuncs on float32
        impl = _impl(calc)
        steps = _ufunc_steps(calc, wide=self.is_wide(v) and not self.excess)
        # A bfloat16 result held in float32 is rounded after each float32 operation, as
        # ml_dtypes' loops round each result (sign changes are exact; NaN operands propagate as
        # in ml_dtypes when add and mul see them swapped, see _widens). Not under excess
        # precision.
        rounds = self.is_wide(v) and name not in ("neg", "abs") and not self.excess
        if steps is not None:
            t = self.target(v, j, list(eqn.invars))
            for k, (uf, args) in enumerate(steps):
                operands = [
                    ins[a] if isinstance(a, int) else t if isinstance(a, str) else em.bind(a)
                    for a in args
                ]
                if rounds and name in ("add", "mul"):
                    operands.reverse()
                c = comment if k == 0 else ""
                self.body.append(f"    {em.bind(uf, 'f')}({', '.join(operands)}, out={t}){c}")
            if rounds:  # once, as ml_dtypes rounds each operation's float32 result
                self.round_bf16(t, v)
        elif self.is_wide(v) and name == "convert_element_type":  # float32 -> bfloat16, exact
            t = self.target(v, j, [])
            self.body.append(f"    _copyto({t}, {ins[0]}){comment}")
            self.round_bf16(t, v)
        elif name == "integer_pow" and v.aval.dtype.kind != "c":  # complex: XLA's products
            t = self.target(v, j, list(eqn.invars) if _pow_inplace(params["y"]) else [])
            self.integer_pow(eqn, ins[0], t, comment, rounds)
        elif name == "convert_element_type" and _astype_kind(
            eqn.invars[0].aval.dtype, v.aval.dtype
        ):
            t = self.target(v, j, [])
            self.body.append(f"    _copyto({t}, {ins[0]}, casting='unsafe'){comment}")
        elif name == "select_n" and len(ins) == 3 and eqn.invars[0].aval.dtype == np.bool_:
            t = self.target(v, j, [])
            if self.selects_bits(eqn):  # without branches (backend/select_bits.py)
                zero = self.known_zero(eqn.invars[1])
                f = em.bind(select_bits.select_into, "f")
                self.body.append(f"    {f}({ins[0]}, {ins[1]}, {ins[2]}, {t}, {zero}){comment}")
            else:
                self.body.append(f"    _copyto({t}, {ins[1]}){comment}")
                self.body.append(f"    _copyto({t}, {ins[2]}, where={ins[0]})")
        else:  # the impl itself on the chunk (allocates a chunk-sized result)
            t = self.target(v, j, [])
            f = em.bind(functools.partial(impl, **params) if params else impl, "f")
            self.body.append(f"    _copyto({t}, {f}({', '.join(ins)}), casting='unsafe'){comment}")
        self.expr[id(v)] = t
        self.store(v, t)

    def selects_bits(self, eqn: JaxprEqn) -> bool:
        """Whether a bool ``select_n`` is written as a bit selection: its cases and result of
        one plain dtype, held as themselves (not widened), and chunks large enough."""
        v = eqn.outvars[0]
        d = v.aval.dtype
        chunk = self.region.rows * int(np.prod(self.chunk_shape(v), dtype=np.int64))
        return (
            not self.is_wide(v)
            and all(a.aval.dtype == d for a in eqn.invars[1:])
            and select_bits.int_view(d) is not None
            and chunk >= select_bits.BITS_MIN
        )

    def known_zero(self, a: Atom) -> bool:
        """Whether ``a`` is known, as the program is generated, to be all-zero bits."""
        if isinstance(a, Literal):
            return select_bits.all_zero_bits(np.asarray(a.value, a.aval.dtype))
        value = self.known.get(id(a))
        return value is not None and select_bits.all_zero_bits(value)

    def convert_excess(self, j: int, eqn: JaxprEqn, x: str, comment: str) -> None:
        """A convert from or to a widened type under excess precision (not to float32 from a
        widened type: that is an alias). To a narrow type it rounds; from one, the float32 value
        is converted as the float32 computation would."""
        v = eqn.outvars[0]
        t = self.target(v, j, [])
        dst = v.aval.dtype
        if self.is_wide(v) and eqn.invars[0].aval.dtype != dst:
            self.round_narrow(t, v, x, comment)
        elif self.is_wide(v):
            self.body.append(f"    _copyto({t}, {x}){comment}")
        elif _astype_kind(np.dtype(np.float32), dst):
            self.body.append(f"    _copyto({t}, {x}, casting='unsafe'){comment}")
        else:
            f = self.em.bind(functools.partial(_impl(eqn), **eqn.params), "f")
            self.body.append(f"    _copyto({t}, {f}({x}), casting='unsafe'){comment}")
        self.expr[id(v)] = t
        self.store(v, t)

    def view_or_row_reduce(self, eqn: JaxprEqn, ins: list[str]) -> str:
        em, region = self.em, self.region
        name, params = eqn.primitive.name, eqn.params
        if name == "stop_gradient":
            return ins[0]
        if name == "broadcast_in_dim":
            if region.flat:
                return f"_broadcast_to({ins[0]}, (r,))"
            shape = "(r, " + "".join(f"{d}, " for d in params["shape"][1:]) + ")"
            f = em.bind(
                functools.partial(_impl(eqn), broadcast_dimensions=params["broadcast_dimensions"]),
                "f",
            )
            return f"{f}({ins[0]}, shape={shape})"
        impl = _impl(eqn)
        if name == "reduce_sum":  # a whole operand outside sum_order's domain: NumPy's order
            impl = sum_order.pairwise_sum
        f = em.bind(functools.partial(impl, **params) if params else impl, "f")
        return f"{f}({ins[0]})"

    def integer_pow(self, eqn: JaxprEqn, x: str, out: str, comment: str, rounds: bool) -> None:
        y = eqn.params["y"]
        plan = rt.integer_pow_plan(y)
        names = {"x": x, "out": out}
        v = eqn.outvars[0]
        if any("tmp" in op for op in plan):
            tmp = self.new_buffer(v)
            self.free.append(int(tmp[1:]))  # free again after this member
            names["tmp"] = tmp
        mul, first = self.em.bind(np.multiply, "f"), True
        for dst, a, b in plan:
            c = comment if first else ""
            first = False
            if a == "1":
                self.body.append(f"    {names[dst]}[...] = 1{c}")
            elif b == "":
                self.body.append(f"    _copyto({names[dst]}, {names[a]}){c}")
            elif b == "1/":
                rec = self.em.bind(np.reciprocal, "f")
                self.body.append(f"    {rec}({names[a]}, out={names[dst]}){c}")
            else:
                x_, y_ = (names[b], names[a]) if rounds else (names[a], names[b])
                self.body.append(f"    {mul}({x_}, {y_}, out={names[dst]}){c}")
            if rounds and b != "":
                self.round_bf16(names[dst], v)


def _view_axes(view: JaxprEqn) -> list[int]:
    """For a view member (``broadcast_in_dim``, ``expand_dims``, ``stop_gradient``): the
    result axis of each axis of its operand."""
    x = view.invars[0].aval
    name = view.primitive.name
    if name == "broadcast_in_dim":
        return list(view.params["broadcast_dimensions"])
    if name == "expand_dims":
        inserted = set(view.params["dimensions"])
        rank = x.ndim + len(inserted)
        return [k for k in range(rank) if k not in inserted]
    return list(range(x.ndim))


_STOP_GRADIENT = Primitive("stop_gradient")  # only its name is read: an alias in the chunk code


def _impl(eqn: JaxprEqn) -> Callable[..., Any]:
    impl = eqn.primitive.impl
    assert impl is not None  # fusion.classify admits only primitives with an impl
    return impl


def _is_int(d: np.dtype[Any]) -> bool:
    return d.kind in "iu" or (d.kind == "V" and "int" in d.name)


Steps = list[tuple[np.ufunc, tuple[Any, ...]]]


def _ufunc_steps(eqn: JaxprEqn, wide: bool = False) -> Steps | None:
    """``eqn``'s impl as a sequence of ufunc calls into the result buffer, when it is exactly
    that for these dtypes: ``(ufunc, operands)`` with operands an input index, ``"t"`` (the
    result so far) or a constant. Only the first call reads the inputs, so the result may
    overwrite a dead operand. A sequence that is not the impl's single ufunc is checked against
    the impl on probe values of the dtype (special values included) before it is used, so a
    changed impl falls back to being called on the chunk. ``wide``: the float32 calls of a
    widened bfloat16 operation (rounded once at the end; see ``fusion.widens``)."""
    impl = eqn_kernel(eqn)
    if isinstance(impl, np.ufunc):
        ok = not eqn.params and impl.nout == 1 and impl.nin == len(eqn.invars)
        return [(impl, tuple(range(impl.nin)))] if ok else None
    steps = _candidate_steps(eqn, np.dtype(np.float32) if wide else eqn.invars[0].aval.dtype)
    if steps is None or wide:
        return steps
    key = (eqn.primitive, tuple(a.aval.dtype for a in eqn.invars))
    if key not in _VERIFIED:
        _VERIFIED[key] = _agrees(eqn, steps)
    return steps if _VERIFIED[key] else None


_VERIFIED: dict[Any, bool] = {}


def _candidate_steps(eqn: JaxprEqn, d: np.dtype[Any]) -> Steps | None:
    name = eqn.primitive.name
    if eqn.params:
        return None
    if name == "div" and not _is_int(d):
        return [(np.true_divide, (0, 1))]
    if name == "rem" and not _is_int(d):
        return [(np.fmod, (0, 1))]
    if name == "atan2" and d.kind != "c" and d != np.float32:  # float32: in float64 (kernel)
        return [(np.arctan2, (0, 1))]
    if name == "rsqrt":
        return [(np.sqrt, (0,)), (np.reciprocal, ("t",))]
    real_ufunc = getattr(_impl(eqn), "real_ufunc", None)
    if isinstance(real_ufunc, np.ufunc) and d.kind != "c":  # log1p: a ufunc for real dtypes
        return [(real_ufunc, tuple(range(real_ufunc.nin)))]
    if name == "logistic":  # one / (one + exp(-x))
        one = np.ones((), d)
        return [
            (np.negative, (0,)),
            (np.exp, ("t",)),
            (np.add, (one, "t")),
            (np.divide, (one, "t")),
        ]
    return None


def _probe(d: np.dtype[Any]) -> np.ndarray[Any, Any]:
    """Values of float or complex dtype ``d`` that tell implementations apart: NaN, +-inf,
    +-0, the extremes, subnormals and a spread of ordinary values (every value for 16 bits)."""
    if d.itemsize == 2 and d.kind in "fV":
        return np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(d)
    finfo = ml_dtypes.finfo(d.name if d.kind != "c" else np.float64)  # type: ignore[no-untyped-call]
    special = [np.nan, np.inf, -np.inf, 0.0, -0.0, float(finfo.tiny) / 3, float(finfo.max)]
    special += [float(finfo.min), -float(finfo.tiny), 1.0, -1.0, 0.5, 2.0]
    spread = np.random.default_rng(0).standard_normal(4000) * np.logspace(-30, 30, 4000)
    values = np.concatenate([special, spread])
    if d.kind == "c":
        return (values + 1j * values[::-1]).astype(d)
    return values.astype(d)


def _agrees(eqn: JaxprEqn, steps: Steps) -> bool:
    """Whether ``steps`` give the impl's bits on probe values of the equation's dtypes."""
    with fp_errors.quiet():
        ins = [_probe(a.aval.dtype) for a in eqn.invars]
        ins = [x if i % 2 == 0 else x[::-1].copy() for i, x in enumerate(ins)]
        want = np.asarray(_impl(eqn)(*ins))
        t = np.empty(want.shape, eqn.outvars[0].aval.dtype)
        for uf, args in steps:
            operands = [
                ins[a] if isinstance(a, int) else t if isinstance(a, str) else a for a in args
            ]
            uf(*operands, out=t)
    return want.dtype == t.dtype and want.tobytes() == t.tobytes()


def _pow_inplace(y: int) -> bool:
    """Whether ``integer_pow``'s multiplications may overwrite their operand: it is never read
    after the first write to the result."""
    written = False
    for dst, a, b in rt.integer_pow_plan(y):
        if written and "x" in (a, b):
            return False
        written = written or dst == "out"
    return True


def _allocate(specs: list[tuple[np.dtype[Any], tuple[int, ...]]]) -> tuple[Any, ...]:
    return tuple(np.empty(shape, dtype) for dtype, shape in specs)


def emit_region(
    em: Emitter, region: Region, ref: Callable[[Atom], str], indent: str = "    "
) -> dict[int, str]:
    """Writes ``region`` into ``em`` (its chunk function into the preamble, its call into the
    current body of ``run`` at ``indent``); returns the expressions of its results outside, by
    var id."""
    for name, value in _GLOBALS.items():
        em.env.setdefault(name, value)
    w = _RegionWriter(em, region, ref, indent)
    if region.compiled:
        wc = _RegionWriter(em, region, ref, indent, compile_=True)
        fn_c, _ = wc.write_function()
        if wc.warmups:
            wait = rt.options().compiled_wait
            ready = fusion_native.prepare(wc.warmups, wait, elements=region.size)
            w.write((fn_c, wc, ready))
            return w.results
        em.preamble.append(f"# ({fn_c}: no compiled group, not used)")
    w.write()
    return w.results


_GLOBALS: dict[str, Any] = {
    "_copyto": np.copyto,
    "_empty": np.empty,
    "_broadcast_to": np.broadcast_to,
    "_run_region": rt.run_region,
    "_run_either": rt.run_either,
    "_combine": rt.combine,
    "_convert": convert,
    "_partial_sum": rt.partial_sum,
    "_combine_pairwise": rt.combine_pairwise,
    "_round_bf16": rt.round_bf16,
    "_round_bf16_new": rt.round_bf16_new,
    "_narrow_bf16": rt.narrow_bf16,
    "_widen_bf16": rt.widen_bf16,
    "_has_nan": rt.has_nan,
}
