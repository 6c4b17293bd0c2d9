"""The layers of ``trellax/_src/`` (``docs/architecture.md``), checked from the source.

Every module is parsed with :mod:`ast` (nothing is imported). An import is an edge from the
importing module to the imported one; ``if TYPE_CHECKING:`` imports are annotations, not edges.
Each package sits on a floor (:data:`FLOORS`); an import may go to a lower floor, stay inside its
package, or go sideways to a package of the same floor listed in :data:`SIDEWAYS`. Anything else
is an upward import and fails, unless it is one of the few named in :data:`UPWARD` with its
reason. Imports made inside functions are counted and each must carry a comment saying why
(:data:`LOCAL_IMPORT_LIMIT`), and no circle of module-level imports may span more than
:data:`MAX_CIRCLE` modules. ``make lint`` runs this file; ``tools/import_graph.py`` prints the
same measurements in full.
"""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parent.parent

#: Package (or module) -> floor, bottom first. A module's floor is that of its longest prefix
#: here. Public modules (``trellax.numpy``...) only re-export, so each sits on the floor of what
#: it re-exports: ``trellax.numpy`` is the numpy namespace's face, ``trellax.lax`` re-exports
#: control flow and the collectives (floor 6).
FLOORS: dict[str, int] = {
    # 0: configuration and pytrees: nothing numeric
    "trellax._src.config": 0,
    "trellax._src.tree": 0,
    "trellax.tree_util": 0,
    "trellax.tree": 0,
    # 1: the promotion lattice and the dtypes
    "trellax._src.dtypes": 1,
    # 2: primitives, abstract values, traces, jaxprs, the abstract Array, errors
    "trellax._src.core": 2,
    "trellax.typing": 2,
    "trellax.errors": 2,
    # 3: NumPy kernels, ArrayImpl, eager evaluation
    "trellax._src.backend": 3,
    # 4: the primitives and their rules
    "trellax._src.lax": 4,
    "trellax.dtypes": 4,  # re-exports float0 (lax.ad_util) beside the dtypes
    # 5: the transformations as traces
    "trellax._src.interpreters": 5,
    # 6: the transformations users call
    "trellax._src.api": 6,
    "trellax.test_util": 6,
    "trellax.interpreters": 5,  # the rule tables of user primitives (interpreters/extending.py)
    "trellax.core": 6,  # re-exports core's Tracer/ShapedArray and api/core_names.py
    # 7: primitives that hold functions
    "trellax._src.control_flow": 7,
    "trellax._src.custom": 7,
    "trellax._src.checkpoint": 7,
    "trellax._src.callbacks": 7,
    "trellax._src.parallel": 7,
    "trellax.custom_derivatives": 7,
    "trellax.custom_batching": 7,
    "trellax.checkpoint_policies": 7,
    "trellax.ad_checkpoint": 7,
    "trellax.ad": 6,  # the markers of vjp's with_refs (api/grad_refs.py)
    "trellax.ref": 8,  # array references: indexing is the numpy namespace's
    "trellax.debug": 7,
    # 8: user namespaces
    "trellax._src.numpy": 8,
    "trellax._src.scipy": 8,
    "trellax._src.random": 8,
    "trellax._src.nn": 8,
    "trellax._src.optim": 8,
    "trellax._src.image": 8,
    "trellax._src.flax": 8,
    "trellax._src.dask": 8,
    "trellax._src.derived": 8,
    "trellax.numpy": 8,
    "trellax.lax": 8,  # re-exports random_gamma_grad from random
    "trellax.scipy": 8,
    "trellax.random": 8,
    "trellax.nn": 8,
    "trellax.optim": 8,
    "trellax.image": 8,
    "trellax.ops": 8,
    "trellax.flatten_util": 8,
    "trellax.dask": 8,
    "trellax.flax": 8,
    # 9: runtime helpers (devices, sharding, caches) and the reports behind the CLI
    "trellax._src.runtime": 9,
    "trellax._src.report": 9,
    "trellax.sharding": 9,
    "trellax.distributed": 9,
    "trellax.memory": 9,
    "trellax.profiler": 9,
    "trellax.dlpack": 8,
    "trellax.stages": 6,
    # JAX's reference libraries and experimental names, written with the namespaces (and, for
    # mesh_utils and shard_map, the runtime's devices and meshes)
    "trellax._src.example_libraries": 9,
    "trellax._src.experimental": 9,
    "trellax.example_libraries": 9,
    "trellax.experimental": 9,
    # 10: the public root, the command line and the drop-in runner
    "trellax": 10,
    "trellax.compat": 10,
    "trellax.extend": 10,  # extend.core.primitives names every primitive: imports all of trellax
    "trellax._src.compat": 10,
}

#: Imports between different packages of one floor: importer package -> the packages of its
#: floor it may import (a public face such as ``trellax.numpy`` counts as its own entry).
_NUMPY = ("trellax._src.numpy", "trellax.numpy", "trellax.lax")
SIDEWAYS: dict[str, tuple[str, ...]] = {
    # floor 7: custom rules are written with control flow's batching of jaxprs
    "trellax._src.custom": ("trellax._src.control_flow",),
    # floor 8: the namespaces are written with trellax.numpy, and some with each other
    "trellax._src.scipy": (*_NUMPY, "trellax._src.derived", "trellax.random"),
    "trellax._src.derived": (*_NUMPY, "trellax._src.scipy"),
    "trellax._src.nn": (*_NUMPY, "trellax._src.scipy", "trellax.random"),
    "trellax._src.random": _NUMPY,
    # losses; random for optax's perturbations, multi_normal and power_iteration; derived for
    # ravel_pytree (projections, second_order)
    "trellax._src.optim": (*_NUMPY, "trellax._src.nn", "trellax._src.scipy", "trellax._src.random",
                           "trellax._src.derived"),
    "trellax._src.image": _NUMPY,
    "trellax._src.flax": (*_NUMPY, "trellax._src.nn", "trellax.nn", "trellax._src.optim",
                          "trellax.optim", "trellax.random"),
    "trellax._src.dask": (*_NUMPY, "trellax._src.random", "trellax.random"),
    # floor 9: mesh_utils and shard_map use the runtime's devices and meshes
    "trellax._src.experimental": ("trellax._src.runtime",),
}  # fmt: skip

#: The upward imports that remain for good, (importer, imported) modules, each with its reason
#: (``docs/architecture.md`` lists them too). At most four.
UPWARD: dict[tuple[str, str], str] = {}

#: Every import inside a function needs a comment saying why it is lazy (an optional dependency,
#: a measured start-up cost, a circle of at most three modules that a table cannot replace).

#: Imports inside functions allowed in the whole tree. Issue 21's goal is 40; the number only
#: goes down (lower it when you remove some).
LOCAL_IMPORT_LIMIT = 5

#: No circle of imports (inside functions too) may span more than this many modules.
MAX_CIRCLE = 3


@dataclass(frozen=True)
class Import:
    """``source`` imports ``target`` at ``line`` (``local``: inside a function)."""

    source: str
    target: str
    line: int
    local: bool
    commented: bool


def _modules() -> dict[str, pathlib.Path]:
    out = {}
    for path in sorted((ROOT / "trellax").rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _resolve(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports_of(module: str, path: pathlib.Path) -> Iterator[Import]:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def commented(lineno: int) -> bool:
        """A comment on the line, or above the block of imports the line belongs to."""
        if "#" in lines[lineno - 1]:
            return True
        above = lineno - 2
        while above >= 0 and lines[above].strip().startswith(("from ", "import ")):
            above -= 1
        return above >= 0 and lines[above].strip().startswith("#")

    def targets(node: ast.Import | ast.ImportFrom) -> Iterator[str]:
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
            return
        if node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            prefix = ".".join(base + ([node.module] if node.module else []))
        else:
            prefix = node.module or ""
        for a in node.names:
            full = f"{prefix}.{a.name}"
            yield full if full in MODULES else prefix

    def visit(body: list[ast.stmt], local: bool) -> Iterator[Import]:
        for node in body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for name in targets(node):
                    target = _resolve(name)
                    if target is None:
                        continue
                    # Importing ``a.b.c`` runs ``a.b``'s ``__init__`` first (the root's aside).
                    parent = target.rpartition(".")[0]
                    if "." in parent and parent != "trellax._src" and not module.startswith(parent):
                        yield Import(module, parent, node.lineno, local, commented(node.lineno))
                    if target != module:
                        yield Import(module, target, node.lineno, local, commented(node.lineno))
            elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                yield from visit(node.orelse, local)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield from visit(node.body, True)
            else:
                for field in ("body", "orelse", "finalbody"):
                    sub = getattr(node, field, None)
                    if isinstance(sub, list):
                        yield from visit([s for s in sub if isinstance(s, ast.stmt)], local)
                for handler in getattr(node, "handlers", []):
                    yield from visit(handler.body, local)

    yield from visit(ast.parse(text, str(path)).body, False)


IMPORTS = [i for m, p in MODULES.items() for i in _imports_of(m, p)]


def _prefix(module: str, table: dict[str, int]) -> str | None:
    name = module
    while name and name != "trellax._src":  # a new package of _src has no floor until listed
        if name in table:
            return name
        name = name.rpartition(".")[0]
    return None


def _allowed(source: str, target: str) -> bool:
    a, b = _prefix(source, FLOORS), _prefix(target, FLOORS)
    if b is None:  # the empty namespace package ``trellax._src``
        return True
    assert a is not None
    if a == b or FLOORS[b] < FLOORS[a]:
        return True
    if not a.startswith("trellax._src.") and FLOORS[b] == FLOORS[a]:
        return True  # a public module re-exports its own floor
    if FLOORS[b] == FLOORS[a] and b in SIDEWAYS.get(a, ()):
        return True
    return any(
        s == source and (t == target or t.startswith(target + "."))  # or the package's __init__
        for s, t in UPWARD
    )


def test_every_module_has_a_floor() -> None:
    missing = [m for m in MODULES if _prefix(m, FLOORS) is None and m != "trellax._src"]
    assert missing == [], f"give these a floor in FLOORS (docs/architecture.md): {missing}"


def test_imports_point_downward() -> None:
    bad = sorted(
        f"{i.source}:{i.line} imports {i.target}{' (inside a function)' if i.local else ''}"
        for i in IMPORTS
        if not _allowed(i.source, i.target)
    )
    assert bad == [], "imports that go up or sideways (see docs/architecture.md):\n" + "\n".join(
        bad
    )


def test_at_most_four_named_upward_imports() -> None:
    assert len(UPWARD) <= 4
    for (source, target), reason in UPWARD.items():
        assert reason, (source, target)
    for source, target in UPWARD:
        assert any(i.source == source and i.target == target for i in IMPORTS), (
            f"{source} no longer imports {target}: strike it from the lists of this test"
        )


def _circles(edges: set[tuple[str, str]]) -> list[list[str]]:
    graph: dict[str, list[str]] = {}
    for a, b in sorted(edges):
        graph.setdefault(a, []).append(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def connect(node: str) -> None:  # recursion depth is bounded by the chain length (< 300)
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, []):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return out


def test_no_import_circle_over_three_modules() -> None:
    """No circle of module-level imports at all; counting the imports inside functions too, no
    circle of more than :data:`MAX_CIRCLE` modules."""
    assert _circles({(i.source, i.target) for i in IMPORTS if not i.local}) == []
    edges = {(i.source, i.target) for i in IMPORTS}
    big = [c for c in _circles(edges) if len(c) > MAX_CIRCLE]
    assert big == [], f"import circles: {big}"


def test_imports_inside_functions_are_few_and_explained() -> None:
    local = {(i.source, i.line): i for i in IMPORTS if i.local}
    assert len(local) <= LOCAL_IMPORT_LIMIT, (
        f"{len(local)} imports inside functions (limit {LOCAL_IMPORT_LIMIT}): import at the top "
        "of the module, or register a hook in the lower layer"
    )
    silent = sorted(f"{i.source}:{i.line}" for i in local.values() if not i.commented)
    assert silent == [], f"imports inside functions without a comment saying why: {silent}"


def test_no_module_over_1000_lines() -> None:
    big = {
        m: n
        for m, p in MODULES.items()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > 1000
    }
    assert big == {}, big


_REGISTRATIONS = """
import importlib, pkgutil, sys
import trellax
import trellax._src
from trellax._src.core import core

def rules():
    return {
        name: tuple(
            getattr(p, rule, None) is not None
            for rule in ("impl", "abstract_eval_rule", "jvp_rule", "transpose_rule", "batch_rule")
        )
        for name, p in core.primitives().items()
    }

before = rules()
for m in pkgutil.walk_packages(trellax._src.__path__, "trellax._src."):
    importlib.import_module(m.name)
after = rules()
print(sorted(n for n in after if before.get(n) != after[n]))
"""


def test_importing_trellax_registers_every_rule() -> None:
    """Rules registered as a side effect of importing a module (a batch-rule table, a package's
    ``__init__``) must load with ``import trellax`` alone. Checked in a fresh interpreter:
    ``tests/test_lax.py`` imports every module, which would hide a missing registration."""
    out = subprocess.run(
        [sys.executable, "-c", _REGISTRATIONS],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout
    assert out.strip() == "[]", f"rules only registered when their module is imported: {out}"
