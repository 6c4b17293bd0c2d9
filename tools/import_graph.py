"""Measures trellax's import structure: circles, imports inside functions, upward imports.

Parses every module of ``trellax/`` with :mod:`ast` (nothing is imported or run) and prints

* the strongly connected components of the module-level import graph (an import circle: modules
  that cannot be loaded one after another in any order), and of the graph that also counts the
  imports made inside functions (what the function-level imports hold together);
* every import inside a function (``--list-local``), with the comment line above it if any;
* the imports against the layers (upward, or sideways between packages of one floor without
  leave), by the rule and floor table of ``tests/test_layers.py`` (the test ``make lint`` runs);
* the largest modules and the longest functions.

Run ``python tools/import_graph.py`` from the repository root (``--help`` for options). Imports
guarded by ``if TYPE_CHECKING:`` are annotations only and are not edges.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import pathlib
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Edge:
    """One import: ``source`` imports ``target`` at ``line``; ``local`` if inside a function."""

    source: str
    target: str
    line: int
    local: bool
    comment: str


def module_name(path: pathlib.Path, root: pathlib.Path) -> str:
    """The dotted name of the module at ``path`` (a package's ``__init__`` is the package)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def find_modules(root: pathlib.Path, package: str = "trellax") -> dict[str, pathlib.Path]:
    """Every module of ``package`` under ``root``, by dotted name."""
    return {module_name(p, root): p for p in sorted((root / package).rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _resolve(name: str, modules: Mapping[str, object]) -> str | None:
    """The longest prefix of ``name`` that is a module of the tree (None: outside the tree)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def _package_of(module: str, path: pathlib.Path) -> str:
    return module if path.name == "__init__.py" else module.rpartition(".")[0]


def module_edges(
    module: str, path: pathlib.Path, modules: Mapping[str, pathlib.Path]
) -> list[Edge]:
    """The imports of one module into the tree, with their line and whether they are local."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source, str(path))
    edges: list[Edge] = []

    def comment_above(lineno: int) -> str:
        text = lines[lineno - 1]
        if "#" in text:
            return text[text.index("#") :].strip()
        previous = lines[lineno - 2].strip() if lineno >= 2 else ""
        return previous if previous.startswith("#") else ""

    def add(target: str, node: ast.stmt, local: bool) -> None:
        resolved = _resolve(target, modules)
        if resolved is None:
            return
        # Importing ``a.b.c`` runs the ``__init__`` of ``a.b`` first (the root package's is left
        # out: every module would be in its circle).
        parent = resolved.rpartition(".")[0]
        if "." in parent and parent != "trellax._src" and not module.startswith(parent):
            add(parent, node, local)
        if resolved != module:
            edges.append(Edge(module, resolved, node.lineno, local, comment_above(node.lineno)))

    def visit(body: Iterable[ast.stmt], local: bool) -> None:
        for node in body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    add(alias.name, node, local)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = _package_of(module, path).split(".")
                    base = base[: len(base) - node.level + 1]
                    prefix = ".".join(base + ([node.module] if node.module else []))
                else:
                    prefix = node.module or ""
                for alias in node.names:
                    full = f"{prefix}.{alias.name}"
                    add(full if full in modules else prefix, node, local)
            elif isinstance(node, ast.If) and _is_type_checking(node.test):
                visit(node.orelse, local)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(node.body, True)
            elif isinstance(node, ast.ClassDef):
                visit(node.body, local)
            else:
                for field in ("body", "orelse", "finalbody"):
                    sub = getattr(node, field, None)
                    if isinstance(sub, list):
                        visit([s for s in sub if isinstance(s, ast.stmt)], local)
                for handler in getattr(node, "handlers", []):
                    visit(handler.body, local)
                for case in getattr(node, "cases", []):
                    visit(case.body, local)

    visit(tree.body, False)
    return edges


def all_edges(root: pathlib.Path = ROOT) -> tuple[dict[str, pathlib.Path], list[Edge]]:
    """Every module of ``trellax`` and every import between them."""
    modules = find_modules(root)
    edges: list[Edge] = []
    for name, path in modules.items():
        edges.extend(module_edges(name, path, modules))
    return modules, edges


def strongly_connected(nodes: Iterable[str], edges: Iterable[tuple[str, str]]) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one node, largest first."""
    graph: dict[str, set[str]] = {n: set() for n in nodes}
    for a, b in edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, sorted(graph[start]))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph[nxt])))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(sorted(component))
    return sorted(out, key=lambda c: (-len(c), c))


def long_functions(path: pathlib.Path, limit: int) -> list[tuple[str, int]]:
    """``(qualified name, lines)`` of the functions of a file longer than ``limit`` lines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[tuple[str, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    size = (child.end_lineno or child.lineno) - child.lineno + 1
                    if size > limit:
                        out.append((name, size))
                visit(child, name + ".")

    visit(tree, "")
    return out


def load_layers(root: pathlib.Path = ROOT) -> Any:
    """``tests/test_layers.py`` as a module: its floor table and its ``_allowed`` rule."""
    spec = importlib.util.spec_from_file_location("_layers", root / "tests" / "test_layers.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list-local", action="store_true", help="list imports inside functions")
    parser.add_argument("--list-upward", action="store_true", help="list imports against layers")
    parser.add_argument("--circles", action="store_true", help="list the members of each circle")
    parser.add_argument("--no-floors", action="store_true", help="skip the floor table")
    parser.add_argument("--top", type=int, default=10, help="largest modules to show")
    args = parser.parse_args(argv)

    modules, edges = all_edges()
    names = list(modules)
    top = [e for e in edges if not e.local]
    local = [e for e in edges if e.local]
    circles = strongly_connected(names, [(e.source, e.target) for e in top])
    held = strongly_connected(names, [(e.source, e.target) for e in edges])
    print(f"modules: {len(modules)}; imports into the tree: {len(edges)}")
    print(f"module-level circles: {[len(c) for c in circles]}")
    print(f"circles counting imports inside functions: {[len(c) for c in held]}")
    print(f"imports inside functions: {len({(e.source, e.line) for e in local})}")
    if args.circles:
        for title, comps in (("module-level", circles), ("with local imports", held)):
            for c in comps:
                print(f"  {title} circle of {len(c)}: {' '.join(c)}")
    if args.list_local:
        seen: set[tuple[str, int]] = set()
        for e in local:
            if (e.source, e.line) in seen:
                continue
            seen.add((e.source, e.line))
            print(f"  {e.source}:{e.line} -> {e.target}  {e.comment}")
    if not args.no_floors:
        layers = load_layers()
        up = [e for e in edges if not layers._allowed(e.source, e.target)]
        print(
            f"imports against the layers: {len({(e.source, e.line) for e in up})} "
            f"(+ {len(layers.UPWARD)} allowed for good in UPWARD)"
        )
        if args.list_upward:
            seen_up: set[tuple[str, int]] = set()
            for e in up:
                if (e.source, e.line) not in seen_up:
                    seen_up.add((e.source, e.line))
                    kind = "local" if e.local else "module"
                    print(f"  {e.source}:{e.line} -> {e.target} ({kind})")
    sizes = sorted(
        ((len(p.read_text(encoding="utf-8").splitlines()), n) for n, p in modules.items()),
        reverse=True,
    )
    print("largest modules:", ", ".join(f"{n} {s}" for s, n in sizes[: args.top]))
    longs = [(n, f, s) for n, p in modules.items() for f, s in long_functions(p, 100)]
    print(f"functions over 100 lines: {len(longs)}")
    for n, f, s in sorted(longs, key=lambda t: -t[2]):
        print(f"  {n}.{f}: {s}")


if __name__ == "__main__":
    sys.exit(main())
