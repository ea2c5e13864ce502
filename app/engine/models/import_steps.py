"""The steps of importing a model folder, in order, for a caller that shows them."""

from __future__ import annotations

import enum
from collections.abc import Callable


class ImportStep(enum.Enum):
    """What `ModelStore.import_model` is doing; the value is the user's wording."""

    COPYING = "copying the files"
    CHECKING = "checking the weights"
    CONVERTING = "converting for this computer"
    TEST_TRANSCRIPTION = "transcribing a test clip"

    @property
    def number(self) -> int:
        """1-based position among the steps."""
        return list(ImportStep).index(self) + 1


StepCallback = Callable[[ImportStep], None]
"""Called (on the importing thread) as each step starts."""
