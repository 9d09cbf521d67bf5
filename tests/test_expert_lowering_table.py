"""The lowering's op table holds one handler per operator name."""

from __future__ import annotations

import pytest

from engine.agents.expert import lowering  # noqa: F401  (registers the handlers)
from engine.agents.expert.lowering.table import FUNCTIONS, lowers


def test_a_second_handler_for_one_operator_is_refused_at_registration() -> None:
    name = "hiera_test_only_op"

    @lowers(name)
    def first(lw, c):  # pragma: no cover - never called
        return None

    try:
        with pytest.raises(ValueError, match="registers 'hiera_test_only_op' twice"):
            @lowers(name)
            def second(lw, c):  # pragma: no cover - never called
                return None
        assert FUNCTIONS[name] is first
    finally:
        del FUNCTIONS[name]

