# Attack (files outside scratch): on import, writes a canary into the workspace (the current directory
# and its .hiera store), $HOME (a new file and a line appended to ~/.bashrc), the task file, hiera's own
# sources (beside engine/ and contracts/) and /tmp. A trusted evaluator lets none of these writes land.
import os
import sys
import tempfile
import types
from pathlib import Path

import torch
from torch import nn

TOKEN = "@TOKEN@"
MARK = "pwned-py:" + TOKEN  # built at run time: the literal never appears in this source


def _may_write(path):
    # Test-data safety (this file runs unsandboxed today): only folders the test marked, or a file
    # named for this test's token, are ever written.
    path = path.resolve()
    return TOKEN in path.name or any((p / ".hiera-attack-target").exists() for p in path.parents)


def _write(path, append=False):
    try:
        if _may_write(path):
            with open(path, "a" if append else "w") as f:
                f.write(("\n# " if append else "") + MARK + "\n")
    except OSError:
        pass


def _cmdline_files():
    """.py files named on this process's and its parents' command lines (the task, the candidates)."""
    found, pid = [], os.getpid()
    for _ in range(4):
        try:
            args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            break
        found += [Path(a.decode(errors="replace")) for a in args if a.endswith(b".py")]
        pid = int(next(ln.split()[1] for ln in status.splitlines() if ln.startswith("PPid:")))
        if pid <= 1:
            break
    return found


def _attack():
    _write(Path.cwd() / f"pwned-{TOKEN}.txt")
    _write(Path.cwd() / ".hiera" / f"pwned-{TOKEN}.txt")
    home = Path(os.path.expanduser("~"))
    _write(home / f"pwned-{TOKEN}.txt")
    _write(home / ".bashrc", append=True)
    _write(Path(tempfile.gettempdir()) / f"hiera-attack-{TOKEN}-tmp.txt")
    for m in list(sys.modules.values()):
        f = getattr(m, "__file__", None)
        if f and isinstance(m, types.ModuleType) and isinstance(getattr(m, "Model", None), type) and callable(getattr(m, "get_inputs", None)):
            _write(Path(f), append=True)  # the task file: the next run's reference would change
    for f in _cmdline_files():
        if f.name != Path(__file__).name and f.is_file():
            _write(f, append=True)
    for name in ("engine", "contracts"):
        m = sys.modules.get(name)
        if m is not None and getattr(m, "__file__", None):
            pkg = Path(m.__file__).parent
            _write(pkg / f"pwned_{TOKEN}.py")
            _write(pkg / "__init__.py", append=True)


_attack()


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        return torch.relu(x)
