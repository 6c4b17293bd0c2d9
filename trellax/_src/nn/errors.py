"""Every error class of ``flax.errors``, with Flax's names, constructor arguments and messages.

``trellax.nn`` raises these for the module system and ``trellax.flax`` (which re-exports this
module as ``trellax.flax.errors``) for checkpoints, so that
``except flax.errors.ScopeParamNotFoundError`` catches the same thing under trellax. As in Flax they
derive from ``Exception`` through :class:`FlaxError`, not from ``ValueError``. As in Flax, the
message ends with the address of the error's entry on Flax's documentation page (a program that
prints a caught error prints the same line under both); the class's docstring here says the fix.

Example::

    >>> import trellax.numpy as tnp, trellax.nn as nn
    >>> nn.Dense(3).apply({}, tnp.ones(2))
    Traceback (most recent call last):
    ScopeCollectionNotFound: Tried to access "kernel" from collection "params" in "/" but the collection is empty. (https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html#flax.errors.ScopeCollectionNotFound)

The fix is to pass the variables that ``init`` returned: ``nn.Dense(3).apply(variables, x)``.
"""

from __future__ import annotations

from typing import Any

#: Flax's page of error explanations, which every FlaxError message ends by linking to
ERROR_PAGE = "https://flax.readthedocs.io/en/latest/api_reference/flax.errors.html"


def _rebuild(cls: type[FlaxError], message: str) -> FlaxError:
    """Unpickles a FlaxError as its own class without re-running the class's ``__init__``."""
    error = cls.__new__(cls)
    Exception.__init__(error, message)
    return error


class FlaxError(Exception):
    """Base class of every Flax error; holds one ready-made message."""

    def __init__(self, message: str = "") -> None:
        # the entry of this class on Flax's error page, named by its public path (flax.errors)
        if ERROR_PAGE not in message:
            message = f"{message} ({ERROR_PAGE}#flax.errors.{type(self).__name__})"
        super().__init__(message)

    def __reduce__(self) -> tuple[Any, ...]:
        # The subclasses' constructors take the facts, not the message: pickle the message.
        return (_rebuild, (type(self), str(self)))


# ----------------------------------------------------------------- nnx, lazy_init


class TraceContextError(FlaxError):
    """An object was used from a trace (transformation) other than the one that created it."""


class LazyInitError(FlaxError):
    """``lazy_init`` met a variable whose value depends on an input given only as a shape.

    Fix: make the initializers use only the shapes and dtypes of the inputs, or pass real arrays.
    """

    def __init__(self, partial_val: Any) -> None:
        super().__init__(
            f"Lazy init encountered a value that could with the given inputs (shape: {partial_val})."
        )


# ----------------------------------------------------------------- scope


class InvalidRngError(FlaxError):
    """A module asked for an rng stream that ``init``/``apply`` did not receive, or a bad key.

    Fix: pass every stream the modules use, e.g. ``init({"params": k0, "dropout": k1}, x)``
    and ``apply(variables, x, rngs={"dropout": k2})``.
    """

    def __init__(self, msg: str) -> None:
        super().__init__(msg)


class ApplyScopeInvalidVariablesTypeError(FlaxError):
    """``apply``'s first argument is not a dict of collections (each a dict with string keys)."""

    def __init__(self) -> None:
        super().__init__(
            "The first argument passed to an apply function should be a dictionary of "
            "collections. Each collection should be a dictionary with string keys."
        )


class ApplyScopeInvalidVariablesStructureError(FlaxError):
    """``apply`` got ``{"params": {"params": ...}}``: pass ``variables``, not a wrapped copy."""

    def __init__(self, variables: Any) -> None:
        super().__init__(
            "Expect the `variables` (first argument) passed to apply() to be a dict with the "
            'structure {"params": ...}, but got a dict with an extra params layer, i.e.  '
            '{"params": {"params": ... } }. You should instead pass in your dict\'s ["params"].'
        )


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


class InvalidFilterError(FlaxError):
    """A collection filter is not a string, a bool, a list of filters or ``DenyList``."""

    def __init__(self, filter_like: Any) -> None:
        super().__init__(f'Invalid Filter: "{filter_like}"')


class InvalidScopeError(FlaxError):
    """A scope (or a module bound to it) was used after the ``init``/``apply`` that made it."""

    def __init__(self, scope_name: str) -> None:
        super().__init__(f'The scope "{scope_name}" is no longer valid.')


class ModifyScopeVariableError(FlaxError):
    """A variable of an immutable collection was written: pass ``mutable=[collection]``."""

    def __init__(self, col: str, variable_name: str, scope_path: str) -> None:
        super().__init__(
            f'Cannot update variable "{variable_name}" in "{scope_path}" because collection '
            f'"{col}" is immutable.'
        )


class ImmutableVariableError(FlaxError):
    """A read-only (immutable) variable was written."""

    def __init__(self, message: str) -> None:
        super().__init__(message)


class JaxTransformError(FlaxError):
    """A plain transformation was applied to a bound module: use the lifted ``nn.vmap``, ..."""

    def __init__(self) -> None:
        super().__init__("Jax transforms and Flax models cannot be mixed.")


# ----------------------------------------------------------------- meta (partitioning)


class PartitioningUnspecifiedError(FlaxError):
    """A lifted transform adds an axis to a ``Partitioned`` variable without ``partition_name``.

    Fix: pass ``metadata_params={nn.PARTITION_NAME: "name"}`` to ``nn.vmap``/``nn.scan``.
    """

    def __init__(self, target: Any) -> None:
        super().__init__(
            'Trying to transform a Partitioned variable but "partition_name" is not specified '
            f"in metadata_params: {target}"
        )


# ----------------------------------------------------------------- module


class NameInUseError(FlaxError):
    """Two submodules or variables of one module got the same name."""

    def __init__(self, key_type: str, value: str, module_name: str) -> None:
        super().__init__(
            f'Could not create {key_type} "{value}" in Module {module_name}: Name in use.'
        )


class AssignSubModuleError(FlaxError):
    """A submodule was created outside ``setup`` and outside a ``@compact`` method."""

    def __init__(self, cls: Any) -> None:
        super().__init__(
            f"Submodule {cls} must be defined in `setup()` or in a method wrapped in `@compact`"
        )


class SetAttributeInModuleSetupError(FlaxError):
    """``setup`` assigned to a dataclass field: set it when constructing the module instead."""

    def __init__(self) -> None:
        super().__init__("Module construction attributes are frozen.")


class SetAttributeFrozenModuleError(FlaxError):
    """A module attribute was assigned outside ``setup``."""

    def __init__(self, module_cls: Any, attr_name: str, attr_val: Any) -> None:
        super().__init__(
            f"Can't set {attr_name}={attr_val} for Module of type {module_cls}: Module instance "
            "is frozen outside of setup method."
        )


class MultipleMethodsCompactError(FlaxError):
    """More than one method of a class is ``@compact``."""

    def __init__(self) -> None:
        super().__init__("Only one method per class can be @compact")


class ReservedModuleAttributeError(FlaxError):
    """A module subclass declared a field named ``parent`` or ``name`` (both are reserved)."""

    def __init__(self, annotations: Any) -> None:
        super().__init__(f"properties `parent` and `name` are reserved: {annotations}")


class ApplyModuleInvalidMethodError(FlaxError):
    """``method=`` named something that is not a method of the module."""

    def __init__(self, method: Any) -> None:
        super().__init__(f"Cannot call apply(): {method} is not a valid function for apply().")


class CallCompactUnboundModuleError(FlaxError):
    """A module that was not given variables (by ``init``/``apply``/``bind``) was run."""

    def __init__(self) -> None:
        super().__init__("Can't call compact methods on unbound modules")


class CallSetupUnboundModuleError(FlaxError):
    """``setup`` was called (directly) on a module that is not bound to variables."""

    def __init__(self) -> None:
        super().__init__("Can't call compact methods on unbound modules")


class CallUnbindOnUnboundModuleError(FlaxError):
    """``unbind()`` was called on a module that is not bound."""

    def __init__(self) -> None:
        super().__init__("Can't call `unbind()` on unbound modules")


class CallShareScopeOnUnboundModuleError(FlaxError):
    """``nn.share_scope`` was called with a module that is not bound."""

    def __init__(self) -> None:
        super().__init__("Can't call `share_scope` on unbound modules")


class InvalidInstanceModuleError(FlaxError):
    """``init``/``apply`` was called on the Module class instead of an instance: add ``()``."""

    def __init__(self) -> None:
        super().__init__(
            "Can only call init, init_with_output or apply methods on an instance of the Module "
            "class, not the Module class itself"
        )


class IncorrectPostInitOverrideError(FlaxError):
    """A module's ``__post_init__`` does not call ``super().__post_init__()``."""

    def __init__(self) -> None:
        super().__init__("Overrode `.__post_init__()` without calling `super().__post_init__()`")


class DescriptorAttributeError(FlaxError):
    """A property of a module read an attribute that does not exist (an inner AttributeError)."""

    def __init__(self) -> None:
        super().__init__("Trying to access a property that is accessing a non-existent attribute.")


# ----------------------------------------------------------------- checkpoints


class InvalidCheckpointError(FlaxError):
    """A checkpoint was saved at a step not newer than the latest one (``overwrite=False``)."""

    def __init__(self, path: Any, step: Any) -> None:
        super().__init__(
            f'Trying to save an outdated checkpoint at step: "{step}" and path: "{path}".'
        )


class MPACheckpointingRequiredError(FlaxError):
    """A multi-process array needs the asynchronous (GDA) checkpoint manager."""

    def __init__(self, path: Any, step: Any) -> None:
        super().__init__(
            f'Checkpoint failed at step: "{step}" and path: "{path}": Target contains a '
            "multiprocess array should be saved/restored with a GlobalAsyncCheckpointManager."
        )


class MPARestoreTargetRequiredError(FlaxError):
    """Restoring multi-process arrays needs a target with the arrays already created."""

    def __init__(self, path: Any, step: Any, key: Any = None) -> None:
        message = (
            f'Restore checkpoint failed at step: "{step}" and path: "{path}": Checkpoints '
            "containing a multiprocess array need to be restored with a target with pre-created "
            "arrays. If you cannot provide a full valid target, consider "
            "``allow_partial_mpa_restoration=True``. "
        )
        if key:
            message += f"This error fired when trying to restore array at {key}."
        super().__init__(message)


class MPARestoreDataCorruptedError(FlaxError):
    """A multi-process array's directory has no commit marker: its save did not finish."""

    def __init__(self, step: Any, path: Any) -> None:
        super().__init__(
            f'Restore checkpoint failed at step: "{step}" on multiprocess array at  "{path}": '
            'No "commit_success.txt" found on this "_gda" directory. Was its save halted before '
            "completion?"
        )


# ----------------------------------------------------------------- transforms


class TransformedMethodReturnValueError(FlaxError):
    """A method under a lifted transform returned a Module or a Variable."""

    def __init__(self, name: str) -> None:
        super().__init__(f"Transformed module method {name} cannot return Modules or Variables.")


class TransformTargetError(FlaxError):
    """A lifted transform was given something that is not a Module class or a function."""

    def __init__(self, target: Any) -> None:
        super().__init__(
            "Linen transformations must be applied to Modules classes or functions taking a "
            "Module instance as the first argument. The provided target is not a Module class "
            f"or callable: {target}"
        )


# ----------------------------------------------------------------- io


class AlreadyExistsError(FlaxError):
    """A write would replace an existing file: pass ``overwrite=True`` to allow it."""

    def __init__(self, path: Any) -> None:
        super().__init__(f'Trying overwrite an existing file: "{path}".')


# ----------------------------------------------------------------- cursor


class CursorFindError(FlaxError):
    """``Cursor.find`` found no object, or more than one, meeting ``cond_fn``."""

    def __init__(self, cursor: Any = None, cursor2: Any = None) -> None:
        if cursor is not None and cursor2 is not None:
            super().__init__(
                "More than one object found given the conditions of the cond_fn. The first two "
                f"objects found have the following paths: {cursor._path} and {cursor2._path}"
            )
        else:
            super().__init__("No object found given the conditions of the cond_fn.")


class TraverseTreeError(FlaxError):
    """``Cursor.apply_update``/``find_all``: exactly one of ``update_fn``, ``cond_fn`` is None."""

    def __init__(self, update_fn: Any, cond_fn: Any) -> None:
        if update_fn is None and cond_fn is None:
            super().__init__(
                "Both update_fn and cond_fn are None. Exactly one of them must be None."
            )
        else:
            super().__init__(
                "Both update_fn and cond_fn are not None. Exactly one of them must be not None."
            )
