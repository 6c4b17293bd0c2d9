"""``Lowered.compiler_ir(dialect="hlo")``: a jaxpr written in XLA's HLO text syntax.

trellax has no XLA, so this is a view, not a compiler input: every parameter, every equation and
the result are written as HLO instructions (``name.k = f32[2]{0} multiply(a.1, b.1)``), with
XLA's opcode for the primitives it lowers to one elementwise instruction (``square`` and
``integer_pow`` of 2 become ``multiply(x, x)``, as XLA writes them), and a ``custom-call`` naming
the primitive for the others. Programs that compare two functions' HLO text (optax's tests do)
see equal text for the functions XLA would lower alike.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from trellax._src.core.jaxpr import ClosedJaxpr

_OPCODES = {
    "add": "add",
    "add_any": "add",
    "sub": "subtract",
    "mul": "multiply",
    "div": "divide",
    "rem": "remainder",
    "max": "maximum",
    "min": "minimum",
    "pow": "power",
    "atan2": "atan2",
    "and": "and",
    "or": "or",
    "xor": "xor",
    "neg": "negate",
    "not": "not",
    "exp": "exponential",
    "exp2": "exponential",
    "expm1": "exponential-minus-one",
    "log": "log",
    "log1p": "log-plus-one",
    "sqrt": "sqrt",
    "rsqrt": "rsqrt",
    "cbrt": "cbrt",
    "tanh": "tanh",
    "logistic": "logistic",
    "sin": "sine",
    "cos": "cosine",
    "tan": "tan",
    "abs": "abs",
    "sign": "sign",
    "floor": "floor",
    "ceil": "ceil",
    "round": "round-nearest-even",
    "is_finite": "is-finite",
    "real": "real",
    "imag": "imag",
    "complex": "complex",
    "convert_element_type": "convert",
    "copy": "copy",
    "copy_p": "copy",
    "select_n": "select",
    "clamp": "clamp",
}

_TYPES = {
    "float32": "f32",
    "float64": "f64",
    "float16": "f16",
    "bfloat16": "bf16",
    "int8": "s8",
    "int16": "s16",
    "int32": "s32",
    "int64": "s64",
    "uint8": "u8",
    "uint16": "u16",
    "uint32": "u32",
    "uint64": "u64",
    "bool": "pred",
    "complex64": "c64",
    "complex128": "c128",
}


def _type(aval: Any) -> str:
    name = _TYPES.get(np.dtype(aval.dtype).name, np.dtype(aval.dtype).name)
    dims = ",".join(str(d) for d in aval.shape)
    layout = "{" + ",".join(str(i) for i in reversed(range(len(aval.shape)))) + "}"
    return f"{name}[{dims}]" + (layout if aval.shape else "")


class HloText:
    """The object ``compiler_ir(dialect="hlo")`` returns: ``as_hlo_text()`` and ``str()``."""

    def __init__(self, text: str) -> None:
        self._text = text

    def as_hlo_text(self) -> str:
        """The module in HLO text syntax."""
        return self._text

    def __str__(self) -> str:
        return self._text


def hlo_text(closed: ClosedJaxpr, name: str, arg_names: Sequence[str]) -> str:
    """``closed`` written as an HLO module named ``jit_<name>``."""
    jaxpr = closed.jaxpr
    counts: dict[str, int] = {}
    names: dict[int, str] = {}
    lines: list[str] = []

    def fresh(base: str) -> str:
        counts[base] = counts.get(base, 0) + 1
        return f"{base}.{counts[base]}"

    def ref(atom: Any) -> str:
        if id(atom) in names:
            return names[id(atom)]
        value = getattr(atom, "val", None)
        const = fresh("constant")
        lines.append(f"  {const} = {_type(atom.aval)} constant({np.asarray(value)!r})")
        return const

    for i, v in enumerate(jaxpr.invars):
        arg = arg_names[i] if i < len(arg_names) else f"arg{i}"
        names[id(v)] = fresh(arg.replace(".", "_") or f"arg{i}")
        lines.append(f"  {names[id(v)]} = {_type(v.aval)} parameter({i})")
    for var, const in zip(jaxpr.constvars, closed.consts):
        names[id(var)] = fresh("constant")
        lines.append(f"  {names[id(var)]} = {_type(var.aval)} constant({np.asarray(const)!r})")
    for eqn in jaxpr.eqns:
        prim = eqn.primitive.name
        ins = [ref(a) for a in eqn.invars]
        if prim == "square" or (prim == "integer_pow" and eqn.params.get("y") == 2):
            op = f"multiply({ins[0]}, {ins[0]})"
        elif prim in _OPCODES:
            op = f"{_OPCODES[prim]}({', '.join(ins)})"
        else:
            op = f'custom-call({", ".join(ins)}), custom_call_target="trellax.{prim}"'
        outs = [fresh(prim) for _ in eqn.outvars]
        for out, var in zip(outs, eqn.outvars):
            names[id(var)] = out
        if len(eqn.outvars) == 1:
            lines.append(f"  {outs[0]} = {_type(eqn.outvars[0].aval)} {op}")
        else:
            types = ", ".join(_type(v.aval) for v in eqn.outvars)
            whole = fresh(prim + "_tuple")
            lines.append(f"  {whole} = ({types}) {op}")
            for k, (out, var) in enumerate(zip(outs, eqn.outvars)):
                lines.append(f"  {out} = {_type(var.aval)} get-tuple-element({whole}), index={k}")
    results = [ref(a) for a in jaxpr.outvars]
    out_types = [_type(v.aval) for v in jaxpr.outvars]
    last = lines[-1] if lines else ""
    single = len(results) == 1 and last.startswith(f"  {results[0]} = ")
    if single:
        lines[-1] = "  ROOT " + last[2:]
    else:
        tuple_type = "(" + ", ".join(out_types) + ")"
        lines.append(f"  ROOT tuple.{len(results)} = {tuple_type} tuple({', '.join(results)})")
    in_types = ", ".join(_type(v.aval) for v in jaxpr.invars)
    out_layout = out_types[0] if len(out_types) == 1 else "(" + ", ".join(out_types) + ")"
    module = re.sub(r"\W", "_", name.replace("<", "_").replace(">", ""))
    head = f"HloModule jit_{module}, entry_computation_layout={{({in_types})->{out_layout}}}"
    return "\n".join([head, "", "ENTRY main.1 {", *lines, "}", "", ""])
