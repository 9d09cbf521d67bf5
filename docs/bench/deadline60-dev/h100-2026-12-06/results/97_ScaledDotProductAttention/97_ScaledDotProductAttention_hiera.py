"""The best of an optimize run (hiera run 20261206-201711-cdae): 1.02x against eager on cuda:0 (NVIDIA H100 80GB HBM3), faster than eager (1.00–1.05x at 95%, all of it above 1).

The optimized module's source is embedded below (base64: no text in it can end the string) and runs when
ModelNew is first constructed, or when one of its other names is first asked for (from this file import
get_inputs, say): importing this file runs none of it. It then runs in this process, with this process's
rights, outside any sandbox. To read it: print(_SOURCE), or the copy hiera wrote beside this file,
97_ScaledDotProductAttention_hiera.source.py.txt.
"""

import base64
import os
import sys
import types

_text = lambda b64: base64.b64decode(b64).decode()  # noqa: E731
_SOURCE = _text("aW1wb3J0IHRvcmNoCmltcG9ydCB0b3JjaC5ubiBhcyBubgoKY2xhc3MgTW9kZWwobm4uTW9kdWxlKToKICAgIGRlZiBfX2luaXRfXyhzZWxmKToKICAgICAgICBzdXBlcihNb2RlbCwgc2VsZikuX19pbml0X18oKQoKICAgIGRlZiBmb3J3YXJkKHNlbGYsIFE6IHRvcmNoLlRlbnNvciwgSzogdG9yY2guVGVuc29yLCBWOiB0b3JjaC5UZW5zb3IpIC0+IHRvcmNoLlRlbnNvcjoKICAgICAgICBvdXQgPSB0b3JjaC5ubi5mdW5jdGlvbmFsLnNjYWxlZF9kb3RfcHJvZHVjdF9hdHRlbnRpb24oUSwgSywgVikKICAgICAgICByZXR1cm4gb3V0CgpiYXRjaF9zaXplID0gMzIKbnVtX2hlYWRzID0gMzIKc2VxdWVuY2VfbGVuZ3RoID0gNTEyCmVtYmVkZGluZ19kaW1lbnNpb24gPSAxMDI0CgpkZWYgZ2V0X2lucHV0cygpOgogICAgUSA9IHRvcmNoLnJhbmQoYmF0Y2hfc2l6ZSwgbnVtX2hlYWRzLCBzZXF1ZW5jZV9sZW5ndGgsIGVtYmVkZGluZ19kaW1lbnNpb24pCiAgICBLID0gdG9yY2gucmFuZChiYXRjaF9zaXplLCBudW1faGVhZHMsIHNlcXVlbmNlX2xlbmd0aCwgZW1iZWRkaW5nX2RpbWVuc2lvbikKICAgIFYgPSB0b3JjaC5yYW5kKGJhdGNoX3NpemUsIG51bV9oZWFkcywgc2VxdWVuY2VfbGVuZ3RoLCBlbWJlZGRpbmdfZGltZW5zaW9uKQogICAgcmV0dXJuIFtRLCBLLCBWXQoKZGVmIGdldF9pbml0X2lucHV0cygpOgogICAgcmV0dXJuIFtdCgojID09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09CiMgaGllcmEgZXhwZXJ0IGNhbmRpZGF0ZSAoY3Vkbm4uYmVuY2htYXJrKTsgc3RyYXRlZ3kgUi50b3JjaF9jb21waWxlLgojIFRoZSB0YXNrJ3Mgc291cmNlIGlzIGFib3ZlLCB2ZXJiYXRpbTsgTW9kZWxOZXcgc3ViY2xhc3NlcyBpdHMgTW9kZWwgc28gdGhlIHBhcmFtZXRlciBuYW1lcyBtYXRjaC4KIyA9PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PQppbXBvcnQgdG9yY2ggYXMgX2hpZXJhX3RvcmNoCgoKZGVmIF9oaWVyYV9jbG9uZShvdXQpOgogICAgaWYgaXNpbnN0YW5jZShvdXQsICh0dXBsZSwgbGlzdCkpOgogICAgICAgIHJldHVybiB0eXBlKG91dCkoby5jbG9uZSgpIGlmIGlzaW5zdGFuY2UobywgX2hpZXJhX3RvcmNoLlRlbnNvcikgZWxzZSBvIGZvciBvIGluIG91dCkKICAgIHJldHVybiBvdXQuY2xvbmUoKSBpZiBpc2luc3RhbmNlKG91dCwgX2hpZXJhX3RvcmNoLlRlbnNvcikgZWxzZSBvdXQKCgpjbGFzcyBNb2RlbE5ldyhNb2RlbCk6CiAgICAiIiJUaGUgcmVmZXJlbmNlIGZvcndhcmQgd2l0aCBjdWRubi5iZW5jaG1hcmssIHNjb3BlZCB0byB0aGlzIG1vZGVsJ3Mgb3duIGNhbGxzLiIiIgoKICAgIGRlZiBfX2luaXRfXyhzZWxmLCAqYXJncywgKiprd2FyZ3MpOgogICAgICAgIHN1cGVyKCkuX19pbml0X18oKmFyZ3MsICoqa3dhcmdzKQogICAgICAgIGlmIEZhbHNlOgogICAgICAgICAgICBzZWxmLnRvKG1lbW9yeV9mb3JtYXQ9X2hpZXJhX3RvcmNoLmNoYW5uZWxzX2xhc3QpCgogICAgZGVmIGZvcndhcmQoc2VsZiwgKmlucHV0cyk6CiAgICAgICAgaWYgRmFsc2U6CiAgICAgICAgICAgIGlucHV0cyA9IHR1cGxlKHguY29udGlndW91cyhtZW1vcnlfZm9ybWF0PV9oaWVyYV90b3JjaC5jaGFubmVsc19sYXN0KQogICAgICAgICAgICAgICAgICAgICAgICAgICBpZiBpc2luc3RhbmNlKHgsIF9oaWVyYV90b3JjaC5UZW5zb3IpIGFuZCB4LmRpbSgpID09IDQgZWxzZSB4IGZvciB4IGluIGlucHV0cykKICAgICAgICB3aXRoIF9oaWVyYV90b3JjaC5iYWNrZW5kcy5jdWRubi5mbGFncyhlbmFibGVkPVRydWUsIGJlbmNobWFyaz1UcnVlLCBkZXRlcm1pbmlzdGljPUZhbHNlLCBhbGxvd190ZjMyPV9oaWVyYV90b3JjaC5iYWNrZW5kcy5jdWRubi5hbGxvd190ZjMyKToKICAgICAgICAgICAgb3V0ID0gTW9kZWwuZm9yd2FyZChzZWxmLCAqaW5wdXRzKQogICAgICAgIGlmIEZhbHNlOgogICAgICAgICAgICBvdXQgPSAodHlwZShvdXQpKG8uY29udGlndW91cygpIGZvciBvIGluIG91dCkgaWYgaXNpbnN0YW5jZShvdXQsICh0dXBsZSwgbGlzdCkpIGVsc2Ugb3V0LmNvbnRpZ3VvdXMoKSkKICAgICAgICByZXR1cm4gb3V0Cg==")
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
