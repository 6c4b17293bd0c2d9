"""The ``trellax`` command: promotion tables, lattice drawings, explanations and law checks.

::

    trellax table [--x64] [--strict] [--level op|lattice] [--format text|markdown|csv|html]
                  [--vs numpy|torch|tensorflow|jax] [-o FILE]
    trellax lattice [--x64] [--strict] [--all] [--format text|dot|svg] [-o FILE]
    trellax explain T1 T2 [...] [--x64] [--strict]
    trellax check [--library numpy|torch|tensorflow|jax] [--x64] [--strict]
    trellax demo
    trellax run [--report] SCRIPT [ARGS...]     (or: trellax run [--report] -m MODULE [ARGS...])

Types are spelled as in JAX's type-promotion docs, where the digit is a width in bytes (``i1`` is
int8, ``i8`` is int64, ``bf`` bfloat16, ``c8`` complex64; ``i*``, ``f*``, ``c*`` are Python
scalars), or by name (``int8``, ``bfloat16``, ``float8_e4m3fn``, ``float``). Exit status: 0 on
success, 2 for a usage error (an unknown dtype spelling, a library that is not installed).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Final, TextIO

from trellax._src.api.explain import explain_promotions
from trellax._src.compat import runner
from trellax._src.config import settings as config
from trellax._src.config.settings import State
from trellax._src.report import check, explain, formats, hasse, libraries, spec
from trellax._src.report.table import LEVELS, build_table

_SUFFIX_FORMATS: Final = {
    ".txt": "text",
    ".md": "markdown",
    ".csv": "csv",
    ".html": "html",
    ".htm": "html",
    ".svg": "svg",
    ".dot": "dot",
    ".gv": "dot",
}


class UsageError(Exception):
    """A mistake on the command line that argparse cannot see (exit status 2)."""


def _add_config(p: argparse.ArgumentParser) -> None:
    p.add_argument("--x64", action="store_true", help="64-bit mode (enable_x64=True)")
    p.add_argument(
        "--strict", action="store_true", help="strict promotion (numpy_dtype_promotion='strict')"
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="trellax",
        description="Inspect trellax's (JAX's) dtype promotion: tables, the lattice, "
        "explanations, and law checks against other libraries.",
        epilog="Type codes count bytes, as in the JAX docs: i1=int8 ... i8=int64, bf=bfloat16, "
        "f2=float16, c8=complex64; i* f* c* are Python int/float/complex (weak).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = sub.add_parser("table", help="the 18x18 binary promotion table")
    _add_config(p)
    p.add_argument(
        "--level",
        choices=LEVELS,
        default="op",
        help="op: result of x + y on values, as the reference tables (default); lattice: the "
        "join of the two lattice nodes, as the JAX docs' table",
    )
    p.add_argument("--format", choices=formats.FORMATS, help="default: text, or from -o's suffix")
    p.add_argument(
        "--vs",
        choices=libraries.LIBRARIES,
        metavar="LIB",
        help="mark the cells where LIB (numpy, torch, tensorflow or jax; measured live) differs",
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")

    p = sub.add_parser("lattice", help="the Hasse diagram of the promotion lattice")
    _add_config(p)
    p.add_argument(
        "--all",
        action="store_true",
        help="include the sub-byte ints and fp8/fp6/fp4 types (default: the 18 of the docs)",
    )
    p.add_argument("--format", choices=hasse.FORMATS, help="default: text, or from -o's suffix")
    p.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")

    p = sub.add_parser("explain", help="why types promote to what they do")
    _add_config(p)
    p.add_argument(
        "types",
        nargs="*",
        metavar="T",
        help="i1, u1, bf16, f*, int8, float, ... (with --function: example arguments in the "
        "notation make_jaxpr prints, e.g. f32[3] i8[] ~f32[] bf16[2,2], or int/float/complex "
        "for Python scalars)",
    )
    p.add_argument(
        "--function",
        metavar="MODULE:FUNC",
        help="trace FUNC on example arguments and list every implicit promotion inside it",
    )

    p = sub.add_parser("check", help="lattice laws of trellax's (or a library's) promotion")
    _add_config(p)
    p.add_argument(
        "--library",
        choices=libraries.LIBRARIES,
        metavar="LIB",
        help="also check LIB's live promotion (numpy, torch, tensorflow or jax)",
    )

    sub.add_parser("demo", help="a short tour of the above")
    sub.add_parser(
        "run",
        help="run a JAX/Flax/optax program unchanged on trellax (trellax run --help)",
        add_help=False,
    )
    return parser


def _state(args: argparse.Namespace) -> State:
    return State(bool(args.x64), "strict" if args.strict else "standard")


def _format(args: argparse.Namespace) -> str:
    if args.format:
        return str(args.format)
    if args.output:
        return _SUFFIX_FORMATS.get(Path(args.output).suffix.lower(), "text")
    return "text"


def _emit(text: str, args: argparse.Namespace, out: TextIO) -> None:
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as e:
            raise UsageError(f"cannot write {args.output}: {e.strerror or e}") from None
        out.write(f"trellax: wrote {args.output}\n")
    else:
        out.write(text)


def _load(name: str) -> libraries.Library:
    try:
        return libraries.load(name)
    except libraries.LibraryUnavailable as e:
        raise UsageError(str(e)) from None


def _table(args: argparse.Namespace, out: TextIO) -> None:
    fmt = _format(args)
    if fmt not in formats.FORMATS:
        raise UsageError(f"table cannot be written as {fmt}; use {', '.join(formats.FORMATS)}")
    st = _state(args)
    table = build_table(st, args.level)
    comparison = None
    if args.vs:
        lib = _load(args.vs)
        if args.level != "op":
            raise UsageError("--vs compares values, so it needs --level op (the default)")
        comparison = lib.compare(table, st)
    _emit(formats.render(table, fmt, comparison), args, out)


def _lattice(args: argparse.Namespace, out: TextIO) -> None:
    fmt = _format(args)
    d = hasse.diagram(_state(args), include_all=args.all)
    writers: dict[str, Callable[[hasse.Diagram], str]] = {
        "text": hasse.to_text,
        "dot": hasse.to_dot,
        "svg": hasse.to_svg,
    }
    if fmt not in writers:
        raise UsageError(f"lattice cannot be written as {fmt}; use {', '.join(hasse.FORMATS)}")
    _emit(writers[fmt](d), args, out)


def _explain(args: argparse.Namespace, out: TextIO) -> None:
    if args.function:
        out.write(_explain_function(args))
        return
    if not args.types:
        raise UsageError("give at least one type (e.g. trellax explain int8 uint8), or --function")
    try:
        nodes = [spec.parse(t) for t in args.types]
    except spec.DTypeSpecError as e:
        raise UsageError(str(e)) from None
    out.write(explain.explain(nodes, _state(args)))


def _explain_function(args: argparse.Namespace) -> str:
    import importlib

    module_name, _, func_name = args.function.partition(":")
    if not module_name or not func_name:
        raise UsageError(
            f"--function takes MODULE:FUNC (e.g. mypkg.model:loss), got {args.function!r}"
        )
    if "" not in sys.path:
        sys.path.insert(0, "")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise UsageError(f"cannot import {module_name!r}: {e}") from None
    fun = module
    for part in func_name.split("."):
        fun = getattr(fun, part, None)  # type: ignore[assignment]
        if fun is None:
            raise UsageError(f"{module_name!r} has no attribute {func_name!r}")
    try:
        examples = [spec.parse_example(t) for t in args.types]
    except spec.DTypeSpecError as e:
        raise UsageError(str(e)) from None
    with config._state(_state(args)):
        report = explain_promotions(fun, *examples)  # type: ignore[arg-type]
    return str(report) + "\n"


def _check(args: argparse.Namespace, out: TextIO) -> None:
    st = _state(args)
    lib = _load(args.library) if args.library else None
    out.write(check.check_trellax(st))
    if lib is not None:
        out.write("\n" + check.check_library(lib, st))


_DEMO: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    (
        "JAX's promotion table, computed from the lattice (x64 off, the default). Python "
        "scalars (i* f* c*) never widen an array of their kind: i1 + i* is i1, f2 + f* is f2.",
        ("table",),
    ),
    (
        "The lattice itself: a -> b means a promotes to b. A promotion is the least upper bound "
        "(join). `trellax lattice -o lattice.svg` draws it.",
        ("lattice",),
    ),
    (
        "Why int8 + uint8 + float16 is float16 (NumPy 2 says float32):",
        ("explain", "i1", "u1", "f2"),
    ),
    (
        "A Python float meeting an int8 array: the result is weak and takes the default float.",
        ("explain", "i1", "float"),
    ),
    (
        "uint64 with int64 has no integer join: the lattice goes through f*. Note x32 vs x64.",
        ("explain", "u8", "i8", "--x64"),
    ),
    (
        "Strict mode allows only same-type and weak-scalar promotion:",
        ("table", "--strict", "--x64"),
    ),
    (
        "Where the installed NumPy promotes differently (measured live):",
        ("table", "--x64", "--vs", "numpy"),
    ),
    (
        "Lattice laws: trellax's promotion is a join; NumPy's is not associative.",
        ("check", "--library", "numpy"),
    ),
)


def _demo(args: argparse.Namespace, out: TextIO) -> None:
    del args
    out.write(
        "trellax demo: JAX's dtype promotion, computed from one lattice and made visible.\n"
        "Type codes count bytes, as in the JAX docs: i1=int8, i8=int64, bf=bfloat16, f2=float16, "
        "c8=complex64; i* f* c* are Python int/float/complex (weak types).\n"
    )
    for k, (words, argv) in enumerate(_DEMO, 1):
        rule = "=" * 100
        out.write(f"\n{rule}\n{k}. {words}\n$ trellax {' '.join(argv)}\n{rule}\n\n")
        body = io.StringIO()
        code = _run(list(argv), body, sys.stderr)
        text = body.getvalue()
        if argv[0] == "check":
            text = _trim_hasse(text)
        out.write(text)
        if code:
            out.write(f"(exit status {code})\n")
    _demo_arrays(out, len(_DEMO) + 1)
    out.write(
        "\nMore: trellax table --help, trellax lattice --format svg -o lattice.svg, "
        "trellax table --format html --vs numpy -o table.html, "
        "trellax explain --function MODULE:FUNC f32[3] ...\n"
    )


_DEMO_CODE: Final = """\
import trellax, trellax.numpy as tnp
x = tnp.arange(4, dtype="int8")
print(repr(x * 2))                       # a Python int takes the array's dtype
print(repr(x + 1.5))                     # a Python float of a higher kind: default float, weak
print(repr(tnp.asarray(2)))              # a bare Python scalar is weakly typed
f = trellax.jit(lambda x, y: (x * y).sum())
print(repr(f(x, 0.5)))                   # jit gives the eager dtypes (0.5 enters as a weak value)
print(trellax.make_jaxpr(lambda x, y: x * y)(x, tnp.float16(2)))
def step(w, x):
    return w - 0.1 * (x @ w)
print(trellax.explain_promotions(step, tnp.ones(3, "float16"), tnp.ones((3, 3), "int32")))"""


def _demo_arrays(out: TextIO, k: int) -> None:
    rule = "=" * 100
    out.write(
        f"\n{rule}\n{k}. The same rules on arrays, eagerly and under jit, and where a "
        f"promotion happens.\n{rule}\n\n"
    )
    import ast

    namespace: dict[str, object] = {}
    for node in ast.parse(_DEMO_CODE).body:
        source = ast.get_source_segment(_DEMO_CODE, node) or ""
        lines = source.splitlines()
        out.write(f">>> {lines[0]}\n" + "".join(f"... {line}\n" for line in lines[1:]))
        buf = io.StringIO()
        saved = sys.stdout
        sys.stdout = buf
        try:
            code = compile(ast.Module(body=[node], type_ignores=[]), "<demo>", "exec")
            exec(code, namespace)
        finally:
            sys.stdout = saved
        out.write(buf.getvalue())


def _trim_hasse(text: str) -> str:
    """The demo keeps check's verdicts and leaves out the long recovered diagrams."""
    keep: list[str] = []
    skipping = False
    for line in text.splitlines():
        if line.startswith("    ") and skipping:
            continue
        skipping = line.endswith("(a -> its covers):")
        keep.append(line.replace("; the recovered Hasse diagram (a -> its covers):", ""))
    return "\n".join(keep) + "\n"


_COMMANDS: Final[dict[str, Callable[[argparse.Namespace, TextIO], None]]] = {
    "table": _table,
    "lattice": _lattice,
    "explain": _explain,
    "check": _check,
    "demo": _demo,
}


@contextlib.contextmanager
def _argparse_streams(out: TextIO, err: TextIO) -> Iterator[None]:
    """argparse prints help and errors to sys.stdout/sys.stderr; point them at ours."""
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def _run(argv: list[str], out: TextIO, err: TextIO) -> int:
    if argv[:1] == ["run"]:  # the program's own options must reach it untouched by argparse
        return runner.run(argv[1:], err)
    parser = _parser()
    try:
        with _argparse_streams(out, err):
            args = parser.parse_args(argv)
    except SystemExit as e:  # --help (0) or a usage error (2), already printed
        return e.code if isinstance(e.code, int) else 2
    try:
        _COMMANDS[args.command](args, out)
    except UsageError as e:
        err.write(f"trellax {args.command}: error: {e}\n")
        return 2
    except BrokenPipeError:  # `trellax table | head`
        return 0
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the ``trellax`` command with ``argv`` (default: the process's arguments)."""
    return _run(list(sys.argv[1:] if argv is None else argv), sys.stdout, sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
