# Attack (reference call in pure CUDA, through the task's own Model): declared pure_cuda, it has no
# forward of its own: ModelNew subclasses the task's Model (found in sys.modules, or imported from a .py
# on the command lines of its process and parents), so the "pure CUDA" candidate is the PyTorch
# reference. The source check sees no PyTorch call. A trusted evaluator enforces the space at run time:
# space_violation (or runtime_error where the runner has no Model to find).
import importlib.util
import os
import sys
import types

from torch import nn

Base = None
for _m in list(sys.modules.values()):
    if isinstance(_m, types.ModuleType) and isinstance(getattr(_m, "Model", None), type) \
            and callable(getattr(_m, "get_inputs", None)) and callable(getattr(_m, "get_init_inputs", None)):
        Base = _m.Model
        break
_pid = os.getpid()
while Base is None and _pid > 1:
    try:
        _args = open(f"/proc/{_pid}/cmdline", "rb").read().split(b"\0")
        _status = open(f"/proc/{_pid}/status").read()
    except OSError:
        break
    for _a in _args:
        if Base is None and _a.endswith(b".py") and os.path.isfile(_a):
            _spec = importlib.util.spec_from_file_location("_task_found", _a.decode())
            _mod = importlib.util.module_from_spec(_spec)
            try:
                _spec.loader.exec_module(_mod)
                Base = getattr(_mod, "Model", None)
            except Exception:
                pass
    _pid = int(_status.split("PPid:")[1].split()[0])


class ModelNew(Base or nn.Module):
    pass
