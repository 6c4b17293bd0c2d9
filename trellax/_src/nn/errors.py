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


class PartitioningUnspecifiedError(FlaxError):
    """A transform adds or removes an axis of a ``Partitioned`` variable without
    ``metadata_params={"partition_name": ...}``."""

    def __init__(self, target: Any) -> None:
        super().__init__(
            'Trying to transform a Partitioned variable but "partition_name" is not specified '
            f"in metadata_params: {target}"
        )


class TransformedMethodReturnValueError(FlaxError):
    """A lifted method returned a Module or a Variable."""

    def __init__(self, name: Any) -> None:
        super().__init__(f"Transformed module method {name} cannot return Modules or Variables.")


class TransformTargetError(FlaxError):
    """A lifted transform was applied to something that is no Module class or function."""

    def __init__(self, target: Any) -> None:
        super().__init__(
            "Linen transformations must be applied to Modules classes or functions taking a "
            f"Module instance as the first argument. The provided target is not a Module class "
            f"or callable: {target}"
        )


class AssignSubModuleError(FlaxError):
    """A submodule was created outside ``setup`` and any ``@compact`` method."""

    def __init__(self, cls: str) -> None:
        super().__init__(
            f"Submodule {cls} must be defined in `setup()` or in a method wrapped in `@compact`"
        )


class DescriptorAttributeError(FlaxError):
    """A property read an attribute that does not exist."""

    def __init__(self) -> None:
        super().__init__("Trying to access a property that is accessing a non-existent attribute.")


class LazyInitError(FlaxError):
    """``lazy_init`` needed the value of an input it was given only as a shape."""

    def __init__(self, partial_val: Any) -> None:
        super().__init__(
            f"Lazy init encountered a value that could with the given inputs (shape: {partial_val})."
        )


class IncorrectPostInitOverrideError(FlaxError):
    """A subclass overrode ``__post_init__`` without calling ``super().__post_init__()``."""

    def __init__(self) -> None:
        super().__init__("Overrode `.__post_init__()` without calling `super().__post_init__()`")


class InvalidInstanceModuleError(FlaxError):
    """``init``/``apply``/``bind`` was called on a Module class instead of an instance."""

    def __init__(self) -> None:
        super().__init__(
            "Can only call init, init_with_output or apply methods on an instance of the Module "
            "class, not the Module class itself"
        )


class CallSetupUnboundModuleError(FlaxError):
    """``setup`` was called on an unbound module."""

    def __init__(self) -> None:
        super().__init__("Can't call compact methods on unbound modules")


class CallUnbindOnUnboundModuleError(FlaxError):
    """``unbind()`` was called on an unbound module."""

    def __init__(self) -> None:
        super().__init__("Can't call `unbind()` on unbound modules")


class CallShareScopeOnUnboundModuleError(FlaxError):
    """``nn.share_scope`` was called with an unbound module."""

    def __init__(self) -> None:
        super().__init__("Can't call `share_scope` on unbound modules")
