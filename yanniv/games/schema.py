"""Small JSON Schema pieces shared by every game's schema and the platform's protocol schema."""

from __future__ import annotations

import inspect
from typing import Any


def ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}"}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def class_doc(cls: type) -> str | None:
    """The class's own docstring (not a dataclass's generated signature), first paragraph."""
    doc = cls.__dict__.get("__doc__")
    if not doc or doc.startswith(cls.__name__ + "("):
        return None
    return inspect.cleandoc(doc).split("\n\n")[0].replace("\n", " ")
