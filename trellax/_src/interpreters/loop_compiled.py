"""Whole loops as one compiled function (the optional extra ``trellax[compiled]``, with Numba).

A ``scan``/``fori_loop``/``while_loop`` body on small arrays costs its NumPy calls: ~0.4 µs a
ufunc on 16 values and ~1.3 µs a 16x16 ``matmul``, every step (``docs/performance.md``, "Loop
bodies"). When Numba is installed, a loop whose body this module can translate is written as
*one* Numba function: the loop itself, the carries, the stacked outputs, and each equation:

* elementwise IEEE operations, comparisons, casts and integer arithmetic: the translations of
  :mod:`.fusion_compiled` (the impl's arithmetic on the same dtype: NumPy's bits), one small
  loop per equation over a buffer allocated once per call;
* any other ufunc of one operand (``tanh``, ``exp``, ``sin``, ``log1p``...) and ``matmul``
  (``dot_general`` of a matrix and a vector): a call of **NumPy's own inner-loop function**
  (:mod:`trellax._src.backend.ufunc_loops`) with the strides NumPy passes, so NumPy's SIMD
  polynomials and BLAS's summation order give their own bits.

Vectors and scalars only (matrices only as loop-invariant operands of a product, at most
:data:`MAX_ELEMENTS` elements a value); anything else keeps the generated Python loop. The
program holds both versions: the compiled one runs once ready; both give the same bits, so the
switch changes no result (``tests/test_loop_compiled.py``).

When to compile is measured (:meth:`LoopKernel.due`): each loop counts the CPU time its Python
loop has cost, and starts compiling (on the background thread, or before the call with
``compiled_wait``) once that time reaches the estimated cost of compiling it
(:func:`compile_cost`: Numba's first use in the process, then loading the kernel from Numba's
disk cache or compiling it) -- so a loop never costs more than twice what it would have cost
with the best decision made in hindsight. ``compiled_loop_min`` (a step count) replaces the rule
when set (0: compile at the first call).

A kernel compiled under that rule is also kept as a shared library (:mod:`.loop_native`): a
later process on the same host loads it at the loop's first call, without Numba.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from trellax._src.backend import compiled, ufunc_loops
from trellax._src.core.jaxpr import Atom, Jaxpr, JaxprEqn, Literal, Var
from trellax._src.interpreters import (
    fusion_compiled,
    fusion_runtime,
    loop_native,
    peephole,
    tracing,
    xla_rewrites,
)

#: The largest value (elements) of a compiled loop body; larger bodies are NumPy calls anyway
#: bound by their work, not by the calls.
MAX_ELEMENTS = 4096

#: Switched off to measure or test the Python loops (tests compare both).
enabled = True

#: The clock of the trigger: wall time of the Python loop (the thread's CPU clock is a ~3 µs
#: system call here, ``perf_counter`` 0.25 µs; on a loaded machine wall time overstates the
#: loop's cost, so loops compile sooner there). Tests replace it.
clock: Callable[[], float] = time.perf_counter

#: Measured costs (CPU seconds, docs/performance.md, "Loops: when to compile"): Numba's first
#: use in a process (import, then its set-up at the first kernel loaded), loading one loop
#: kernel from Numba's disk cache, compiling one, and the extra cost of the first loop kernel a
#: process compiles (the compiler's own first use of what loop kernels call).
FIRST_USE = 1.1
LOAD = 0.05
COMPILE = 1.5
FIRST_COMPILE = 5.0
#: Whether this process has started compiling a loop kernel that was not on disk.
_compiled_cold = False

#: The largest loop-invariant matrix of a product (below ``threads.BLAS_SMALL``: the Python
#: loop calls ``numpy.matmul`` for it too).
MAX_MATRIX = 65536

_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
#: Functions the fused regions may compile as approximations (``fusion_compiled``'s
#: ``APPROX_F32``, ``backend/compiled_math.py``): a loop calls NumPy's own loop for them (a
#: ufunc) or stays Python, so its bits stay NumPy's (float32 ``erf``/``erfc``/``log`` included).
_APPROXIMATE = frozenset(fusion_compiled.APPROX_F32)
_CONTRACT = {
    # (lhs ndim, rhs ndim, lhs contracting, rhs contracting) -> (matrix side, transposed)
    (2, 1, 1, 0): ("lhs", False),
    (2, 1, 0, 0): ("lhs", True),
    (1, 2, 0, 0): ("rhs", False),
    (1, 2, 0, 1): ("rhs", True),
}

#: The prelude of every loop kernel (after :data:`compiled.HEADER`): a call of a C function of
#: four pointers given as integers (NumPy's inner loops), and the two call shapes used.
PRELUDE = """
from llvmlite import ir as _ir
from numba.core import types as _nt
from numba.extending import intrinsic as _intrinsic


@_intrinsic
def _call4(typingctx, fn, a, b, c, d):
    def codegen(context, builder, signature, args):
        i8p = _ir.IntType(8).as_pointer()
        fnty = _ir.FunctionType(_ir.VoidType(), [i8p] * 4)
        f = builder.inttoptr(args[0], fnty.as_pointer())
        builder.call(f, [builder.inttoptr(v, i8p) for v in args[1:]])
        return context.get_dummy_value()

    return _nt.void(fn, a, b, c, d), codegen


@_inline
def _unary(fn, data, x, y, argv, dims, steps):
    argv[0] = x.ctypes.data
    argv[1] = y.ctypes.data
    dims[0] = x.shape[0]
    steps[0] = x.strides[0]
    steps[1] = y.strides[0]
    _call4(fn, argv.ctypes.data, dims.ctypes.data, steps.ctypes.data, data)


@_inline
def _matmul(fn, data, a, b, y, m, n, p, s, argv, dims, steps):
    # NumPy's matmul loop: dims (batch, m, n, p), steps (3 batch strides, a's m and n, b's n and
    # p, y's m and p), for one product
    argv[0] = a.ctypes.data
    argv[1] = b.ctypes.data
    argv[2] = y.ctypes.data
    dims[0] = 1
    dims[1] = m
    dims[2] = n
    dims[3] = p
    steps[0] = 0
    steps[1] = 0
    steps[2] = 0
    for k in range(6):
        steps[3 + k] = s[k]
    _call4(fn, argv.ctypes.data, dims.ctypes.data, steps.ctypes.data, data)
"""


class Unsupported(Exception):
    """The body has something this module does not translate (the loop stays Python)."""


def _shape_ok(v: Atom, matrix: bool = False) -> bool:
    a = v.aval
    d = a.dtype
    if d.kind not in "biuf" or d.itemsize > 8 or d.num >= 256 or d == np.float16:
        return False
    n = int(np.prod(a.shape)) if a.shape else 1
    if len(a.shape) <= 1:
        return n <= MAX_ELEMENTS
    # a product with a larger matrix goes to threads.matmul in the Python loop (BLAS_SMALL)
    return matrix and len(a.shape) == 2 and n <= MAX_MATRIX


def _literal(value: Any, dtype: np.dtype[Any]) -> str:
    arr = np.asarray(value, dtype)
    return f"np.frombuffer(bytes.fromhex({arr.tobytes().hex()!r}), np.{dtype.name})[0]"


class _Writer:
    """Source of one kernel: parameters, allocations before the loop, the loop's statements."""

    def __init__(self) -> None:
        self.params: list[str] = []
        self.pre: list[str] = []
        self.globals: list[str] = []
        self.pointers: list[int] = []
        self.count = 0
        # var id -> ("s" scalar | "v" vector | "m" matrix, the local name)
        self.vals: dict[int, tuple[str, str]] = {}

    def fresh(self, prefix: str = "u") -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def param(self) -> str:
        name = f"a{len(self.params)}"
        self.params.append(name)
        return name

    def bind_input(self, v: Var, name: str) -> None:
        """``v`` is the kernel parameter (or local) ``name``."""
        if not _shape_ok(v, matrix=True):
            raise Unsupported(f"input {v.aval}")
        kind = "s" if not v.aval.shape else "v" if len(v.aval.shape) == 1 else "m"
        self.vals[id(v)] = (kind, name)

    def ref(self, a: Atom) -> tuple[str, str]:
        if isinstance(a, Literal):
            if a.aval.shape:
                raise Unsupported("array literal")
            name = self.fresh("K")
            self.globals.append(f"{name} = {_literal(a.value, a.aval.dtype)}")
            return "s", name
        if id(a) not in self.vals:
            raise Unsupported("an operand defined outside the body")
        return self.vals[id(a)]

    def pointer(self, ufunc: np.ufunc, dtypes: list[Any]) -> tuple[str, str]:
        sig = ufunc_loops.signature_of(ufunc, dtypes)
        found = ufunc_loops.loop(ufunc, sig) if sig else None
        if found is None:
            raise Unsupported(f"no inner loop of {ufunc.__name__} for {dtypes}")
        j = len(self.pointers)
        self.pointers.extend(found)
        return f"P[{j}]", f"P[{j + 1}]"

    def buffer(self, v: Var) -> str:
        name = self.fresh("b")
        self.pre.append(f"{name} = np.empty({v.aval.shape[0]}, np.{v.aval.dtype.name})")
        return name

    # -- equations --------------------------------------------------------------------------

    def equations(self, jaxpr: Jaxpr, out: list[str], indent: str) -> None:
        for e in jaxpr.eqns:
            name = e.primitive.name
            if name == "transpose" and tuple(e.params["permutation"]) == (1, 0):
                # a view, as the Python loop's ``x.transpose((1, 0))``: a product then reads
                # the same strides
                kind, src = self.ref(e.invars[0])
                if kind != "m":
                    raise Unsupported("transpose of a computed value")
                t = self.fresh("m")
                out.append(f"{indent}{t} = {src}.T  # transpose")
                self.vals[id(e.outvars[0])] = ("m", t)
                continue
            if len(e.outvars) != 1 or not _shape_ok(e.outvars[0]):
                raise Unsupported(name)
            if name == "dot_general":
                self._dot(e, out, indent)
            elif name == "broadcast_in_dim" and not e.invars[0].aval.shape:
                self._elementwise(e, out, indent, lambda ins, fresh: ([], ins[0]))
            elif name == "add_any" and _add_any_ok(e):
                t = f"np.{e.outvars[0].aval.dtype.name}"
                self._elementwise(e, out, indent, lambda i, f, t=t: ([], f"{t}({i[0]} + {i[1]})"))
            elif (
                name not in _APPROXIMATE
                and fusion_compiled.compilable(e)
                and all(_shape_ok(a) for a in e.invars)
            ):
                self._elementwise(e, out, indent, _translate(e))
            elif _is_unary_ufunc(e):
                self._unary(e, out, indent)
            else:
                raise Unsupported(name)

    def _elementwise(self, e: JaxprEqn, out: list[str], indent: str, expr: Any) -> None:
        ins = [self.ref(a) for a in e.invars]
        v = e.outvars[0]
        shapes = {a.aval.shape for a in e.invars if a.aval.shape}
        if len(shapes) > 1 or (shapes and shapes != {v.aval.shape}):
            raise Unsupported("a broadcast between vectors")
        if not v.aval.shape:
            lines, result = expr([n for _, n in ins], self.fresh)
            out.extend(indent + line for line in lines)
            name = self.fresh("s")
            out.append(f"{indent}{name} = {result}  # {e.primitive.name}")
            self.vals[id(v)] = ("s", name)
            return
        buf = self.buffer(v)
        lines, result = expr([f"{n}[i]" if k == "v" else n for k, n in ins], self.fresh)
        out.append(f"{indent}for i in range({v.aval.shape[0]}):  # {e.primitive.name}")
        out.extend(f"{indent}    {line}" for line in lines)
        out.append(f"{indent}    {buf}[i] = {result}")
        self.vals[id(v)] = ("v", buf)

    def _unary(self, e: JaxprEqn, out: list[str], indent: str) -> None:
        (x,), v = e.invars, e.outvars[0]
        impl = _real_ufunc(e.primitive.impl)
        assert impl is not None  # _is_unary_ufunc
        fn, data = self.pointer(impl, [x.aval.dtype, v.aval.dtype])
        kind, src = self.ref(x)
        t = f"np.{v.aval.dtype.name}"
        name = e.primitive.name
        if kind == "s":  # through one-element buffers: NumPy calls the same loop for n = 1
            a, b = self.fresh("q"), self.fresh("q")
            self.pre.append(f"{a} = np.empty(1, {t})")
            self.pre.append(f"{b} = np.empty(1, {t})")
            out.append(f"{indent}{a}[0] = {src}")
            out.append(f"{indent}_unary({fn}, {data}, {a}, {b}, argv, dims, steps)  # {name}")
            s = self.fresh("s")
            out.append(f"{indent}{s} = {b}[0]")
            self.vals[id(v)] = ("s", s)
            return
        buf = self.buffer(v)
        out.append(f"{indent}_unary({fn}, {data}, {src}, {buf}, argv, dims, steps)  # {name}")
        self.vals[id(v)] = ("v", buf)

    def _dot(self, e: JaxprEqn, out: list[str], indent: str) -> None:
        (lc, rc), (lb, rb) = e.params["dimension_numbers"]
        x, y = e.invars
        v = e.outvars[0]
        d = v.aval.dtype
        if lb or rb or len(lc) != 1 or len(rc) != 1 or d not in _FLOATS:
            raise Unsupported("dot_general")
        if x.aval.dtype != d or y.aval.dtype != d or e.params.get("preferred_element_type") != d:
            raise Unsupported("dot_general with a cast")
        key = (len(x.aval.shape), len(y.aval.shape), lc[0], rc[0])
        if key not in _CONTRACT:
            raise Unsupported("dot_general of these shapes")
        side, transposed = _CONTRACT[key]
        (kx, nx), (ky, ny) = self.ref(x), self.ref(y)
        mat, vec = (nx, ny) if side == "lhs" else (ny, nx)
        if (kx, ky) != (("m", "v") if side == "lhs" else ("v", "m")):
            raise Unsupported("dot_general of a computed matrix")
        fn, data = self.pointer(np.matmul, [d, d, d])
        buf = self.buffer(v)
        s = self.fresh("st")
        r, c = (1, 0) if transposed else (0, 1)  # the matrix as NumPy sees it (``a.T``)
        rows, cols = f"{mat}.shape[{r}]", f"{mat}.shape[{c}]"
        ms, vs = f"{mat}.strides", f"{vec}.strides[0]"
        if side == "lhs":  # matmul(A, x): A (m, n), x as (n, 1), y as (m, 1)
            strides = f"({ms}[{r}], {ms}[{c}], {vs}, {vs}, {buf}.strides[0], {buf}.strides[0])"
            call = f"{mat}, {vec}, {buf}, {rows}, {cols}, 1"
        else:  # matmul(x, A): x as (1, n), A (n, p), y as (1, p)
            full = f"{vs} * {rows}"
            strides = (
                f"({full}, {vs}, {ms}[{r}], {ms}[{c}], {buf}.strides[0] * {cols}, {buf}.strides[0])"
            )
            call = f"{vec}, {mat}, {buf}, 1, {rows}, {cols}"
        self.pre.append(f"{s} = np.empty(6, np.intp)")
        out.append(f"{indent}{s}[:] = {strides}")
        out.append(f"{indent}_matmul({fn}, {data}, {call}, {s}, argv, dims, steps)  # dot_general")
        self.vals[id(v)] = ("v", buf)


def _add_any_ok(e: JaxprEqn) -> bool:
    d = e.outvars[0].aval.dtype
    if d.kind not in "iuf" or d == np.float16:
        return False
    return all(a.aval.dtype == d and _shape_ok(a) for a in e.invars)


def _translate(e: JaxprEqn) -> Any:
    def expr(ins: list[str], fresh: Any) -> tuple[list[str], str]:
        return fusion_compiled.expression(e, ins, fresh)

    return expr


def _real_ufunc(impl: Any) -> np.ufunc | None:
    """The NumPy ufunc ``impl`` is for real dtypes: itself, or the ``real_ufunc`` of a kernel that
    treats complex input apart (``log1p``)."""
    if type(impl) is np.ufunc:
        return impl
    found = getattr(impl, "real_ufunc", None)
    return found if type(found) is np.ufunc else None


def _is_unary_ufunc(e: JaxprEqn) -> bool:
    impl = _real_ufunc(e.primitive.impl)
    if impl is None or impl.nin != 1 or impl.nout != 1 or e.params:
        return False
    x, v = e.invars[0].aval, e.outvars[0].aval
    return x.dtype in _FLOATS and v.dtype == x.dtype and x.shape == v.shape


# -- kernels of whole loops ------------------------------------------------------------------------


def wanted() -> bool:
    """Whether loops may be compiled: this module's switch, Numba installed, compiled kernels
    not switched off."""
    return enabled and fusion_runtime.options().compiled != "off" and compiled.available()


def branch(
    em: tracing.Emitter, kernel: LoopKernel, args: list[str], results: list[str], indent: str
) -> tuple[str, str]:
    """Emits ``r = kernel(args); if r is not None: results = r`` and opens the ``else:``
    branch (the Python loop, timed); returns its indentation and the statement to emit after
    the Python loop at that indentation (the kernel adds the loop's CPU time to its cost)."""
    k, got, t0 = em.bind(kernel, "L"), em.fresh("r"), em.fresh("t")
    em.emit(f"{indent}{got} = {k}({', '.join(args)})")
    em.emit(f"{indent}if {got} is not None:")
    em.emit(f"{indent}    {', '.join(results)}, = {got}" if results else f"{indent}    pass")
    em.emit(f"{indent}else:")
    em.emit(f"{indent}    {t0} = {k}.started()")
    return indent + "    ", f"{k}.interpreted({t0})"


def _prepared(jaxpr: Jaxpr, consts: Sequence[Any], carried: int) -> tuple[Jaxpr, list[Any]]:
    """The body as the Python loop's code generator sees it (``Emitter.jaxpr``); ``carried``:
    how many leading inputs are the loop's consts and carries."""
    consts = list(consts)
    if tracing.call_bodies and any(e.primitive in tracing.call_bodies for e in jaxpr.eqns):
        jaxpr, consts = tracing.inline_calls(jaxpr, consts)
    body = xla_rewrites.log_of_exp(
        xla_rewrites.select_bool_products(tracing.without_dead_code(jaxpr))
    )
    return xla_rewrites.reciprocal_divisions(peephole.simplify(body), carried), consts


def _carry_in(w: _Writer, v: Var, param: str) -> None:
    """A carry's private copy (its parameter is the caller's array: never written)."""
    if not v.aval.shape:
        w.bind_input(v, param)
        return
    w.bind_input(v, param)  # checks the shape
    buf = w.buffer(v)
    w.pre.append(f"for i in range({v.aval.shape[0]}):")
    w.pre.append(f"    {buf}[i] = {param}[i]")
    w.vals[id(v)] = ("v", buf)


def _copy(dst: str, src: tuple[str, str], n: int, indent: str) -> list[str]:
    if src[0] == "s":
        return [f"{indent}for i in range({n}):", f"{indent}    {dst}[i] = {src[1]}"]
    return [f"{indent}for i in range({n}):", f"{indent}    {dst}[i] = {src[1]}[i]"]


def _update(w: _Writer, carries: list[Var], news: list[Atom], indent: str) -> list[str]:
    """Statements giving every carry its new value at once (a carry may be another's source)."""
    lines: list[str] = []
    srcs = [w.ref(a) for a in news]
    scalars = [(w.vals[id(c)][1], s) for c, s in zip(carries, srcs) if not c.aval.shape]
    vectors = [
        (w.vals[id(c)][1], s, c.aval.shape[0]) for c, s in zip(carries, srcs) if c.aval.shape
    ]
    carry_names = {w.vals[id(c)][1] for c in carries}
    staged = any(s[1] in carry_names for _, s, _ in vectors)
    later: list[str] = []
    for dst, src, n in vectors:
        if staged:
            tmp = w.fresh("n")
            w.pre.append(f"{tmp} = np.empty({n}, {dst}.dtype)")
            lines.extend(_copy(tmp, src, n, indent))
            later.extend(_copy(dst, ("v", tmp), n, indent))
        else:
            lines.extend(_copy(dst, src, n, indent))
    if scalars:
        dsts, srcs_ = ", ".join(d for d, _ in scalars), ", ".join(s[1] for _, s in scalars)
        lines.append(f"{indent}{dsts}, = {srcs_},")
    return lines + later


def _results(w: _Writer, carries: list[Var], indent: str) -> list[str]:
    """Writes the final carries into the output parameters ``o0...``."""
    lines = []
    for k, c in enumerate(carries):
        kind, name = w.vals[id(c)]
        if kind == "s":
            lines.append(f"{indent}o{k}[0] = {name}")
        else:
            lines.extend(_copy(f"o{k}", (kind, name), c.aval.shape[0], indent))
    return lines


def _source(w: _Writer, n_out: int, pre: list[str], loop: list[str]) -> str:
    params = ", ".join(["n", "P", *w.params, *(f"o{k}" for k in range(n_out))])
    head = [
        *w.globals,
        "",
        "",
        "@_kernel",
        f"def kernel({params}):",
        "    argv = np.empty(3, np.uintp)",
        "    dims = np.empty(4, np.intp)",
        "    steps = np.empty(9, np.intp)",
    ]
    return PRELUDE + "\n".join([*head, *("    " + line for line in pre), *loop]) + "\n"


def scan_kernel(
    body: Jaxpr, consts: Sequence[Any], n_consts: int, n_carry: int, length: int, reverse: bool
) -> LoopKernel | None:
    """The compiled version of a ``scan`` (None when its body is not translated): called with
    the loop's consts, initial carries and scanned arrays, it returns the final carries and
    the stacked outputs of ``body``."""
    body, body_consts = _prepared(body, consts, n_consts + n_carry)
    w = _Writer()
    try:
        for v in body.constvars:
            w.bind_input(v, w.param())
        carries = body.invars[n_consts : n_consts + n_carry]
        for j, v in enumerate(body.invars):
            if j < n_consts:
                w.bind_input(v, w.param())
            elif j < n_consts + n_carry:
                _carry_in(w, v, w.param())
        inner: list[str] = []
        for v in body.invars[n_consts + n_carry :]:
            p, x = w.param(), w.fresh("x")
            w.bind_input(v, x)
            inner.append(f"        {x} = {p}[tt]")
        w.equations(body, inner, "        ")
        ys = body.outvars[n_carry:]
        for k, y in enumerate(ys):
            o = f"o{n_carry + k}"
            kind, name = w.ref(y)
            if kind == "s":
                inner.append(f"        {o}[tt] = {name}")
            else:
                inner.append(f"        for i in range({y.aval.shape[0]}):")
                inner.append(f"            {o}[tt, i] = {name}[i]")
        inner.extend(_update(w, carries, body.outvars[:n_carry], "        "))
    except Unsupported:
        return None
    step = "n - 1 - t" if reverse else "t"
    loop = ["    for t in range(n):", f"        tt = {step}", *inner, *_results(w, carries, "    ")]
    src = _source(w, len(body.outvars), w.pre, loop)
    outs = [(tuple(a.aval.shape), a.aval.dtype) for a in carries]
    outs += [((length, *a.aval.shape), a.aval.dtype) for a in ys]
    scalar_in = [not v.aval.shape for v in body.invars[: n_consts + n_carry]]
    scalar_in += [False] * (len(body.invars) - n_consts - n_carry)
    dtypes = [v.aval.dtype for v in body.invars]
    return LoopKernel(src, w.pointers, body_consts, scalar_in, dtypes, outs, length, length)


def while_kernel(
    cond: Jaxpr,
    cond_consts: Sequence[Any],
    body: Jaxpr,
    body_consts: Sequence[Any],
    n_c: int,
    n_b: int,
) -> LoopKernel | None:
    """The compiled version of a ``while_loop`` (None when not translated): called with the
    cond's consts, the body's consts and the initial carries, it returns the final carries."""
    cond, cconsts = _prepared(cond, cond_consts, len(cond.invars))
    body, bconsts = _prepared(body, body_consts, len(body.invars))
    w = _Writer()
    try:
        for v in [*cond.constvars, *body.constvars, *cond.invars[:n_c], *body.invars[:n_b]]:
            w.bind_input(v, w.param())
        carries = body.invars[n_b:]
        for v in carries:
            _carry_in(w, v, w.param())
        for cv, bv in zip(cond.invars[n_c:], carries):
            w.vals[id(cv)] = w.vals[id(bv)]
        inner: list[str] = []
        w.equations(cond, inner, "        ")
        kind, pred = w.ref(cond.outvars[0])
        if kind != "s":
            raise Unsupported("a predicate of a shape")  # pragma: no cover - a scalar by type
        inner += [f"        if not {pred}:", "            break"]
        w.equations(body, inner, "        ")
        inner.extend(_update(w, carries, body.outvars, "        "))
    except Unsupported:
        return None
    loop = ["    while n > 0:", *inner, *_results(w, carries, "    ")]
    src = _source(w, len(carries), w.pre, loop)
    outs = [(tuple(a.aval.shape), a.aval.dtype) for a in carries]
    ins = [*cond.invars[:n_c], *body.invars[:n_b], *carries]
    scalar_in, dtypes = [not v.aval.shape for v in ins], [v.aval.dtype for v in ins]
    return LoopKernel(src, w.pointers, [*cconsts, *bconsts], scalar_in, dtypes, outs, 1, 100)


def compile_cost(kernel: compiled.Kernel) -> float:
    """The estimated CPU seconds of making ``kernel`` ready: nothing when this process has it
    compiled already (another ``jit`` of the same loop), else Numba's first use unless a kernel
    was loaded before, plus loading it from the disk cache or compiling it (the first compile of
    a process costs more)."""
    if compiled.compiled_in_process(kernel):
        return 0.0
    first = 0.0 if compiled.used() else FIRST_USE
    if compiled.on_disk(kernel):
        return first + LOAD
    return first + COMPILE + (0.0 if _compiled_cold else FIRST_COMPILE)


class LoopKernel:
    """A compiled loop in a generated program: ``kernel(*args)`` returns its results, or None
    while it is not compiled (the program then runs its Python loop, timed by :meth:`started`
    and :meth:`interpreted`). Compiling starts once :meth:`due`."""

    def __init__(
        self,
        source: str,
        pointers: list[int],
        consts: list[Any],
        scalar_in: list[bool],
        dtypes: list[np.dtype[Any]],
        outs: list[tuple[tuple[int, ...], np.dtype[Any]]],
        n: int,
        weight: int,
    ) -> None:
        self.kernel = compiled.kernel(source)
        self.pointers = np.array([*pointers, 0], np.uintp)
        self.consts = [np.asarray(getattr(c, "_value", c)) for c in consts]
        self.scalar_in = scalar_in
        self.dtypes = dtypes
        self.outs = outs
        self.n, self.weight = n, weight
        #: Loop steps run by the Python loop (a ``while_loop`` call counts ``weight``), and the
        #: CPU seconds they cost.
        self.steps = 0
        self.spent = 0.0
        self.ready: compiled.Ready | None = None
        self.failed = False
        #: Why compiling or calling the kernel failed (the Python loop runs instead).
        self.error: BaseException | None = None
        #: The kernel as a shared library (:mod:`.loop_native`), made at the first call.
        self.native: loop_native.Native | None = None
        self._native_tried = False

    def started(self) -> float:
        """The clock when the Python loop starts (the program calls it)."""
        return clock()

    def interpreted(self, t0: float) -> None:
        """The Python loop started at ``t0`` has ended (the program calls it)."""
        self.spent += clock() - t0

    def due(self, opts: fusion_runtime.FusionOptions) -> bool:
        """Whether to compile now: after ``compiled_loop_min`` steps when that option is set,
        else once the Python loop has cost the estimated compile cost (:func:`compile_cost`)."""
        fixed = opts.compiled_loop_min
        if fixed is not None:
            return self.steps >= fixed
        return self.spent >= compile_cost(self.kernel)

    def _arguments(self, n: int, args: Sequence[Any]) -> list[Any]:
        ins = [a[()] if s else a for a, s in zip(args, self.scalar_in)]
        outs = [np.empty(shape or (1,), d) for shape, d in self.outs]
        return [n, self.pointers, *self.consts, *ins, *outs]

    def _results(self, full: list[Any]) -> tuple[Any, ...]:
        results = full[len(full) - len(self.outs) :]
        return tuple(r.reshape(()) if not s else r for r, (s, _) in zip(results, self.outs))

    def _first_native(self, args: Sequence[Any]) -> None:
        """At the first call: the kernel's shared library, loaded at once when this host has
        it on disk (~0.3 ms, no Numba)."""
        self._native_tried = True
        if not loop_native.enabled or fusion_runtime.options().compiled == "off":
            return
        kinds = loop_native.kinds_of(self._arguments(0, args))
        if kinds is not None:
            self.native = loop_native.Native(self.kernel.text, kinds)
            self.native.load()

    def __call__(self, *args: Any) -> tuple[Any, ...] | None:
        for a, d in zip(args, self.dtypes):
            if getattr(a, "dtype", None) != d:
                return None  # a value of another dtype than its type says: NumPy's promotion
        if not self._native_tried:
            self._first_native(args)
        native = self.native
        if native is not None and native.fn is not None:
            ins = [a if type(a) is np.ndarray else np.asarray(a) for a in args]
            outs = [np.empty(shape or (1,), d) for shape, d in self.outs]
            if native.call(self.n, self.pointers, self.consts, ins, outs):
                return tuple(r.reshape(()) if not s else r for r, (s, _) in zip(outs, self.outs))
        ready = self.ready
        if ready is None or not ready.done:
            if self.failed or ready is not None:
                if ready is not None and ready.error is not None:
                    self.failed, self.ready, self.error = True, None, ready.error
                return None
            opts = fusion_runtime.options()
            self.steps += self.weight
            if opts.compiled == "off" or not self.due(opts):
                return None
            warm = (self.kernel, tuple(self._arguments(0, args)))
            global _compiled_cold
            _compiled_cold = _compiled_cold or not compiled.on_disk(self.kernel)
            try:
                self.ready = ready = compiled.prepare([warm], wait=opts.compiled_wait)
            except Exception as e:  # a Numba failure: keep the Python loop
                self.failed, self.error = True, e
                return None
            if native is not None and not native.failed and opts.compiled_loop_min is None:
                # for the next processes on this host: only under the measured rule (a loop
                # worth compiling here); the step-count setting is for tests and benchmarks
                loop_native.build_later(native)
            if not ready.done:
                return None
        full = self._arguments(self.n, args)
        assert self.kernel.fn is not None
        try:
            self.kernel.fn(*full)
        except Exception as e:  # pragma: no cover - argument types Numba could not compile
            self.failed, self.ready, self.error = True, None, e
            return None
        return self._results(full)
