"""``flax.errors``: the classes are defined once, in ``trellax._src.nn.errors`` (``trellax.nn``
raises them; the checkpoints here raise them too)."""

from __future__ import annotations

from trellax._src.nn.errors import AlreadyExistsError as AlreadyExistsError
from trellax._src.nn.errors import ApplyModuleInvalidMethodError as ApplyModuleInvalidMethodError
from trellax._src.nn.errors import (
    ApplyScopeInvalidVariablesStructureError as ApplyScopeInvalidVariablesStructureError,
)
from trellax._src.nn.errors import (
    ApplyScopeInvalidVariablesTypeError as ApplyScopeInvalidVariablesTypeError,
)
from trellax._src.nn.errors import AssignSubModuleError as AssignSubModuleError
from trellax._src.nn.errors import CallCompactUnboundModuleError as CallCompactUnboundModuleError
from trellax._src.nn.errors import CallSetupUnboundModuleError as CallSetupUnboundModuleError
from trellax._src.nn.errors import (
    CallShareScopeOnUnboundModuleError as CallShareScopeOnUnboundModuleError,
)
from trellax._src.nn.errors import CallUnbindOnUnboundModuleError as CallUnbindOnUnboundModuleError
from trellax._src.nn.errors import CursorFindError as CursorFindError
from trellax._src.nn.errors import DescriptorAttributeError as DescriptorAttributeError
from trellax._src.nn.errors import FlaxError as FlaxError
from trellax._src.nn.errors import ImmutableVariableError as ImmutableVariableError
from trellax._src.nn.errors import IncorrectPostInitOverrideError as IncorrectPostInitOverrideError
from trellax._src.nn.errors import InvalidCheckpointError as InvalidCheckpointError
from trellax._src.nn.errors import InvalidFilterError as InvalidFilterError
from trellax._src.nn.errors import InvalidInstanceModuleError as InvalidInstanceModuleError
from trellax._src.nn.errors import InvalidRngError as InvalidRngError
from trellax._src.nn.errors import InvalidScopeError as InvalidScopeError
from trellax._src.nn.errors import JaxTransformError as JaxTransformError
from trellax._src.nn.errors import LazyInitError as LazyInitError
from trellax._src.nn.errors import ModifyScopeVariableError as ModifyScopeVariableError
from trellax._src.nn.errors import MPACheckpointingRequiredError as MPACheckpointingRequiredError
from trellax._src.nn.errors import MPARestoreDataCorruptedError as MPARestoreDataCorruptedError
from trellax._src.nn.errors import MPARestoreTargetRequiredError as MPARestoreTargetRequiredError
from trellax._src.nn.errors import MultipleMethodsCompactError as MultipleMethodsCompactError
from trellax._src.nn.errors import NameInUseError as NameInUseError
from trellax._src.nn.errors import PartitioningUnspecifiedError as PartitioningUnspecifiedError
from trellax._src.nn.errors import ReservedModuleAttributeError as ReservedModuleAttributeError
from trellax._src.nn.errors import ScopeCollectionNotFound as ScopeCollectionNotFound
from trellax._src.nn.errors import ScopeParamNotFoundError as ScopeParamNotFoundError
from trellax._src.nn.errors import ScopeParamShapeError as ScopeParamShapeError
from trellax._src.nn.errors import ScopeVariableNotFoundError as ScopeVariableNotFoundError
from trellax._src.nn.errors import SetAttributeFrozenModuleError as SetAttributeFrozenModuleError
from trellax._src.nn.errors import SetAttributeInModuleSetupError as SetAttributeInModuleSetupError
from trellax._src.nn.errors import TraceContextError as TraceContextError
from trellax._src.nn.errors import (
    TransformedMethodReturnValueError as TransformedMethodReturnValueError,
)
from trellax._src.nn.errors import TransformTargetError as TransformTargetError
from trellax._src.nn.errors import TraverseTreeError as TraverseTreeError
