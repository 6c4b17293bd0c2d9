"""The error classes of ``trellax.nn``'s module system, with Flax's names and texts.

As in Flax they derive from ``Exception`` (through :class:`FlaxError`), not from ``ValueError``:
``except ValueError`` does not catch them. Example::

    >>> import trellax.numpy as tnp, trellax.nn as nn
    >>> nn.Dense(3).apply({}, tnp.ones(2))
    Traceback (most recent call last):
    ScopeCollectionNotFound: Tried to access "kernel" from collection "params" in "/" but the collection is empty.

The fix is to pass the variables that ``init`` returned: ``nn.Dense(3).apply(variables, x)``.
"""

from __future__ import annotations

from typing import Any


class FlaxError(Exception):
    """Base class of the module-system errors (Flax's ``flax.errors.FlaxError``)."""


class InvalidRngError(FlaxError):
    """A module asked for an rng stream that ``init``/``apply`` did not receive, or a bad key."""


class ScopeParamNotFoundError(FlaxError):
    """``apply`` got a ``params`` collection that lacks a parameter the module asks for."""

    def __init__(self, param_name: str, scope_path: str) -> None:
        super().__init__(f'Could not find parameter named "{param_name}" in scope "{scope_path}".')


class ScopeCollectionNotFound(FlaxError):
    """A variable was read from a collection that ``apply`` did not receive."""

    def __init__(self, col_name: str, var_name: str, scope_path: str) -> None:
        super().__init__(
            f'Tried to access "{var_name}" from collection "{col_name}" in "{scope_path}" '
            "but the collection is empty."
        )


class ScopeParamShapeError(FlaxError):
    """A stored parameter's shape differs from what its initializer would make."""

    def __init__(self, param_name: str, scope_path: str, value_shape: Any, init_shape: Any) -> None:
        super().__init__(
            f'For parameter "{param_name}" in "{scope_path}", the given initializer is expected '
            f"to generate shape {init_shape}, but the existing parameter it received has shape "
            f"{value_shape}."
        )


class ScopeVariableNotFoundError(FlaxError):
    """A variable is missing from an immutable (or non-initialized) collection."""

    def __init__(self, name: str, col: str, scope_path: str) -> None:
        super().__init__(
            f'No Variable named "{name}" for collection "{col}" exists in "{scope_path}".'
        )


class ModifyScopeVariableError(FlaxError):
    """A variable of an immutable collection was written: pass ``mutable=[collection]``."""

    def __init__(self, col: str, variable_name: str, scope_path: str) -> None:
        super().__init__(
            f'Cannot update variable "{variable_name}" in "{scope_path}" because collection '
            f'"{col}" is immutable.'
        )


class NameInUseError(FlaxError):
    """Two submodules or variables of one module got the same name."""

    def __init__(self, key_type: str, value: str, module_name: str) -> None:
        super().__init__(
            f'Could not create {key_type} "{value}" in Module {module_name}: Name in use.'
        )


class SetAttributeFrozenModuleError(FlaxError):
    """A module attribute was assigned outside ``setup``."""

    def __init__(self, module_cls: str, attr_name: str, attr_val: Any) -> None:
        super().__init__(
            f"Can't set {attr_name}={attr_val} for Module of type {module_cls}: Module instance "
            "is frozen outside of setup method."
        )


class CallCompactUnboundModuleError(FlaxError):
    """A module that was not given variables (by ``init``/``apply``/``bind``) was run."""

    def __init__(self) -> None:
        super().__init__("Can't call compact methods on unbound modules")


class MultipleMethodsCompactError(FlaxError):
    """More than one method of a class is ``@compact``."""

    def __init__(self) -> None:
        super().__init__("Only one method per class can be @compact")


class ApplyModuleInvalidMethodError(FlaxError):
    """``method=`` named something that is not a method of the module."""

    def __init__(self, method: Any) -> None:
        super().__init__(f"Cannot call apply(): {method} is not a valid function for apply().")
