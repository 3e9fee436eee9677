"""`fast_init`: a quicker `__init__` for the engine's frozen, slotted dataclasses.

`apply` builds several events, packets and pending decisions per action. The `__init__` that
`dataclass(frozen=True)` writes goes through `object.__setattr__(self, "name", value)` for
every field; writing straight through each slot's descriptor does the same job about a
quarter faster and keeps the instances frozen (assignment still raises afterwards).
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")


def fast_init(cls: type[T]) -> type[T]:
    """Replace `cls.__init__` (a frozen slotted dataclass without `__post_init__`)."""
    fields = [f for f in dataclasses.fields(cls) if f.init]  # type: ignore[arg-type]
    assert not hasattr(cls, "__post_init__"), cls
    namespace: dict[str, Any] = {}
    params = ["self"]
    body = []
    for index, f in enumerate(fields):
        if f.default is not dataclasses.MISSING:
            namespace[f"_d{index}"] = f.default
            params.append(f"{f.name}=_d{index}")
        else:
            assert f.default_factory is dataclasses.MISSING, (cls, f.name)
            params.append(f.name)
        namespace[f"_s{index}"] = getattr(cls, f.name).__set__
        body.append(f"    _s{index}(self, {f.name})")
    source = f"def __init__({', '.join(params)}):\n" + ("\n".join(body) or "    pass") + "\n"
    exec(source, namespace)  # generated from the class's own fields, like dataclasses does
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[misc]
    return cls
