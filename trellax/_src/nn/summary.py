"""``Module.tabulate``/``nn.tabulate`` and ``Module.module_paths``: one row per module call of
an ``init`` run (path, class, input and output shapes, the module's own variables by
collection with their counts and bytes), drawn as Flax draws its table (without colours)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from trellax import tree_util
from trellax._src.nn.module import _INIT_MUTABLE, _SUMMARY, Module, intercept_methods


class _Row:
    def __init__(self, path: tuple[str, ...], module: Module, method: str, inputs: Any, out: Any):
        self.path = path
        self.module = module
        self.method = method
        self.inputs = inputs
        self.outputs = out
        self.variables: dict[str, dict[str, Any]] = {}


def _module_rows(module: Module, rngs: Any, args: Any, kwargs: Any, mutable: Any) -> list[_Row]:
    rows: list[_Row] = []

    def interceptor(next_fun: Callable[..., Any], a: Any, k: Any, context: Any) -> Any:
        mdl = context.module
        out = next_fun(*a, **k)
        if context.method_name != "setup" and mdl.scope is not None:
            inputs = a[0] if len(a) == 1 and not k else (a, k) if k else a
            rows.append(_Row(mdl.path, mdl.clone(parent=None), context.method_name, inputs, out))
        return out

    with intercept_methods(interceptor):
        variables = module.init(rngs, *args, mutable=mutable, **kwargs)
    rows.sort(key=lambda r: 0 if r.path == () else 1)  # the outer call finishes last
    seen: set[tuple[str, ...]] = set()
    unique = []
    for r in rows:
        if r.path not in seen:
            seen.add(r.path)
            unique.append(r)
    for r in unique:
        for col, tree in variables.items():
            node: Any = tree
            for p in r.path:
                node = node.get(p, {}) if isinstance(node, Mapping) else {}
            child_names = {
                c.path[len(r.path)]
                for c in unique
                if c.path[: len(r.path)] == r.path and len(c.path) > len(r.path)
            }
            own = (
                {k: v for k, v in node.items() if k not in child_names}
                if isinstance(node, Mapping)
                else {}
            )
            r.variables[col] = own
    return unique


def _shape_repr(x: Any) -> str:
    def one(v: Any) -> str:
        if hasattr(v, "shape") and hasattr(v, "dtype"):
            return f"{v.dtype}[{','.join(str(d) for d in v.shape)}]"
        return repr(v)

    leaves = tree_util.tree_leaves(x)
    if isinstance(x, tuple | list) and leaves:
        return "- " + "\n- ".join(one(v) for v in leaves) if len(leaves) > 1 else one(leaves[0])
    if isinstance(x, Mapping):
        return "\n".join(f"{k}: {_shape_repr(v)}" for k, v in x.items())
    return one(x) if leaves else ""


def _bytes_repr(n: int) -> str:
    if n > 1e9:
        return f"{n / 1e9:,.1f} GB"
    if n > 1e6:
        return f"{n / 1e6:,.1f} MB"
    if n > 1e3:
        return f"{n / 1e3:,.1f} KB"
    return f"{n:,} B"


def _size(tree: Any) -> tuple[int, int]:
    leaves = [v for v in tree_util.tree_leaves(tree) if hasattr(v, "size")]
    return sum(int(v.size) for v in leaves), sum(int(v.size) * v.dtype.itemsize for v in leaves)


def _vars_cell(own: Mapping[str, Any]) -> str:
    if not own:
        return ""
    flat = tree_util.tree_flatten_with_path(dict(own))[0]
    lines = [
        f"{tree_util.keystr(p, simple=True, separator='/')}: {_shape_repr(v)}" for p, v in flat
    ]
    n, b = _size(own)
    return "\n".join([*lines, "", f"{n:,} ({_bytes_repr(b)})"])


def _draw(title: str, header: list[str], rows: list[list[str]], total: list[str]) -> str:
    cells = [header, *rows, total]
    widths = [
        max(len(line) for r in cells for line in (r[i].split("\n") or [""]))
        for i in range(len(header))
    ]

    def line(left: str, mid: str, right: str, fill: str) -> str:
        return left + mid.join(fill * (w + 2) for w in widths) + right

    def row(r: list[str], sep: str, right_align: set[int] | None = None) -> list[str]:
        parts = [c.split("\n") for c in r]
        height = max(len(p) for p in parts)
        out = []
        for k in range(height):
            texts = []
            for i, p in enumerate(parts):
                t = p[k] if k < len(p) else ""
                texts.append(
                    t.rjust(widths[i]) if right_align and i in right_align else t.ljust(widths[i])
                )
            out.append(sep + sep.join(f" {t} " for t in texts) + sep)
        return out

    width = sum(widths) + 3 * len(widths) + 1
    lines = ["", title.center(width).rstrip().ljust(width)]
    lines.append(line("┏", "┳", "┓", "━"))
    lines += row(header, "┃")
    lines.append(line("┡", "╇", "┩", "━"))
    for r in rows:
        lines += row(r, "│")
        lines.append(line("├", "┼", "┤", "─"))
    lines += row(total, "│", right_align={3})
    lines.append(line("└", "┴", "┘", "─"))
    return "\n".join(lines)


def tabulate(
    module: Module,
    rngs: Any,
    depth: int | None = None,
    show_repeated: bool = False,
    mutable: Any = _INIT_MUTABLE,
    console_kwargs: Mapping[str, Any] | None = None,
    table_kwargs: Mapping[str, Any] = {},
    column_kwargs: Mapping[str, Any] = {},
    compute_flops: bool = False,
    compute_vjp_flops: bool = False,
    **kwargs: Any,
) -> Callable[..., str]:
    """A function of the module's inputs that returns Flax's summary table of an ``init`` run:
    one row per submodule (``depth`` limits the path length), its inputs, outputs and own
    variables by collection, and the totals. FLOP columns are not computed."""
    if compute_flops or compute_vjp_flops:
        raise NotImplementedError("tabulate: FLOP counts need XLA's cost analysis")

    def run(*args: Any, **call_kw: Any) -> str:
        rows = _module_rows(module, rngs, args, {**kwargs, **call_kw}, mutable)
        if depth is not None:
            rows = [r for r in rows if len(r.path) <= depth]
        cols = sorted(
            {c for r in rows for c in r.variables if any(r2.variables.get(c) for r2 in rows)}
        )
        header = ["path", "module", "inputs", "outputs", *cols]
        body = [
            [
                "/".join(r.path),
                type(r.module).__name__
                if r.method == "__call__"
                else f"{type(r.module).__name__}.{r.method}"[: 10**6],
                _shape_repr(r.inputs),
                _shape_repr(r.outputs),
                *(_vars_cell(r.variables.get(c, {})) for c in cols),
            ]
            for r in rows
        ]
        totals = []
        grand_n = grand_b = 0
        for c in cols:
            n, b = _size([r.variables.get(c, {}) for r in rows])
            grand_n, grand_b = grand_n + n, grand_b + b
            totals.append(f"{n:,} ({_bytes_repr(b)})")
        table = _draw(
            f"{type(module).__name__} Summary", header, body, ["", "", "", "Total", *totals]
        )
        width = len(table.split("\n")[2])
        footer = f"Total Parameters: {grand_n:,} ({_bytes_repr(grand_b)})"
        return f"{table}\n{' ' * width}\n{footer.center(width).rstrip()}\n\n"

    return run


def module_paths(
    module: Module,
    rngs: Any,
    *args: Any,
    show_repeated: bool = False,
    mutable: Any = _INIT_MUTABLE,
    **kwargs: Any,
) -> dict[str, Module]:
    """``{path: module}`` (unbound copies) of every module called by an ``init`` run."""
    return {"/".join(r.path): r.module for r in _module_rows(module, rngs, args, kwargs, mutable)}


_SUMMARY["tabulate"] = tabulate
_SUMMARY["module_paths"] = module_paths
