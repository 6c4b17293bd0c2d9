"""The error classes ``trellax.nn`` raises: Flax's ``flax.errors``, defined once in
``trellax._src.flax.errors`` (so ``trellax.flax.errors`` and ``trellax.nn`` raise the same classes)."""

from __future__ import annotations

from trellax._src.flax.errors import AlreadyExistsError as AlreadyExistsError
from trellax._src.flax.errors import ApplyModuleInvalidMethodError as ApplyModuleInvalidMethodError
from trellax._src.flax.errors import (
    ApplyScopeInvalidVariablesStructureError as ApplyScopeInvalidVariablesStructureError,
)
from trellax._src.flax.errors import (
    ApplyScopeInvalidVariablesTypeError as ApplyScopeInvalidVariablesTypeError,
)
from trellax._src.flax.errors import AssignSubModuleError as AssignSubModuleError
from trellax._src.flax.errors import CallCompactUnboundModuleError as CallCompactUnboundModuleError
from trellax._src.flax.errors import CallSetupUnboundModuleError as CallSetupUnboundModuleError
from trellax._src.flax.errors import (
    CallShareScopeOnUnboundModuleError as CallShareScopeOnUnboundModuleError,
)
from trellax._src.flax.errors import (
    CallUnbindOnUnboundModuleError as CallUnbindOnUnboundModuleError,
)
from trellax._src.flax.errors import CursorFindError as CursorFindError
from trellax._src.flax.errors import DescriptorAttributeError as DescriptorAttributeError
from trellax._src.flax.errors import FlaxError as FlaxError
from trellax._src.flax.errors import ImmutableVariableError as ImmutableVariableError
from trellax._src.flax.errors import (
    IncorrectPostInitOverrideError as IncorrectPostInitOverrideError,
)
from trellax._src.flax.errors import InvalidCheckpointError as InvalidCheckpointError
from trellax._src.flax.errors import InvalidFilterError as InvalidFilterError
from trellax._src.flax.errors import InvalidInstanceModuleError as InvalidInstanceModuleError
from trellax._src.flax.errors import InvalidRngError as InvalidRngError
from trellax._src.flax.errors import InvalidScopeError as InvalidScopeError
from trellax._src.flax.errors import JaxTransformError as JaxTransformError
from trellax._src.flax.errors import LazyInitError as LazyInitError
from trellax._src.flax.errors import ModifyScopeVariableError as ModifyScopeVariableError
from trellax._src.flax.errors import MPACheckpointingRequiredError as MPACheckpointingRequiredError
from trellax._src.flax.errors import MPARestoreDataCorruptedError as MPARestoreDataCorruptedError
from trellax._src.flax.errors import MPARestoreTargetRequiredError as MPARestoreTargetRequiredError
from trellax._src.flax.errors import MultipleMethodsCompactError as MultipleMethodsCompactError
from trellax._src.flax.errors import NameInUseError as NameInUseError
from trellax._src.flax.errors import PartitioningUnspecifiedError as PartitioningUnspecifiedError
from trellax._src.flax.errors import ReservedModuleAttributeError as ReservedModuleAttributeError
from trellax._src.flax.errors import ScopeCollectionNotFound as ScopeCollectionNotFound
from trellax._src.flax.errors import ScopeParamNotFoundError as ScopeParamNotFoundError
from trellax._src.flax.errors import ScopeParamShapeError as ScopeParamShapeError
from trellax._src.flax.errors import ScopeVariableNotFoundError as ScopeVariableNotFoundError
from trellax._src.flax.errors import SetAttributeFrozenModuleError as SetAttributeFrozenModuleError
from trellax._src.flax.errors import (
    SetAttributeInModuleSetupError as SetAttributeInModuleSetupError,
)
from trellax._src.flax.errors import TraceContextError as TraceContextError
from trellax._src.flax.errors import (
    TransformedMethodReturnValueError as TransformedMethodReturnValueError,
)
from trellax._src.flax.errors import TransformTargetError as TransformTargetError
from trellax._src.flax.errors import TraverseTreeError as TraverseTreeError
