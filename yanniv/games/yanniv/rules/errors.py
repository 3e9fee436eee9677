"""The one error the engine raises: an illegal action, with a machine code and French text."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """Raised by `apply` for an action that is not legal now; the state is left untouched.

    `code` is stable and machine-readable; `message` is French, ready for the player;
    `message_en` is its English counterpart.
    """

    def __init__(self, code: str, message: str, message_en: str = "") -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.message_en = message_en or message
