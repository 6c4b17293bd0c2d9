"""Compiled groups inside fused regions: runs of elementwise equations as one compiled loop.

A fused region's chunk function (:mod:`.fusion_codegen`) evaluates its equations one NumPy call
at a time. When the optional extra ``trellax[compiled]`` (Numba) is installed and a region is
large (``compiled_min`` elements), each maximal run of consecutive elementwise equations that
this module can translate becomes a *group*: one loop over the chunk, written as Python source
and compiled by :mod:`trellax._src.backend.compiled`, that reads the group's operands once,
keeps every intermediate value in registers and writes only the values used after the group.
Reductions, views and anything not in :data:`OPS` stay NumPy calls between groups (so every
reduction keeps its NumPy summation order, bit for bit).

Exactness (``docs/performance.md``, "Compiled kernels"): every translation below is the
backend impl's arithmetic on the same dtype, with the same rounding (IEEE operations: + - * /,
sqrt, comparisons, casts), the same integer wrap-around (each integer result is cast back to
its dtype), the same NaN propagation and the same signed zeros of ``max``/``min``;
``tests/test_fusion_compiled.py`` checks each against the impl on special values. So results
are bit-identical to the NumPy path, with one stated exception: with ``compiled="auto"`` (the
default) float32 ``exp``, ``tanh``, ``logistic``, ``erf``, ``erfc`` and ``log`` are the
vectorizable functions of :mod:`trellax._src.backend.compiled_math`,
:mod:`trellax._src.backend.compiled_erf` and :mod:`trellax._src.backend.compiled_log`, within their ``ULP_BOUND`` of the true value rather
than the impl's bits (``compiled="exact"`` keeps them NumPy calls, or libm's ``erfc`` as the
impl calls it, with the same bits). float64 ``erf`` and ``erfc`` call libm as their impl does
(same bits). float16, bfloat16, complex and anything not in :func:`compilable` stays a NumPy
call.

A kernel's statements are value-numbered (:class:`_Numbering`): a statement equal to an earlier
one (same operation, same operands) is a copy of it, which changes no bits. A float32 ``erfc(x)``
in a kernel that also computes ``exp(-(x * x))`` (erfc's derivative, in a gradient) is written
``_erfcf_e(x, e)`` of that exp (``erfc_e`` in :data:`compiled_erf.ULP_BOUND`), so the kernel
computes one exp instead of two.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from trellax._src.core.jaxpr import JaxprEqn, Literal, Var
from trellax._src.interpreters import fusion_runtime as rt

_FLOATS = frozenset(np.dtype(t) for t in (np.float32, np.float64))
_INTS = frozenset(
    np.dtype(t)
    for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)
)
_BOOL = np.dtype(np.bool_)

_BINARY = {"add": "+", "add_any": "+", "sub": "-", "mul": "*"}
_COMPARE = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
_BITWISE = {"and": "&", "or": "|", "xor": "^"}
_FLOAT_UNARY = {"sqrt": "np.sqrt({0})", "floor": "np.floor({0})", "ceil": "np.ceil({0})"}
#: float32 functions of ``backend/compiled_math.py``: within a stated ulp bound of the true
#: value, not NumPy's bits (``compiled="auto"`` only; ``"exact"`` leaves them NumPy calls).
APPROX_F32 = {
    "exp": "_expf",
    "tanh": "_tanhf",
    "logistic": "_logisticf",
    "erf": "_erff",  # backend/compiled_erf.py
    "erfc": "_erfcf",
    "log": "_logf",  # backend/compiled_log.py
}
#: Functions whose impl is libm's float64 function of the float64 value, rounded to the dtype
#: (``backend/numpy.py``: ``_vectorize_math``): the same libm call here, so the same bits.
_LIBM = {"erfc": "math.erfc", "erf": "math.erf"}
#: Of those, the dtypes whose impl is the libm call (float32 ``erf`` is XLA's polynomial).
_LIBM_DTYPES = {"erfc": _FLOATS, "erf": frozenset({np.dtype(np.float64)})}
_F32 = np.dtype(np.float32)


def _t(d: np.dtype[Any]) -> str:
    return "np.bool_" if d == _BOOL else f"np.{d.name}"


def _approx(name: str, x: np.dtype[Any], out: np.dtype[Any]) -> bool:
    """Whether ``name`` of ``x`` is written as a function of a stated ulp bound (float32 under
    ``compiled="auto"``), not as the impl's bits."""
    return name in APPROX_F32 and x == out == _F32 and rt.options().compiled == "auto"


def compilable(eqn: JaxprEqn) -> bool:
    """Whether ``eqn`` (an elementwise equation of a region) has a compiled translation that
    gives the impl's bits."""
    if eqn.primitive.multiple_results or len(eqn.outvars) != 1:
        return False
    name = eqn.primitive.name
    out = eqn.outvars[0].aval.dtype
    ins = [a.aval.dtype for a in eqn.invars]
    if not all(d in _FLOATS or d in _INTS or d == _BOOL for d in (*ins, out)):
        return False
    x = ins[0] if ins else out
    if name in _BINARY:
        return x != _BOOL and all(d == out for d in ins)
    if name in ("neg", "abs", "max", "min"):
        return x != _BOOL and all(d == out for d in ins)
    if name in _COMPARE:
        return out == _BOOL and (x != _BOOL or name in ("eq", "ne")) and ins[0] == ins[1]
    if name in _BITWISE:
        return x not in _FLOATS and all(d == out for d in ins)
    if name == "not":
        return x not in _FLOATS and x == out
    if name in ("div", "sqrt", "rsqrt", "floor", "ceil"):
        return x in _FLOATS and all(d == out for d in ins)
    if name == "is_finite":
        return x in _FLOATS
    if _approx(name, x, out):
        return True
    if name in _LIBM:
        return x == out and x in _LIBM_DTYPES[name]
    if name == "select_n":
        return len(ins) == 3 and ins[0] == _BOOL and ins[1] == ins[2] == out
    if name == "integer_pow":
        return x == out and (x in _FLOATS or (x in _INTS and eqn.params["y"] >= 0))
    if name == "convert_element_type":
        if x == out:
            return True
        if out in _FLOATS:
            return True  # from a float (rounding), an int or a bool: one correctly rounded cast
        if out in _INTS:
            return x in _INTS or x == _BOOL  # wraps, as NumPy's cast does
        return x in _INTS  # int -> bool: != 0
    return False


def expression(eqn: JaxprEqn, ins: list[str], fresh: Callable[[], str]) -> tuple[list[str], str]:
    """Statements and the scalar expression of ``eqn``'s result, given its operands' local
    names (see :func:`compilable` for what is admitted)."""
    name = eqn.primitive.name
    out = eqn.outvars[0].aval.dtype
    t = _t(out)
    x = eqn.invars[0].aval.dtype if eqn.invars else out
    if name in _BINARY:
        return [], f"{t}({ins[0]} {_BINARY[name]} {ins[1]})"
    if name in _COMPARE:
        return [], f"({ins[0]} {_COMPARE[name]} {ins[1]})"
    if name in _BITWISE:
        return [], f"{t}({ins[0]} {_BITWISE[name]} {ins[1]})"
    if name == "not":
        return [], f"(not {ins[0]})" if x == _BOOL else f"{t}(~{ins[0]})"
    if name == "neg":
        return [], f"{t}(-{ins[0]})"
    if name == "abs":
        return [], f"{t}(abs({ins[0]}))"
    if name in ("max", "min"):
        if x in _FLOATS:
            return [], f"_f{name}({ins[0]}, {ins[1]})"
        return [], f"{t}({name}({ins[0]}, {ins[1]}))"
    if name == "div":
        return [], f"{t}({ins[0]} / {ins[1]})"
    if name in _FLOAT_UNARY:
        return [], f"{t}({_FLOAT_UNARY[name].format(ins[0])})"
    if name == "rsqrt":
        return [], f"{t}({t}(1) / np.sqrt({ins[0]}))"
    if name == "is_finite":
        return [], f"np.isfinite({ins[0]})"
    if _approx(name, x, out):
        return [], f"{APPROX_F32[name]}({ins[0]})"
    if name in _LIBM:
        return [], f"{t}({_LIBM[name]}(np.float64({ins[0]})))"
    if name == "select_n":
        return [], f"({ins[2]} if {ins[0]} else {ins[1]})"
    if name == "convert_element_type":
        if out == _BOOL:
            return [], f"({ins[0]} != 0)"
        return [], f"{t}({ins[0]})"
    if name == "integer_pow":
        return _integer_pow(eqn.params["y"], ins[0], t, fresh)
    raise NotImplementedError(name)  # pragma: no cover - compilable() admits only the above


def _integer_pow(y: int, x: str, t: str, fresh: Callable[[], str]) -> tuple[list[str], str]:
    """The impl's multiplications in its order (:func:`.fusion_runtime.integer_pow_plan`), each
    rounded (or wrapped) to the dtype."""
    names = {"x": x, "out": fresh(), "tmp": fresh()}
    lines = []
    for dst, a, b in rt.integer_pow_plan(y):
        if a == "1":
            lines.append(f"{names[dst]} = {t}(1)")
        elif b == "":
            lines.append(f"{names[dst]} = {names[a]}")
        elif b == "1/":
            lines.append(f"{names[dst]} = {t}({t}(1) / {names[a]})")
        else:
            lines.append(f"{names[dst]} = {t}({names[a]} * {names[b]})")
    return lines, names["out"]


# -- a group ---------------------------------------------------------------------------------------


@dataclass
class Operand:
    """An array the group reads: its chunk-function expression and its index, one entry per
    axis of that array: a loop variable's number, or None (a size-1 axis: index 0)."""

    expr: str
    index: tuple[int | None, ...]
    dtype: np.dtype[Any]


@dataclass
class Group:
    """Consecutive elementwise members of a region, all with results of one shape."""

    shape: tuple[int, ...]  # the results' aval shape
    members: list[tuple[int, JaxprEqn]] = field(default_factory=list)
    internal: dict[int, Var] = field(default_factory=dict)

    def reads_internal(self, eqn: JaxprEqn) -> bool:
        return any(isinstance(a, Var) and id(a) in self.internal for a in eqn.invars)

    def add(self, j: int, eqn: JaxprEqn) -> None:
        self.members.append((j, eqn))
        self.internal[id(eqn.outvars[0])] = eqn.outvars[0]


def sums_in_kernel(eqn: JaxprEqn, group: Group | None, flat: bool) -> bool:
    """Whether the cross-chunk ``eqn`` may be summed inside ``group``'s kernel: a
    ``reduce_sum`` of one of the group's float32/float64 values over whole contiguous chunks
    (a flat region, or a 1-d value)."""
    if group is None or eqn.primitive.name != "reduce_sum":
        return False
    x = eqn.invars[0]
    if not isinstance(x, Var) or id(x) not in group.internal or x.aval.dtype not in _FLOATS:
        return False
    return flat or x.aval.ndim == 1


def eight_sums(b: str, lo: str, n: str, out: str, indent: str) -> str:
    """Kernel source that sums ``b[lo:lo + n]`` (``n >= 8``) into ``out`` as NumPy sums a run of
    at most 128 elements: eight interleaved running sums over blocks of 8, combined as
    ``((0+1)+(2+3))+((4+5)+(6+7))``, then the last ``n % 8`` elements one by one. Shared by the
    flat sum kernel here and the row kernels of :mod:`.fusion_rows`. The blocks are counted
    (``q``), not stepped through (``range(lo + 8, end, 8)`` ran the row kernels' leaf 2.1x
    slower in Numba 0.68: 1.56 against 0.73 ms for 40,000 runs of 127 float32, interleaved)."""
    lines = [
        f"r0, r1, r2, r3 = {b}[{lo}], {b}[{lo} + 1], {b}[{lo} + 2], {b}[{lo} + 3]",
        f"r4, r5, r6, r7 = {b}[{lo} + 4], {b}[{lo} + 5], {b}[{lo} + 6], {b}[{lo} + 7]",
        f"nb = {n} // 8",
        "for q in range(1, nb):",
        f"    i = {lo} + 8 * q",
        *(f"    r{k} += {b}[i + {k}]" if k else f"    r0 += {b}[i]" for k in range(8)),
        f"{out} = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))",
        f"for i in range({lo} + 8 * nb, {lo} + {n}):",
        f"    {out} += {b}[i]",
    ]
    return "\n".join(indent + line for line in lines)


def sum_kernel_source(
    group: Group,
    operands: dict[int, Operand],
    constants: dict[int, str],
    outputs: list[Var],
    late: JaxprEqn,
) -> str:
    """A flat kernel that stores ``outputs`` and returns the sum of ``late``'s operand over
    the chunk, for chunks of at least 128 elements, in ``numpy.add.reduce``'s order: NumPy
    sums a contiguous run pairwise, splitting a run of ``m`` after ``m // 2 - (m // 2) % 8``
    elements down to runs of at most 128, each summed by eight interleaved running sums
    combined as ``((0+1)+(2+3))+((4+5)+(6+7))`` plus its last ``m % 8`` elements one by one,
    and adds the result to the identity 0. The recursion is walked with explicit stacks (the
    pending nodes with their state, the sums of finished ones); ``tests/test_fusion_compiled.py``
    and ``tests/test_fusion_pairwise.py`` check the bits."""
    x = late.invars[0]
    t = _t(x.aval.dtype)
    names: dict[int, str] = {}
    src, _ = kernel_source(group, operands, constants, outputs, (None,), names)
    head, _, loop = src.partition("    for i0 in range(r):\n")
    inner = [line[8:] for line in loop.splitlines()]
    local = names[id(x)]
    block = "\n".join("                " + line for line in inner)
    # The index is unsigned: a signed one that LLVM cannot prove non-negative (it comes from the
    # stack) keeps Numba's negative-index wrap-around, which stops the loop from vectorizing
    # (measured 4x slower).
    return (
        head
        + f"""    vals = np.empty(64, {t})
    starts = np.empty(64, np.int64)
    sizes = np.empty(64, np.int64)
    states = np.empty(64, np.int64)
    buf = np.empty(128, {t})
    sp = 1
    vp = 0
    starts[0] = 0
    sizes[0] = r
    states[0] = 0
    while sp > 0:
        base = starts[sp - 1]
        m = sizes[sp - 1]
        if m <= 128:
            sp -= 1
            for k in range(m):
                i0 = np.uint64(base + k)
{block}
                buf[k] = {local}
{eight_sums("buf", "0", "m", "s", " " * 12)}
            vals[vp] = s
            vp += 1
        elif states[sp - 1] == 2:
            sp -= 1
            vals[vp - 2] = vals[vp - 2] + vals[vp - 1]
            vp -= 1
        else:
            half = m // 2
            half -= half % 8
            state = states[sp - 1]
            states[sp - 1] = state + 1
            starts[sp] = base if state == 0 else base + half
            sizes[sp] = half if state == 0 else m - half
            states[sp] = 0
            sp += 1
    return {t}(0) + vals[0]
"""
    )


def kernel_source(
    group: Group,
    operands: dict[int, Operand],
    constants: dict[int, str],
    outputs: list[Var],
    loop_dims: tuple[int | None, ...],
    names: dict[int, str] | None = None,
) -> tuple[str, list[str]]:
    """The kernel module source of ``group`` and the argument expressions of its call
    (``kernel(r, *arrays, *outputs)``): one loop per axis (``loop_dims``: a static extent, or
    None for the chunk's rows ``r``), the operands loaded once per point, each member's
    statements, and the stores of ``outputs``.

    ``operands``: var id -> :class:`Operand` for the group's array inputs (a var may be read
    through a view: the operand is then the view's source with the composed index);
    ``constants``: var id (of a Literal) -> the expression of a bound 0-d array; ``names``,
    when given, receives the local name of each value (var id -> name)."""
    args: list[str] = []
    params: list[str] = []
    loads: list[str] = []
    loops = [f"i{k}" for k in range(len(loop_dims))]
    seen: dict[tuple[str, tuple[int | None, ...]], str] = {}

    def load(expr: str, index: tuple[int | None, ...]) -> str:
        key = (expr, index)
        if key not in seen:
            if expr not in args:
                args.append(expr)
                params.append(f"a{len(params)}")
            p = params[args.index(expr)]
            idx = ", ".join(loops[k] if k is not None else "0" for k in index)
            name = f"l{len(seen)}"
            loads.append(f"{name} = {p}[{idx if index else '()'}]")
            seen[key] = name
        return seen[key]

    erfc_in: dict[int, str] = {}

    def emit(shared: set[int]) -> tuple[list[str], dict[int, str], _Numbering]:
        counter = [0]

        def fresh() -> str:
            counter[0] += 1
            return f"u{counter[0]}"

        body: list[str] = []
        local: dict[int, str] = {}
        numbering = _Numbering()
        for _, eqn in group.members:
            ins = []
            for a in eqn.invars:
                if isinstance(a, Var) and id(a) in local:
                    ins.append(local[id(a)])
                elif isinstance(a, Literal) or id(a) in constants:
                    ins.append(load(constants[id(a)], ()))
                else:
                    op = operands[id(a)]
                    ins.append(load(op.expr, op.index))
            if eqn.primitive.name == "erfc":
                erfc_in[id(eqn)] = ins[0]
            if id(eqn) in shared:
                lines, expr = _erfc_sharing_exp(ins[0], fresh)
            else:
                lines, expr = expression(eqn, ins, fresh)
            for line in lines:
                name, rhs = line.split(" = ", 1)
                body.append(numbering.add(name, rhs))
            result = fresh()
            body.append(f"{numbering.add(result, expr)}  # {eqn.primitive.name}")
            local[id(eqn.outvars[0])] = result
        return body, local, numbering

    body, local, numbering = emit(set())
    # erfc(x) beside exp(-(x * x)) (its derivative): one exp for both (_erfcf_e)
    shared = {
        id(eqn)
        for _, eqn in group.members
        if eqn.primitive.name == "erfc"
        and _approx("erfc", eqn.invars[0].aval.dtype, eqn.outvars[0].aval.dtype)
        and numbering.has_exp_of_neg_square(erfc_in[id(eqn)])
    }
    if shared:
        body, local, numbering = emit(shared)
    out_params = [f"o{k}" for k in range(len(outputs))]
    idx = ", ".join(loops)
    for o, v in zip(out_params, outputs):
        body.append(f"{o}[{idx}] = {local[id(v)]}")
    head = [f"@_kernel\ndef kernel(r, {', '.join([*params, *out_params])}):"]
    indent = "    "
    for k, extent in enumerate(loop_dims):
        head.append(f"{indent}for {loops[k]} in range({'r' if extent is None else extent}):")
        indent += "    "
    src = "\n".join([*head, *(indent + s for s in (*loads, *body))]) + "\n"
    if names is not None:  # the local name of each value (sum_kernel_source reads them)
        names.update(local)
    return src, args


class _Numbering:
    """Value numbering of a kernel's statements: a statement whose right-hand side (with the
    names it reads replaced by their first equal) was already computed becomes a copy of that
    value. The statements are pure float/int arithmetic of the loop's point, so an equal text is
    an equal value, bit for bit; LLVM would usually merge them too, this makes it certain and
    lets :func:`kernel_source` see which values exist (erfc's shared exp)."""

    def __init__(self) -> None:
        self.known: dict[str, str] = {}
        self.alias: dict[str, str] = {}
        self.assigned: set[str] = set()

    def canon(self, rhs: str) -> str:
        return _NAME.sub(lambda m: self.alias.get(m.group(0), m.group(0)), rhs)

    def add(self, name: str, rhs: str) -> str:
        """The statement ``name = rhs`` as emitted (``rhs`` canonical, or a copy)."""
        c = self.canon(rhs)
        if name in self.assigned:
            # assigned again (integer_pow's buffers): forget every fact about its old value
            self.known = {
                k: v for k, v in self.known.items() if v != name and name not in _NAME.findall(k)
            }
            self.alias = {k: v for k, v in self.alias.items() if name not in (k, v)}
            return f"{name} = {c}"
        self.assigned.add(name)
        first = c if _NAME.fullmatch(c) else self.known.get(c)
        if first is not None:
            self.alias[name] = first
            return f"{name} = {first}"
        self.known[c] = name
        return f"{name} = {c}"

    def has_exp_of_neg_square(self, x: str) -> bool:
        """Whether ``_expf(-(x * x))`` (float32, as ``integer_pow``/``mul``, ``neg`` and
        ``exp`` write it) is among the values."""
        x = self.alias.get(x, x)
        sq = self.known.get(f"np.float32({x} * {x})")
        ng = self.known.get(f"np.float32(-{sq})") if sq else None
        return ng is not None and f"_expf({ng})" in self.known


_NAME = re.compile(r"\bu\d+\b")


def _erfc_sharing_exp(x: str, fresh: Callable[[], str]) -> tuple[list[str], str]:
    """float32 ``erfc(x)`` as ``_erfcf_e`` of ``exp(-(x * x))``, written exactly as the
    derivative's equations write it so that :class:`_Numbering` makes them one value."""
    sq, ng, e = fresh(), fresh(), fresh()
    lines = [f"{sq} = np.float32({x} * {x})", f"{ng} = np.float32(-{sq})", f"{e} = _expf({ng})"]
    return lines, f"_erfcf_e({x}, {e})"
