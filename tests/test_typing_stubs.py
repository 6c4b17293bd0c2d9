"""The static view of ``trellax.Array`` matches the run-time one, and the typing snippets run.

``Array``'s operators and methods are installed at import by ``trellax._src.numpy.array_methods``
(so concrete arrays and tracers share them) and declared for type checkers in a ``TYPE_CHECKING``
block of ``trellax/_src/core/basearray.py``. Nothing ties the two together but this test: every
declared method must exist at run time with the declared parameters, and every installed one
must be declared. ``tests/typing/check_*.py`` (checked by mypy and pyright in ``make typecheck``)
must also run, so that what they assert type-checks is also what happens.
"""

from __future__ import annotations

import ast
import inspect
import runpy
import warnings
from pathlib import Path

import pytest

import trellax.numpy  # noqa: F401  (installs the operators and methods)
from trellax import Array
from trellax._src.backend.array import ArrayImpl
from trellax._src.core import basearray
from trellax._src.interpreters.tracing import Tracer

TYPING_DIR = Path(__file__).resolve().parent / "typing"


def _declared() -> tuple[dict[str, ast.FunctionDef], set[str]]:
    """(the stubs in Array's TYPE_CHECKING block, the names defined in the class body proper)."""
    tree = ast.parse(inspect.getsource(basearray))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Array")
    stubs: dict[str, ast.FunctionDef] = {}
    body: set[str] = set()
    for node in cls.body:
        if isinstance(node, ast.If):  # if TYPE_CHECKING:
            stubs.update({f.name: f for f in node.body if isinstance(f, ast.FunctionDef)})
        elif isinstance(node, ast.FunctionDef):
            body.add(node.name)
        elif isinstance(node, ast.Assign):
            body.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return stubs, body


STUBS, BODY = _declared()


def _is_property(f: ast.FunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "property" for d in f.decorator_list)


def test_the_stub_block_was_found() -> None:
    assert {"__add__", "__getitem__", "astype", "at"} <= set(STUBS)


@pytest.mark.parametrize("name", sorted(STUBS))
def test_declared_method_exists_at_run_time(name: str) -> None:
    stub = STUBS[name]
    installed = vars(Array).get(name)
    if installed is None:
        # defined by each concrete class instead (item, tolist, __bool__, __len__...)
        for cls in (ArrayImpl, Tracer):
            assert hasattr(cls, name), f"{name} is declared on Array but {cls.__name__} lacks it"
        return
    assert _is_property(stub) == isinstance(installed, property), (
        f"{name}: declared {'a property' if _is_property(stub) else 'a method'}, installed "
        f"{'a property' if isinstance(installed, property) else 'a method'}"
    )
    if _is_property(stub):
        return
    runtime = list(inspect.signature(installed).parameters.values())[1:]
    args = stub.args
    declared_positional = [a.arg for a in (args.posonlyargs + args.args)[1:]]
    if name.startswith("__"):  # dunders are called positionally; only the arity matters
        positional = [p for p in runtime if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        assert len(positional) >= len(declared_positional), (name, declared_positional, runtime)
        return
    by_name = {p.name: p for p in runtime}
    for a in declared_positional + [a.arg for a in args.kwonlyargs]:
        assert a in by_name, f"Array.{name}: declared parameter {a!r} does not exist at run time"
    runtime_positional = [p.name for p in runtime if p.kind is not p.KEYWORD_ONLY][
        : len(declared_positional)
    ]
    assert runtime_positional == declared_positional, (name, declared_positional, runtime)
    if args.vararg is not None:
        assert any(p.kind is p.VAR_POSITIONAL for p in runtime), name


def test_every_installed_method_is_declared() -> None:
    ignored = {"__module__", "__doc__", "__abstractmethods__", "_abc_impl", "__weakref__"}
    installed = {n for n in vars(Array) if n not in ignored and not n.startswith("__static")}
    installed -= {"__firstlineno__", "__qualname__"}
    undeclared = sorted(installed - set(STUBS) - BODY)
    assert not undeclared, (
        f"installed on trellax.Array at run time but not declared for type checkers in "
        f"basearray.py: {undeclared}"
    )


@pytest.mark.parametrize("path", sorted(TYPING_DIR.glob("check_*.py")), ids=lambda p: p.name)
def test_typing_snippet_runs(path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        runpy.run_path(str(path), run_name="typing_snippet")
