"""The doctest groups of a Sphinx ``.rst`` guide, as ``sphinx.ext.doctest`` runs them.

Standard library only (it runs under JAX and under ``trellax run``). Flax's guides write their
code in ``.. testsetup::`` and ``.. testcode::`` blocks and in ``.. codediff::`` blocks (Flax's
own directive: tabs separated by a ``---`` line, each tab a testcode block of the group its
``:groups:`` option names, else of the group named by its ``:title:`` entry; groups listed in
``:skip_test:`` are not tested). Sphinx runs each group in a namespace of its own, in the order
the groups first appear: the global setup, then the group's setup blocks (those naming it or
``*``), then its code blocks in document order. A code block's value is not displayed (only
what it prints is output); a block that raises is reported and the group goes on.

The global setup of Flax's ``docs/conf.py`` imports ``jax``, ``jax.numpy as jnp`` and
``flax.nnx`` and installs a logging filter; only the first two are run here for the Linen
guides (none uses ``nnx``, which needs the real Flax). The nnx guides (``docs_nnx/conf.py``,
kept under a folder named ``docs_nnx`` here) get their global setup's code too: 8 CPU devices
and ``from flax import nnx`` (the logging filter, which hides absl messages, is left out).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

GLOBAL_SETUP = "import jax\nimport jax.numpy as jnp\n"
NNX_GLOBAL_SETUP = (
    "import jax\njax.config.update('jax_num_cpu_devices', 8)\nimport jax.numpy as jnp\n"
    "from flax import nnx\n"
)


def global_setup(parts: tuple[str, ...]) -> str:
    """The global setup of the guide at a path of these parts: the nnx guides' (docs_nnx) or
    the Linen guides'."""
    return NNX_GLOBAL_SETUP if "docs_nnx" in parts else GLOBAL_SETUP


DIRECTIVE = re.compile(r"^(\s*)\.\. (testsetup|testcode|testoutput|codediff|doctest)::\s*(.*)$")
OPTION = re.compile(r"^\s*:([\w-]+):\s*(.*)$")


@dataclass
class Group:
    name: str
    setup: list[str] = field(default_factory=list)
    code: list[tuple[int, str]] = field(default_factory=list)  # (block number, source)


def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    return names or ["default"]


def _body(lines: list[str], i: int, indent: int) -> tuple[dict[str, str], list[str], int]:
    """The options and dedented body of the directive whose first line is ``lines[i - 1]``;
    returns them and the index of the first line after the block."""
    options: dict[str, str] = {}
    while i < len(lines):
        match = OPTION.match(lines[i])
        if not match or len(lines[i]) - len(lines[i].lstrip()) <= indent:
            break
        options[match.group(1)] = match.group(2)
        i += 1
    body: list[str] = []
    while i < len(lines):
        line = lines[i]
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break
        body.append(line)
        i += 1
    while body and not body[-1].strip():
        body.pop()
    while body and not body[0].strip():
        body.pop(0)
    margin = min((len(b) - len(b.lstrip()) for b in body if b.strip()), default=0)
    return options, [b[margin:] for b in body], i


def groups(text: str) -> list[Group]:
    """The doctest groups of an ``.rst`` text, in order of first appearance."""
    found: dict[str, Group] = {}
    everywhere: list[str] = []  # setup blocks of the group "*"
    lines = text.splitlines()
    block = 0
    i = 0

    def group(name: str) -> Group:
        if name not in found:
            found[name] = Group(name)
        return found[name]

    while i < len(lines):
        match = DIRECTIVE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, kind, argument = len(match.group(1)), match.group(2), match.group(3)
        options, body, i = _body(lines, i + 1, indent)
        source = "\n".join(body) + "\n"
        if kind == "doctest":
            raise NotImplementedError("'.. doctest::' blocks (>>> prompts) are not supported")
        if kind == "testoutput":
            continue  # the expected output of the block before: the comparison is the corpus's
        if kind == "testsetup":
            for name in _names(argument):
                if name == "*":
                    everywhere.append(source)
                else:
                    group(name).setup.append(source)
            continue
        if kind == "testcode":
            block += 1
            for name in _names(argument):
                group(name).code.append((block, source))
            continue
        # codediff: tabs separated by a line holding only the separator
        sep = options.get("code_sep", "---")
        tabs: list[list[str]] = [[]]
        for line in body:
            if line.strip() == sep:
                tabs.append([])
            else:
                tabs[-1].append(line)
        titles = _names(options.get("title", ""))
        names = _names(options["groups"]) if "groups" in options else titles
        if not len(tabs) == len(titles) == len(names):
            raise ValueError(f"codediff: {len(tabs)} tabs for titles {titles} and groups {names}")
        skipped = set(_names(options["skip_test"])) if "skip_test" in options else set()
        block += 1
        for name, tab in zip(names, tabs):
            if name not in skipped:
                group(name).code.append((block, "\n".join(tab) + "\n"))
    for g in found.values():
        g.setup[:0] = everywhere
    return [g for g in found.values() if g.code]
