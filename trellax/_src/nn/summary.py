"""``Module.tabulate``/``nn.tabulate`` and ``Module.module_paths``: one row per module call of
an ``init`` run traced abstractly (path, class and method, inputs and outputs as shapes, the
FLOPs of the call and of its VJP when asked, the module's own variables by collection with their
counts and bytes), drawn as Flax's table (``summary_render``: plain text, no rich)."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from trellax import tree_util
from trellax._src.api.api import eval_shape
from trellax._src.api.autodiff import vjp as _vjp
from trellax._src.api.leaves import ShapeDtypeStruct
from trellax._src.nn import partitioning as meta
from trellax._src.nn.flops import count_flops
from trellax._src.nn.module import _INIT_MUTABLE, _SUMMARY, Module, intercept_methods
from trellax._src.nn.summary_render import as_yaml, draw_table


class _ValueRepresentation:
    """A value as the table shows it."""

    def render(self) -> str:
        raise NotImplementedError


@dataclasses.dataclass
class _ArrayRepresentation(_ValueRepresentation):
    shape: tuple[int, ...]
    dtype: Any

    @classmethod
    def from_array(cls, x: Any) -> _ArrayRepresentation:
        return cls(tuple(int(d) for d in x.shape), np.dtype(x.dtype))

    def render(self) -> str:
        return f"[dim]{self.dtype}[/dim][{','.join(str(d) for d in self.shape)}]"


@dataclasses.dataclass
class _PartitionedArrayRepresentation(_ValueRepresentation):
    array_representation: _ArrayRepresentation
    names: Any

    def render(self) -> str:
        return self.array_representation.render() + f" [dim]P[/dim]{self.names}"


@dataclasses.dataclass
class _ObjectRepresentation(_ValueRepresentation):
    obj: Any

    def render(self) -> str:
        return repr(self.obj)


def _represent(x: Any) -> _ValueRepresentation:
    if isinstance(x, int | float | bool | type(None)):
        return _ObjectRepresentation(x)
    if isinstance(x, meta.Partitioned):
        return _PartitionedArrayRepresentation(_ArrayRepresentation.from_array(x.value), x.names)
    if hasattr(x, "shape") and hasattr(x, "dtype") and not isinstance(x, np.generic):
        return _ArrayRepresentation.from_array(x)
    return _ObjectRepresentation(x)


def _represent_tree(x: Any) -> Any:
    return tree_util.tree_map(
        _represent, x, is_leaf=lambda v: v is None or isinstance(v, meta.Partitioned)
    )


def _abstract(x: Any) -> Any:
    """The value a recorded input stands for when a call is traced again."""
    if isinstance(x, _ArrayRepresentation):
        return ShapeDtypeStruct(x.shape, x.dtype)
    if isinstance(x, _PartitionedArrayRepresentation):
        a = x.array_representation
        return ShapeDtypeStruct(a.shape, a.dtype)
    if isinstance(x, _ObjectRepresentation):
        return x.obj
    return x


@dataclasses.dataclass
class Row:
    """One module call of the table: ``path``, an unbound ``module_copy``, the ``method``'s
    name, ``inputs``/``outputs`` (trees of value representations), the module's own variables
    (``module_variables``), the variables its size columns count (``counted_variables``: the
    whole subtree at the ``depth`` limit), and the FLOPs of the call and of its VJP (``-1`` when
    not computed)."""

    path: tuple[str, ...]
    module_copy: Module
    method: str
    inputs: Any
    outputs: Any
    module_variables: dict[str, Any]
    counted_variables: dict[str, Any]
    flops: int
    vjp_flops: int

    def size_and_bytes(self, collections: Iterable[str]) -> dict[str, tuple[int, int]]:
        """``{collection: (element count, bytes)}`` of the counted variables."""
        return {
            c: _size_and_bytes(self.counted_variables[c]) if c in self.counted_variables else (0, 0)
            for c in collections
        }


class Table(list[Row]):
    """The rows of a summary, with the summarised ``module`` and the variable ``collections``."""

    def __init__(self, module: Module, collections: Sequence[str], rows: Iterable[Row]):
        super().__init__(rows)
        self.module = module
        self.collections = collections


@dataclasses.dataclass
class _Call:
    index: int
    path: tuple[str, ...]
    module: Module
    method: str
    args: Any
    kwargs: Any
    outputs: Any = None


def _record_calls(module: Module, args: Any, kwargs: Any) -> tuple[Any, list[_Call]]:
    calls: list[_Call] = []

    def interceptor(next_fun: Callable[..., Any], a: Any, k: Any, context: Any) -> Any:
        mdl = context.module
        if context.method_name == "setup" or mdl.scope is None:
            return next_fun(*a, **k)
        call = _Call(len(calls), mdl.path, mdl.clone(parent=None), context.method_name, a, k)
        calls.append(call)
        call.args, call.kwargs = _represent_tree(a), _represent_tree(dict(k))
        out = next_fun(*a, **k)
        call.outputs = _represent_tree(out)
        return out

    def init() -> Any:
        with intercept_methods(interceptor):
            return module.init(*args, **kwargs)

    variables = eval_shape(init)
    calls.sort(key=lambda c: c.index)
    return variables, calls


def _path_variables(path: tuple[str, ...], variables: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for col, tree in variables.items():
        node: Any = tree
        for name in path:
            if not isinstance(node, Mapping) or name not in node:
                node = None
                break
            node = node[name]
        if node is not None:
            out[col] = dict(node) if isinstance(node, Mapping) else node
    return out


def _own_variables(
    path: tuple[str, ...], variables: Mapping[str, Any], paths: set[tuple[str, ...]]
) -> dict[str, Any]:
    own = _path_variables(path, variables)
    return {
        col: {k: v for k, v in tree.items() if (*path, k) not in paths}
        if isinstance(tree, Mapping)
        else tree
        for col, tree in own.items()
    }


def _call_flops(c: _Call, rngs: Any, mutable: Any, fwd: bool, bwd: bool) -> tuple[int, int]:
    if not fwd and not bwd:
        return -1, -1
    rngs = rngs if isinstance(rngs, Mapping) else {"params": rngs}
    leaves, treedef = tree_util.tree_flatten((c.args, c.kwargs))
    leaves = [_abstract(v) for v in leaves]
    dyn = [i for i, v in enumerate(leaves) if isinstance(v, ShapeDtypeStruct)]

    def inputs(values: Sequence[Any]) -> Any:
        new = list(leaves)
        for i, v in zip(dyn, values, strict=True):
            new[i] = v
        return tree_util.tree_unflatten(treedef, new)

    def init(r: Any, values: Sequence[Any]) -> Any:
        a, k = inputs(values)
        return c.module.init(r, *a, method=c.method, mutable=mutable, **k)

    def apply(variables: Any, r: Any, values: Sequence[Any]) -> Any:
        a, k = inputs(values)
        return c.module.apply(variables, *a, rngs=r, method=c.method, mutable=mutable, **k)

    def apply_vjp(variables: Any, r: Any, values: Sequence[Any]) -> Any:
        out, back = _vjp(apply, variables, r, values)
        return back(out)

    dyn_values = [leaves[i] for i in dyn]
    variables = eval_shape(init, rngs, dyn_values)
    flops = count_flops(apply, variables, rngs, dyn_values) if fwd else -1
    vjp_flops = -1
    if bwd:
        try:
            vjp_flops = count_flops(apply_vjp, variables, rngs, dyn_values)
        except (TypeError, ValueError):  # not differentiable: Flax reports 0 as well
            vjp_flops = 0
    return flops, vjp_flops


def _process_inputs(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    if args and kwargs:
        return (*args, kwargs)
    if args:
        return args[0] if len(args) == 1 else args
    return kwargs if kwargs else ()


def _get_module_table(
    module: Module,
    depth: int | None,
    show_repeated: bool,
    compute_flops: bool,
    compute_vjp_flops: bool,
) -> Callable[..., Table]:
    """A function with ``init``'s signature that returns the summary's rows (a ``Table``)."""

    def table_fn(*args: Any, **kwargs: Any) -> Table:
        variables, calls = _record_calls(module, args, kwargs)
        rngs = args[0] if args else kwargs.get("rngs", {})
        mutable = kwargs.get("mutable", _INIT_MUTABLE)
        paths = {c.path for c in calls}
        visited: set[tuple[str, ...]] = set()
        rows = []
        for c in calls:
            if c.path in visited or not hasattr(c.module, c.method):
                if not show_repeated:
                    continue
                own: dict[str, Any] = {}
                counted: dict[str, Any] = {}
            else:
                if depth is not None and len(c.path) > depth:
                    continue
                own = _own_variables(c.path, variables, paths)
                at_limit = depth is not None and len(c.path) == depth
                counted = _path_variables(c.path, variables) if at_limit else own
            visited.add(c.path)
            flops = _call_flops(c, rngs, mutable, compute_flops, compute_vjp_flops)
            inputs = _process_inputs(tuple(c.args), c.kwargs)
            rows.append(Row(c.path, c.module, c.method, inputs, c.outputs, own, counted, *flops))
        cols = sorted(variables.keys(), key=lambda c: (c != "params", c))  # params first
        return Table(module, tuple(cols), rows)

    return table_fn


def _size_and_bytes(tree: Any) -> tuple[int, int]:
    leaves = [v for v in tree_util.tree_leaves(tree) if hasattr(v, "size")]
    size = sum(int(v.size) for v in leaves)
    return size, sum(int(v.size) * np.dtype(v.dtype).itemsize for v in leaves)


def _bytes_repr(n: int) -> str:
    for scale, unit in ((1e9, "GB"), (1e6, "MB"), (1e3, "KB")):
        if n > scale:
            return f"{n / scale:,.1f} {unit}"
    return f"{n:,} B"


def _size_and_bytes_repr(size: int, num_bytes: int) -> str:
    return f"{size:,} [dim]({_bytes_repr(num_bytes)})[/dim]" if size else ""


def _normalize(obj: Any) -> Any:
    if isinstance(obj, _ValueRepresentation):
        return obj
    if isinstance(obj, tuple | list):
        return tuple(_normalize(v) for v in obj)
    if isinstance(obj, Mapping):
        return {_normalize(k): _normalize(v) for k, v in obj.items()}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: _normalize(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, enum.Enum):
        return obj.value
    return obj


def _rendered(tree: Any) -> str:
    def render(x: Any) -> str:
        return x.render() if isinstance(x, _ValueRepresentation) else repr(x)

    def walk(x: Any) -> Any:
        if isinstance(x, Mapping):
            return {k: walk(v) for k, v in x.items()}
        if isinstance(x, tuple):
            return tuple(walk(v) for v in x)
        return render(x)

    return as_yaml(walk(_normalize(tree)))


def _collection_cell(row: Row, col: str, size: tuple[int, int]) -> str:
    text = ""
    if col in row.module_variables:
        text = _rendered(_represent_tree(row.module_variables[col]))
        if text:
            text += "\n\n"
    return text + f"[bold]{_size_and_bytes_repr(*size)}[/bold]"


def render_table(table: Table, extra_cols: Sequence[str], ansi: bool) -> str:
    """The text of ``table`` (Flax's layout); ``extra_cols`` are ``flops``/``vjp_flops``."""
    cols = ["path", "module", "inputs", "outputs", *extra_cols]
    body = []
    totals = dict.fromkeys(table.collections, (0, 0))
    for row in table:
        sizes = row.size_and_bytes(table.collections)
        for c, (n, b) in sizes.items():
            totals[c] = (totals[c][0] + n, totals[c][1] + b)
        method = "" if row.method in ("__call__", "<lambda>") else f" [dim]({row.method})[/dim]"
        body.append(
            [
                "/".join(row.path),
                type(row.module_copy).__name__ + method,
                *(_rendered(getattr(row, c)) for c in cols[2:]),
                *(_collection_cell(row, c, sizes[c]) for c in table.collections),
            ]
        )
    footer = [""] * (len(cols) - 1) + ["Total"]
    footer += [_size_and_bytes_repr(*totals[c]) for c in table.collections]
    grand = (sum(n for n, _ in totals.values()), sum(b for _, b in totals.values()))
    caption = f"\n[bold]Total Parameters: {_size_and_bytes_repr(*grand)}[/bold]"
    title = f"{type(table.module).__name__} Summary"
    header = [*cols, *table.collections]
    return "\n" + draw_table(title, header, body, footer, len(cols) - 1, caption, ansi) + "\n"


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
    """A function of the module's inputs that returns Flax's summary table of an ``init`` run
    (traced abstractly: nothing is computed): one row per module call (``depth`` limits the
    path length, deeper variables are counted in the row at the limit; ``show_repeated`` shows
    every call of a shared module), its inputs, outputs and own variables by collection, the
    totals, and with ``compute_flops``/``compute_vjp_flops`` the FLOPs of each call and of its
    VJP (``trellax._src.nn.flops``: XLA's cost-analysis conventions). ``console_kwargs``'
    ``force_terminal`` (default true) chooses ANSI styles or plain text; ``table_kwargs`` and
    ``column_kwargs`` (rich options) are accepted and ignored."""
    console = {"force_terminal": True, **(console_kwargs or {})}
    ansi = bool(console.get("force_terminal"))

    def run(*args: Any, **call_kw: Any) -> str:
        table = _get_module_table(module, depth, show_repeated, compute_flops, compute_vjp_flops)(
            rngs, *args, mutable=mutable, **{**kwargs, **call_kw}
        )
        extra = [c for c, on in (("flops", compute_flops), ("vjp_flops", compute_vjp_flops)) if on]
        return render_table(table, extra, ansi)

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
    table = _get_module_table(module, None, show_repeated, False, False)(
        rngs, *args, mutable=mutable, **kwargs
    )
    return {"/".join(r.path): r.module_copy for r in table}


_SUMMARY["tabulate"] = tabulate
_SUMMARY["module_paths"] = module_paths
