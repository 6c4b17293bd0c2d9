"""Dtype spellings on the command line: the JAX docs' short codes, names and Python types.

The short codes are those of JAX's type-promotion docs, where the digit is a width in **bytes**
(as in NumPy's type strings): ``i1`` is int8, ``i8`` is int64, ``f2`` float16, ``c8`` complex64,
``bf`` bfloat16, and ``i*``, ``f*``, ``c*`` are the weak types of Python ``int``, ``float`` and
``complex``. Because ``i8`` is so easy to misread, every output names the full dtype next to a
code (:func:`describe`).

>>> describe(parse("i8"))
'i8 (int64)'
>>> describe(parse("float"))
'f* (weak float)'
"""

from __future__ import annotations

import difflib
import re
from typing import Final

import numpy as np

from trellax._src.api.api import ShapeDtypeStruct
from trellax._src.dtypes import dtypes as _dt
from trellax._src.dtypes.dtypes import Node, WeakType

#: Byte-width code of each of the 15 standard dtypes, in the order of the docs' table.
_CODES: Final[dict[str, Node]] = {
    "b1": _dt.bool_,
    "u1": _dt.uint8,
    "u2": _dt.uint16,
    "u4": _dt.uint32,
    "u8": _dt.uint64,
    "i1": _dt.int8,
    "i2": _dt.int16,
    "i4": _dt.int32,
    "i8": _dt.int64,
    "bf": _dt.bfloat16,
    "f2": _dt.float16,
    "f4": _dt.float32,
    "f8": _dt.float64,
    "c8": _dt.complex64,
    "c16": _dt.complex128,
    "i*": _dt.weak_int,
    "f*": _dt.weak_float,
    "c*": _dt.weak_complex,
}
_CODE_OF: Final[dict[Node, str]] = {n: c for c, n in _CODES.items() if isinstance(n, np.dtype)}
_WEAK_NAMES: Final = {"i": "weak int", "f": "weak float", "c": "weak complex"}

_ALIASES: Final[dict[str, Node]] = {
    "bf16": _dt.bfloat16,
    "bool_": _dt.bool_,
    "int": _dt.weak_int,
    "float": _dt.weak_float,
    "complex": _dt.weak_complex,
    "weak_int": _dt.weak_int,
    "weak_float": _dt.weak_float,
    "weak_complex": _dt.weak_complex,
}
_NAMES: Final[dict[str, Node]] = {d.name: d for d in _dt.ALL_DTYPES}


class DTypeSpecError(ValueError):
    """A command-line dtype spelling that trellax does not know."""


def code(node: Node) -> str:
    """The short code of a node (``'i1'``, ``'bf'``, ``'f*'``); sub-byte and fp8/6/4 types, which
    have no code in the docs, go by their names (``'int4'``, ``'float8_e4m3fn'``)."""
    if isinstance(node, WeakType):
        return node.code
    return _CODE_OF.get(node, str(node.name))


def name(node: Node) -> str:
    """The full name: the dtype's name, or ``'weak int'`` for ``i*``."""
    if isinstance(node, WeakType):
        return _WEAK_NAMES[node.kind]
    return str(node.name)


def describe(node: Node) -> str:
    """Code and full name together, ``'i8 (int64)'``; just the name when they are the same."""
    c, n = code(node), name(node)
    return n if c == n else f"{c} ({n})"


def legend(nodes: tuple[Node, ...] | None = None) -> str:
    """One line mapping codes to names, for the foot of a table."""
    ns = _dt.TABLE_NODES if nodes is None else nodes
    return "  ".join(f"{code(n)}={name(n)}" for n in ns if code(n) != name(n))


def parse(text: str) -> Node:
    """The lattice node a command-line spelling stands for; :class:`DTypeSpecError` otherwise."""
    s = text.strip().lower()
    for table in (_CODES, _ALIASES, _NAMES):
        if s in table:
            return table[s]
    raise DTypeSpecError(_unknown_message(text))


def accepted_spellings() -> str:
    """What :func:`parse` accepts, as a few readable lines."""
    codes = " ".join(f"{c}={name(n)}" for c, n in _CODES.items() if isinstance(n, np.dtype))
    names = ", ".join(d.name for d in _dt.ALL_DTYPES)
    return (
        f"  short codes (widths in bytes, as in the JAX docs): {codes}, and bf16=bfloat16\n"
        "  weak types: i* f* c*, or the Python types int float complex (bool is a strong bool)\n"
        f"  dtype names: {names}"
    )


_BIT_CODE = re.compile(r"^(b|bf|u|i|f|c)(\d+)$")
_KIND_NAME: Final = {"u": "uint", "i": "int", "f": "float", "c": "complex", "b": "bool"}


def _unknown_message(text: str) -> str:
    s = text.strip().lower()
    hint = ""
    m = _BIT_CODE.match(s)
    if m and m.group(1) != "bf":
        kind, bits = m.group(1), int(m.group(2))
        guess = "bool" if kind == "b" else f"{_KIND_NAME[kind]}{bits}"
        if guess in _NAMES:
            node = _NAMES[guess]
            hint = (
                f" Did you mean {guess} (short code {code(node)})? Short codes count bytes, "
                "not bits."
            )
    if not hint:
        close = difflib.get_close_matches(s, [*_CODES, *_ALIASES, *_NAMES], n=3, cutoff=0.75)
        if close:
            hint = " Did you mean " + " or ".join(close) + "?"
    return f"unknown dtype {text!r}.{hint} Accepted spellings:\n{accepted_spellings()}"


_EXAMPLE = re.compile(r"^(~?)([A-Za-z0-9_]+)(?:\[([0-9, ]*)\])?$")
_JAXPR_NAMES: Final[dict[str, str]] = {
    "bool": "bool",
    "bf16": "bfloat16",
    **{f"i{b}": f"int{b}" for b in (1, 2, 4, 8, 16, 32, 64)},
    **{f"u{b}": f"uint{b}" for b in (1, 2, 4, 8, 16, 32, 64)},
    **{f"f{b}": f"float{b}" for b in (16, 32, 64)},
    "c64": "complex64",
    "c128": "complex128",
}
_PY_EXAMPLES: Final[dict[str, object]] = {"int": 1, "float": 1.0, "complex": 1j, "bool": True}


def parse_example(text: str) -> object:
    """An example argument for ``explain --function``, in the notation jaxprs print.

    ``f32[3]`` is a strong float32 array of shape (3,), ``~f32[]`` a weak float32 scalar,
    ``i8[2,2]`` an int8 matrix (bit widths, as in jaxprs — not the byte codes of the table),
    full names work too (``bfloat16[4]``); ``int``, ``float``, ``complex`` and ``bool`` stand for
    Python scalars.
    """

    t = text.strip()
    if t in _PY_EXAMPLES:
        return _PY_EXAMPLES[t]
    m = _EXAMPLE.match(t)
    if m is None:
        raise DTypeSpecError(
            f"cannot read {text!r} as an example argument; write a dtype and a shape as jaxprs "
            "print them, e.g. f32[3], ~f32[] (weak), i8[2,2], bfloat16[4], or int/float for a "
            "Python scalar"
        )
    weak, dname, dims = m.groups()
    full = _JAXPR_NAMES.get(dname, dname)
    if full not in _NAMES:
        raise DTypeSpecError(
            f"unknown dtype {dname!r} in {text!r}; use jaxpr names (f32, i8, u8, bf16, c64, "
            f"bool) or full names ({', '.join(sorted(_NAMES))})"
        )
    shape = tuple(int(d) for d in dims.replace(" ", "").split(",") if d) if dims else ()
    return ShapeDtypeStruct(shape, _NAMES[full], weak_type=bool(weak))
