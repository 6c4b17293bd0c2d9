"""Rewrites old private module paths of ``trellax._src`` to the layer packages (issue 21).

The modules of the flat ``trellax/_src/`` root moved into packages named for their floor
(``docs/architecture.md``). Code written against the old paths (a branch started before the move)
is brought up to date with::

    python tools/rewrite_imports.py FILE_OR_DIR ...     # rewrite in place
    python tools/rewrite_imports.py --check FILE ...    # list files that still use old paths

It rewrites ``from trellax._src import old`` (to ``from trellax._src.pkg import new as old``, so
the local name stays), dotted paths ``trellax._src.old`` anywhere in the text (imports, strings,
docstrings), and file paths ``_src/old.py`` in prose. ``--move`` also performs the moves with
``git mv`` (done once, in the commit that introduced this script). Run
``ruff check --fix`` and ``ruff format`` afterwards to sort the rewritten imports.

A dotted path that names an existing module is left alone, so the script can run again over
merged code; a bare package name that equals an old module name (``trellax._src.config`` written
for the *package*) is read as the old module, which is why ``tests/test_layers.py`` (which names
packages) is skipped. Strings that build module names (``f"trellax._src.{name}"``) are not seen.
"""

from __future__ import annotations

import argparse
import ast
import pathlib
import re
import subprocess
import sys

#: old module (relative to ``trellax._src``) -> new module. Applied in one pass, so a new path
#: that starts with an old name (``api`` -> ``api.api``) is never rewritten twice.
MOVES: dict[str, str] = {
    # floor 0: configuration and pytrees (nothing numeric)
    "config": "config.settings",
    "config_flags": "config.flags",
    "jax_flags": "config.jax_flags",
    "tree_codegen": "tree.codegen",
    "tree_def": "tree.treedef",
    "tree_errors": "tree.errors",
    "tree_flatten": "tree.flatten",
    "tree_keys": "tree.keys",
    "tree_registry": "tree.registry",
    "tree_util": "tree.tree_util",
    # floor 1: dtypes
    "lattice": "dtypes.lattice",
    "dtypes": "dtypes.dtypes",
    # floor 2: core
    "core": "core.core",
    "basearray": "core.basearray",
    "jaxpr": "core.jaxpr",
    "typing": "core.typing",
    "errors": "core.errors",
    "jax_errors": "core.jax_errors",
    # floor 3: backend
    "array": "backend.array",
    "eager": "backend.eager",
    "fp_errors": "backend.fp_errors",
    # floor 4: lax
    "ad_util": "lax.ad_util",
    "lax_tree_ops": "lax.tree_ops",
    "lax.special_more": "lax.special_integrals",
    # floor 5: interpreters
    "call_jaxpr": "interpreters.call_jaxpr",
    "op_by_op": "interpreters.op_by_op",
    # floor 6: primitives that hold functions
    "control_flow_batch": "control_flow.batching",
    "custom_derivatives": "custom.derivatives",
    "custom_batching": "custom.derivatives",
    "custom.derivatives_vmap": "custom.derivatives",
    "custom_vmap": "custom.vmap",
    "custom_gradient": "custom.gradient",
    "custom_root": "custom.root",
    "linear_solve": "custom.linear_solve",
    "checkpoint": "checkpoint.rematerialize",
    "checkpoint_ad": "checkpoint.rematerialize",
    "checkpoint.remat_ad": "checkpoint.rematerialize",
    "checkpoint_policies": "checkpoint.policies",
    "callbacks": "callbacks.callbacks",
    "debugging": "callbacks.debugging",
    "parallel": "parallel.collectives",
    # floor 7: the transformations' entry points
    "api": "api.api",
    "vmap_api": "api.vmap",
    "ad_api": "api.autodiff",
    "ad_jacobians": "api.jacobians",
    "ad_linear": "api.linear_transpose",
    "ad_fwd_bwd": "api.fwd_bwd",
    "stages": "api.stages",
    "jit_options": "api.jit_options",
    "explain": "api.explain",
    "test_util": "api.test_util",
    # floor 8: user namespaces
    "scipy.special_more": "scipy.special_integrals",
    "scipy.linalg_more": "scipy.linalg_derived",
    # floor 8: lax and collective functions written with trellax.numpy
    "lax_linalg_more": "derived.lax_linalg",
    "lax_more_ops": "derived.lax_ops",
    "parallel_more": "derived.collectives",
    # (their first homes, for code merged in between)
    "lax.linalg_composite": "derived.lax_linalg",
    "lax.composite_ops": "derived.lax_ops",
    "parallel.exchange": "derived.collectives",
    # floor 9: runtime helpers
    "runtime": "runtime.device",
    "runtime_caches": "runtime.caches",
    "sharding": "runtime.sharding",
}

#: Names that moved to another module than the rest of theirs: (new module, name) -> module.
NAME_MOVES: dict[tuple[str, str], str] = {
    ("custom.derivatives", "stop_gradient"): "lax.stop_gradient",
    ("custom.derivatives", "stop_gradient_p"): "lax.stop_gradient",
    ("runtime.device", "Device"): "core.devices",
    ("runtime.device", "CPU"): "core.devices",
    ("runtime.sharding", "Sharding"): "core.devices",
    ("runtime.sharding", "check_single_device"): "core.devices",
}

_NAMES = sorted(MOVES, key=len, reverse=True)
_SRC = pathlib.Path(__file__).resolve().parent.parent / "trellax" / "_src"
#: Modules that exist now (``core.devices``...): a dotted path naming one is not an old path.
_NEW = set(MOVES.values()) | {
    ".".join(
        p.relative_to(_SRC).with_suffix("").parts[:-1]
        if p.name == "__init__.py"
        else p.relative_to(_SRC).with_suffix("").parts
    )
    for p in _SRC.rglob("*.py")
}
#: Files that name the new packages on purpose (``trellax._src.config`` is a package there).
_SKIP = {"test_layers.py", "rewrite_imports.py", "import_graph.py"}
_DOTTED = re.compile(
    r"\btrellax\._src\.("
    + "|".join(re.escape(n) for n in _NAMES)
    + r")(?![\w])(\.\w+)?(?=\s+import\s+\(?\s*(\w+))?"
)
_PATHS = re.compile(
    r"(?<![\w/])((?:trellax/)?_src/)?("
    + "|".join(re.escape(n.replace(".", "/")) for n in _NAMES)
    + r")\.py\b"
)


def _split(new: str) -> tuple[str, str]:
    package, _, leaf = new.rpartition(".")
    return package, leaf


def _dotted(match: re.Match[str]) -> str:
    old, attribute = match.group(1), match.group(2) or ""
    if attribute and f"{old}{attribute}" in _NEW:
        return match.group(0)  # already a new path (``trellax._src.config.settings``)
    if not attribute and f"{old}.{match.group(3)}" in _NEW:
        return match.group(0)  # ``from trellax._src.config import settings``: new already
    return f"trellax._src.{MOVES[old]}{attribute}"


def _path(match: re.Match[str]) -> str:
    prefix, old = match.group(1), match.group(2)
    if prefix is None and "/" not in old:
        return match.group(0)  # a bare ``api.py``: too ambiguous to rewrite
    return (prefix or "") + MOVES[old.replace("/", ".")].replace(".", "/") + ".py"


def _rewrite_from(text: str) -> str:
    """``from trellax._src[.pkg] import a, b as c`` with moved modules: one statement each."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text
    lines = text.splitlines(keepends=True)
    edits: list[tuple[int, int, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.level or node.module is None:
            continue
        if node.module != "trellax._src" and not node.module.startswith("trellax._src."):
            continue
        rel = node.module[len("trellax._src.") :] if node.module != "trellax._src" else ""

        def key(name: str, rel: str = rel) -> str:
            return f"{rel}.{name}" if rel else name

        def moved(name: str, rel: str = rel) -> bool:
            return key(name) in MOVES or (rel, name) in NAME_MOVES

        if not any(moved(a.name) for a in node.names):
            continue
        indent = re.match(r"\s*", lines[node.lineno - 1]).group(0)  # type: ignore[union-attr]
        kept = [a for a in node.names if not moved(a.name)]
        out: list[str] = []
        if kept:
            names = ", ".join(a.name + (f" as {a.asname}" if a.asname else "") for a in kept)
            out.append(f"{indent}from {node.module} import {names}\n")
        for a in node.names:
            local = a.asname or a.name
            if (rel, a.name) in NAME_MOVES:
                alias = "" if local == a.name else f" as {local}"
                target = NAME_MOVES[rel, a.name]
                out.append(f"{indent}from trellax._src.{target} import {a.name}{alias}\n")
                continue
            if key(a.name) not in MOVES:
                continue
            package, leaf = _split(MOVES[key(a.name)])
            alias = "" if local == leaf else f" as {local}"
            out.append(f"{indent}from trellax._src.{package} import {leaf}{alias}\n")
        assert node.end_lineno is not None
        edits.append((node.lineno - 1, node.end_lineno, "".join(out)))
    for start, end, new in sorted(edits, reverse=True):
        lines[start:end] = [new]
    return "".join(lines)


def rewrite(text: str, python: bool) -> str:
    """``text`` with every old path rewritten (import statements only in Python source).

    Idempotent: new paths are left alone, so it can run again over merged code.
    """
    text = _DOTTED.sub(_dotted, text)
    if python:
        text = _rewrite_from(text)
    return _PATHS.sub(_path, text)


def _files(paths: list[str]) -> list[pathlib.Path]:
    out: list[pathlib.Path] = []
    for p in map(pathlib.Path, paths):
        if p.is_dir():
            out.extend(
                f
                for f in sorted(p.rglob("*"))
                if f.suffix in {".py", ".md", ".txt", ".toml", ".cfg", ".ini"}
                and ".venv" not in f.parts
                and f.is_file()
            )
        elif p.is_file():
            out.append(p)
    return out


def move(root: pathlib.Path) -> None:
    """``git mv`` every module of :data:`MOVES` (creating each new package's ``__init__.py``)."""
    src = root / "trellax" / "_src"
    for old, new in MOVES.items():
        source = src / (old.replace(".", "/") + ".py")
        target = src / (new.replace(".", "/") + ".py")
        if not source.exists():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        init = target.parent / "__init__.py"
        if not init.exists():
            init.write_text("")
            subprocess.run(["git", "add", str(init)], check=True, cwd=root)
        subprocess.run(["git", "mv", str(source), str(target)], check=True, cwd=root)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="files or directories to rewrite")
    parser.add_argument("--check", action="store_true", help="only list files with old paths")
    parser.add_argument("--move", action="store_true", help="git mv the modules first")
    args = parser.parse_args(argv)
    if args.move:
        move(pathlib.Path.cwd())
    stale = []
    for path in _files(args.paths):
        if path.name in _SKIP:
            continue
        text = path.read_text(encoding="utf-8")
        new = rewrite(text, path.suffix == ".py")
        if new != text:
            stale.append(path)
            if not args.check:
                path.write_text(new, encoding="utf-8")
    for path in stale:
        print(path)
    return 1 if (args.check and stale) else 0


if __name__ == "__main__":
    sys.exit(main())
