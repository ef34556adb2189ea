"""Validation errors that name the field and say what to do."""

from __future__ import annotations

from pydantic import ValidationError

_HINTS = {
    "missing": "add it",
    "string_type": "give a JSON string",
    "list_type": "give a JSON list",
    "bool_type": "give true or false",
    "literal_error": "use one of the allowed values",
    "dict_type": "give a JSON object",
    "model_type": "give a JSON object",
}


class InputError(ValueError):
    """The input does not follow the contract; the message names the field."""


def explain(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        where = ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in err["loc"]).replace(".[", "[")
        hint = _HINTS.get(err["type"], "")
        msg = err["msg"].removeprefix("Value error, ")
        parts.append(f"{where or 'input'}: {msg}" + (f" ({hint})" if hint else ""))
    return "; ".join(parts)
