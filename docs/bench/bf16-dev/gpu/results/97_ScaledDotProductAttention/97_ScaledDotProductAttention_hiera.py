"""The best of an optimize run (hiera run 20261207-215432-1aae): 0.64x against eager on cuda:0 (NVIDIA H100 80GB HBM3), slower than eager (1.5–1.6x slower at 95%, all of it below 1).

The optimized module's source is embedded below (base64: no text in it can end the string) and runs when
ModelNew is first constructed, or when one of its other names is first asked for (from this file import
get_inputs, say): importing this file runs none of it. It then runs in this process, with this process's
rights, outside any sandbox. To read it: print(_SOURCE), or the copy hiera wrote beside this file,
97_ScaledDotProductAttention_hiera.source.py.txt.

Batch sizes: verified at batch 32 only; other sizes were not checked (--shapes all checks them). A call at
another batch size runs the optimized module as it is, unguarded.
"""

import base64
import os
import sys
import types

_text = lambda b64: base64.b64decode(b64).decode()  # noqa: E731
_SOURCE = _text("aW1wb3J0IHRvcmNoCmltcG9ydCB0b3JjaC5ubiBhcyBubgoKY2xhc3MgTW9kZWwobm4uTW9kdWxlKToKICAgIGRlZiBfX2luaXRfXyhzZWxmKToKICAgICAgICBzdXBlcihNb2RlbCwgc2VsZikuX19pbml0X18oKQoKICAgIGRlZiBmb3J3YXJkKHNlbGYsIFE6IHRvcmNoLlRlbnNvciwgSzogdG9yY2guVGVuc29yLCBWOiB0b3JjaC5UZW5zb3IpIC0+IHRvcmNoLlRlbnNvcjoKICAgICAgICBvdXQgPSB0b3JjaC5ubi5mdW5jdGlvbmFsLnNjYWxlZF9kb3RfcHJvZHVjdF9hdHRlbnRpb24oUSwgSywgVikKICAgICAgICByZXR1cm4gb3V0CgpiYXRjaF9zaXplID0gMzIKbnVtX2hlYWRzID0gMzIKc2VxdWVuY2VfbGVuZ3RoID0gNTEyCmVtYmVkZGluZ19kaW1lbnNpb24gPSAxMDI0CgpkZWYgZ2V0X2lucHV0cygpOgogICAgUSA9IHRvcmNoLnJhbmQoYmF0Y2hfc2l6ZSwgbnVtX2hlYWRzLCBzZXF1ZW5jZV9sZW5ndGgsIGVtYmVkZGluZ19kaW1lbnNpb24pCiAgICBLID0gdG9yY2gucmFuZChiYXRjaF9zaXplLCBudW1faGVhZHMsIHNlcXVlbmNlX2xlbmd0aCwgZW1iZWRkaW5nX2RpbWVuc2lvbikKICAgIFYgPSB0b3JjaC5yYW5kKGJhdGNoX3NpemUsIG51bV9oZWFkcywgc2VxdWVuY2VfbGVuZ3RoLCBlbWJlZGRpbmdfZGltZW5zaW9uKQogICAgcmV0dXJuIFtRLCBLLCBWXQoKZGVmIGdldF9pbml0X2lucHV0cygpOgogICAgcmV0dXJuIFtdCgoKIyAtLS0gaGllcmE6IHRoZSBiZmxvYXQxNiB2YXJpYW50IG9mIHRoaXMgdGFzayAoaXNzdWUgNDMpIC0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLS0tLQojIFdyaXR0ZW4gYnkgc2NyaXB0cy9tYWtlX3ByZWNpc2lvbl92YXJpYW50cy5weSBmcm9tIGtlcm5lbGJlbmNoLWRldi9sZXZlbDEvOTdfU2NhbGVkRG90UHJvZHVjdEF0dGVudGlvbi5weQojIChLZXJuZWxCZW5jaCwgTUlUIGxpY2Vuc2UpOiB0aGUgc291cmNlIGFib3ZlIGlzIHRoZSB0YXNrJ3Mgb3duLCB1bmNoYW5nZWQ7IHRoaXMgYmxvY2sgY2FzdHMgaXRzIHBhcmFtZXRlcnMsCiMgYnVmZmVycyBhbmQgZmxvYXRpbmctcG9pbnQgaW5wdXRzIHRvIHRvcmNoLmJmbG9hdDE2LgpfaGllcmFfZHR5cGUgPSB0b3JjaC5iZmxvYXQxNgpfaGllcmFfaW5pdCA9IE1vZGVsLl9faW5pdF9fCgoKZGVmIF9oaWVyYV9jYXN0X2luaXQoc2VsZiwgKmFyZ3MsICoqa3dhcmdzKToKICAgIF9oaWVyYV9pbml0KHNlbGYsICphcmdzLCAqKmt3YXJncykKICAgIHNlbGYudG8oX2hpZXJhX2R0eXBlKQoKCk1vZGVsLl9faW5pdF9fID0gX2hpZXJhX2Nhc3RfaW5pdApfaGllcmFfZ2V0X2lucHV0cyA9IGdldF9pbnB1dHMKCgpkZWYgZ2V0X2lucHV0cygpOgogICAgcmV0dXJuIFt4LnRvKF9oaWVyYV9kdHlwZSkgaWYgaXNpbnN0YW5jZSh4LCB0b3JjaC5UZW5zb3IpIGFuZCB4LmlzX2Zsb2F0aW5nX3BvaW50KCkgZWxzZSB4CiAgICAgICAgICAgIGZvciB4IGluIF9oaWVyYV9nZXRfaW5wdXRzKCldCgojID09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09CiMgaGllcmEgZXhwZXJ0IGNhbmRpZGF0ZSAocmVmZXJlbmNlIGZvcndhcmQgKGVhZ2VyKSk7IHN0cmF0ZWd5IFIudG9yY2hfY29tcGlsZS4KIyBUaGUgdGFzaydzIHNvdXJjZSBpcyBhYm92ZSwgdmVyYmF0aW07IE1vZGVsTmV3IHN1YmNsYXNzZXMgaXRzIE1vZGVsIHNvIHRoZSBwYXJhbWV0ZXIgbmFtZXMgbWF0Y2guCiMgPT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT0KaW1wb3J0IHRvcmNoIGFzIF9oaWVyYV90b3JjaAoKCmRlZiBfaGllcmFfY2xvbmUob3V0KToKICAgIGlmIGlzaW5zdGFuY2Uob3V0LCAodHVwbGUsIGxpc3QpKToKICAgICAgICByZXR1cm4gdHlwZShvdXQpKG8uY2xvbmUoKSBpZiBpc2luc3RhbmNlKG8sIF9oaWVyYV90b3JjaC5UZW5zb3IpIGVsc2UgbyBmb3IgbyBpbiBvdXQpCiAgICByZXR1cm4gb3V0LmNsb25lKCkgaWYgaXNpbnN0YW5jZShvdXQsIF9oaWVyYV90b3JjaC5UZW5zb3IpIGVsc2Ugb3V0CgoKY2xhc3MgTW9kZWxOZXcoTW9kZWwpOgogICAgIiIiVGhlIHJlZmVyZW5jZSBmb3J3YXJkIHVuY2hhbmdlZDogYSB2YWxpZCBiYXNlbGluZSB3aGVuIG5vdGhpbmcgZmFzdGVyIGFwcGxpZXMuIiIiCg==")
_module = None


def _candidate():
    """The optimized module, run once, as a module of its own (its classes pickle, dataclasses resolve)."""
    global _module
    if _module is None:
        module = types.ModuleType(__name__ + "._optimized")
        module.__file__ = os.path.join(os.path.dirname(os.path.abspath(__file__)), '97_ScaledDotProductAttention_hiera.source.py.txt')
        sys.modules[module.__name__] = module
        exec(compile(_SOURCE, module.__file__, "exec"), module.__dict__)
        _module = module
    return _module


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(_candidate(), name)


class ModelNew:
    """Makes the optimized module's ModelNew (the first one runs the module's source)."""

    def __new__(cls, *args, **kwargs):
        return _candidate().ModelNew(*args, **kwargs)
