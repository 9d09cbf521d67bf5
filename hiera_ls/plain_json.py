"""hiera's own messages (hiera/jobStatus, hiera/runResults, hiera/modules) as plain JSON, on both ends.

pygls turns the params and results of a message it has no lsprotocol type for into namedtuples, which neither
side of hiera's protocol (docs/protocol.md §3) wants: the server builds and reads dicts, and so do the clients.
"""

from __future__ import annotations

from typing import Any

from pygls.protocol import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage


def keep_plain_json(conv: Any) -> Any:
    """The converter, made to leave custom messages' params and results as the JSON they arrived as."""
    for cls in (JsonRPCRequestMessage, JsonRPCNotification, JsonRPCResponseMessage):
        conv.register_structure_hook(cls, lambda obj, cls: cls(**obj))
    return conv
