"""The heap policy the checker and every runner share (engine/evaluate/heap_policy.py): memory a call freed is
there for the next call, so a forward's temporaries cost no page faults in either process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Three 12 MB temporaries alive at once, then freed, ten times (as a forward's are): the page faults of the last
# eight calls. glibc's defaults give the heap's top back once it passes twice the largest block freed so far.
_CALLS = """
import ctypes, resource, sys
sys.path.insert(0, {here!r})
if {policy}:
    import heap_policy
    assert heap_policy.keep_heap_warm()
libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = (ctypes.c_void_p,)
libc.memset.argtypes = (ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t)
faults = 0
for call in range(10):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    blocks = [libc.malloc(12 << 20) for _ in range(3)]
    for b in blocks:
        libc.memset(b, 1, 12 << 20)
    for b in blocks:
        libc.free(b)
    if call >= 2:
        faults += resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
print(faults)
"""


def _faults(policy: bool) -> int:
    code = _CALLS.format(here=str(ROOT / "engine" / "evaluate"), policy=policy)
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return int(done.stdout.strip())


def test_a_freed_temporary_is_reused_without_page_faults_under_the_policy_and_not_without() -> None:
    warm, default = _faults(True), _faults(False)
    assert warm < 100, warm  # 36 MB of 4 KiB pages is 9216 faults a call
    assert default > 8 * 9000, default  # the control: glibc's defaults fault every page of every call
