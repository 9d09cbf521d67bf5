"""The best of an optimize run (hiera run 20261206-201510-b54b): 1.00x against eager on cuda:0 (NVIDIA H100 80GB HBM3), level with eager (1.00x at 95%, which includes 1).

The optimized module's source is embedded below (base64: no text in it can end the string) and runs when
ModelNew is first constructed, or when one of its other names is first asked for (from this file import
get_inputs, say): importing this file runs none of it. It then runs in this process, with this process's
rights, outside any sandbox. To read it: print(_SOURCE), or the copy hiera wrote beside this file,
51_Argmax_over_a_dimension_hiera.source.py.txt.
"""

import base64
import os
import sys
import types

_text = lambda b64: base64.b64decode(b64).decode()  # noqa: E731
_SOURCE = _text("aW1wb3J0IHRvcmNoCmltcG9ydCB0b3JjaC5ubiBhcyBubgoKY2xhc3MgTW9kZWwobm4uTW9kdWxlKToKICAgICIiIgogICAgU2ltcGxlIG1vZGVsIHRoYXQgcGVyZm9ybXMgQXJnbWF4IG92ZXIgYSBzcGVjaWZpZWQgZGltZW5zaW9uLgogICAgIiIiCiAgICBkZWYgX19pbml0X18oc2VsZiwgZGltOiBpbnQpOgogICAgICAgICIiIgogICAgICAgIEluaXRpYWxpemVzIHRoZSBtb2RlbCB3aXRoIHRoZSBkaW1lbnNpb24gdG8gcGVyZm9ybSBhcmdtYXguCgogICAgICAgIEFyZ3M6CiAgICAgICAgICAgIGRpbSAoaW50KTogVGhlIGRpbWVuc2lvbiB0byBwZXJmb3JtIGFyZ21heCBvdmVyLgogICAgICAgICIiIgogICAgICAgIHN1cGVyKE1vZGVsLCBzZWxmKS5fX2luaXRfXygpCiAgICAgICAgc2VsZi5kaW0gPSBkaW0KCiAgICBkZWYgZm9yd2FyZChzZWxmLCB4OiB0b3JjaC5UZW5zb3IpIC0+IHRvcmNoLlRlbnNvcjoKICAgICAgICAiIiIKICAgICAgICBBcHBsaWVzIGFyZ21heCBvdmVyIHRoZSBzcGVjaWZpZWQgZGltZW5zaW9uIHRvIHRoZSBpbnB1dCB0ZW5zb3IuCgogICAgICAgIEFyZ3M6CiAgICAgICAgICAgIHggKHRvcmNoLlRlbnNvcik6IElucHV0IHRlbnNvci4KCiAgICAgICAgUmV0dXJuczoKICAgICAgICAgICAgdG9yY2guVGVuc29yOiBPdXRwdXQgdGVuc29yIHdpdGggYXJnbWF4IGFwcGxpZWQsIHdpdGggdGhlIHNwZWNpZmllZCBkaW1lbnNpb24gcmVtb3ZlZC4KICAgICAgICAiIiIKICAgICAgICByZXR1cm4gdG9yY2guYXJnbWF4KHgsIGRpbT1zZWxmLmRpbSkKCmJhdGNoX3NpemUgPSAxMjgKZGltMSA9IDQwOTYKZGltMiA9IDQwOTUKCmRlZiBnZXRfaW5wdXRzKCk6CiAgICB4ID0gdG9yY2gucmFuZChiYXRjaF9zaXplLCBkaW0xLCBkaW0yKQogICAgcmV0dXJuIFt4XQoKZGVmIGdldF9pbml0X2lucHV0cygpOgogICAgcmV0dXJuIFsxXQoKIyA9PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PQojIGhpZXJhIGV4cGVydCBjYW5kaWRhdGUgKHJlZmVyZW5jZSBmb3J3YXJkIChlYWdlcikpOyBzdHJhdGVneSBSLnRvcmNoX2NvbXBpbGUuCiMgVGhlIHRhc2sncyBzb3VyY2UgaXMgYWJvdmUsIHZlcmJhdGltOyBNb2RlbE5ldyBzdWJjbGFzc2VzIGl0cyBNb2RlbCBzbyB0aGUgcGFyYW1ldGVyIG5hbWVzIG1hdGNoLgojID09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09CmltcG9ydCB0b3JjaCBhcyBfaGllcmFfdG9yY2gKCgpkZWYgX2hpZXJhX2Nsb25lKG91dCk6CiAgICBpZiBpc2luc3RhbmNlKG91dCwgKHR1cGxlLCBsaXN0KSk6CiAgICAgICAgcmV0dXJuIHR5cGUob3V0KShvLmNsb25lKCkgaWYgaXNpbnN0YW5jZShvLCBfaGllcmFfdG9yY2guVGVuc29yKSBlbHNlIG8gZm9yIG8gaW4gb3V0KQogICAgcmV0dXJuIG91dC5jbG9uZSgpIGlmIGlzaW5zdGFuY2Uob3V0LCBfaGllcmFfdG9yY2guVGVuc29yKSBlbHNlIG91dAoKCmNsYXNzIE1vZGVsTmV3KE1vZGVsKToKICAgICIiIlRoZSByZWZlcmVuY2UgZm9yd2FyZCB1bmNoYW5nZWQ6IGEgdmFsaWQgYmFzZWxpbmUgd2hlbiBub3RoaW5nIGZhc3RlciBhcHBsaWVzLiIiIgo=")
_module = None


def _candidate():
    """The optimized module, run once, as a module of its own (its classes pickle, dataclasses resolve)."""
    global _module
    if _module is None:
        module = types.ModuleType(__name__ + "._optimized")
        module.__file__ = os.path.join(os.path.dirname(os.path.abspath(__file__)), '51_Argmax_over_a_dimension_hiera.source.py.txt')
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
