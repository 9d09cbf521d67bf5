"""Strict JSON out of hiera: a non-finite number (NaN, Infinity) becomes null, and the object says where.

Python's json writes NaN and Infinity as bare words, which no strict parser accepts (JSON.parse, jq, serde_json,
Go's encoding/json): one NaN in a burst's reply made `hiera eval --json` print a line its readers reject
(issue 42). A candidate decides much of what a reply holds, so every number is checked on the way out, not only
the ones known to go wrong. Where a value was replaced, a top-level object gets `"non_finite"`: the paths of
the replaced values (`candidate.median_ms`, `extra.back_to_back.walls_ms[2]`), so a null that was a NaN is
told apart from a null that was nothing.
"""

from __future__ import annotations

import json
import math
from typing import Any

NON_FINITE = "non_finite"  # the key naming the values that were not finite


def finite(value: Any, path: str = "", found: list[str] | None = None) -> Any:
    """`value` with every non-finite float replaced by None (containers copied); each replaced path appended to
    `found`."""
    if isinstance(value, float):
        if math.isfinite(value):
            return value
        if found is not None:
            found.append(f"{path or '(value)'}: {value!r}")
        return None
    if isinstance(value, dict):
        return {k: finite(v, f"{path}.{k}" if path else str(k), found) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v, f"{path}[{i}]", found) for i, v in enumerate(value)]
    return value


def dumps(value: Any, *, flag: bool = True, **kwargs: Any) -> str:
    """json.dumps that never writes NaN or Infinity. flag: a top-level object gets NON_FINITE listing what was
    replaced (off for records read back into typed objects, which have a field for every key)."""
    found: list[str] = []
    default = kwargs.pop("default", None)
    if default is not None:
        # Values the default turns into JSON (str() of a Path, say) are not floats; the rest is walked here.
        value = json.loads(json.dumps(value, default=default, allow_nan=True))
    clean = finite(value, "", found)
    if found and flag and isinstance(clean, dict):
        clean = {**clean, NON_FINITE: found}
    return json.dumps(clean, allow_nan=False, **kwargs)
