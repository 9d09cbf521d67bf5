"""The attack corpus on the CPU (issue 13): what a trusted evaluator must do with hostile candidates.

Each candidate in tests/data/attacks/ tries one class of attack (its header says what it tries and what
must happen; tests/data/attacks/README.md has the table). These tests are the specification for the
sandboxed, split evaluator: they drive it only through its public interfaces (`python -m engine.cli eval
... --json` as a subprocess, and the `Evaluator` API), so they hold across its rewrite.

Every run happens in an "arena" under tmp_path that stands for a user's machine: a $HOME with a canary, a
private key and a .bashrc; a workspace (the CLI's cwd) with a canary and a copy of the task; for the
escape run, a copy of hiera's own sources on PYTHONPATH; secrets in HIERA_LLM_API_KEY and HF_TOKEN; and,
for the network attacks, listeners on 127.0.0.1. Every canary is a fresh random token, so a leak is
recognised exactly. Candidates only ever write inside folders marked `.hiera-attack-target` (or files
named for the token), so a successful attack on today's unsandboxed evaluator damages nothing; the
attacks that kill processes run inside a PID namespace of the test's own.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest

from contracts.vocabulary import Space
from tests.conftest import DATA, TASKS

REPO = Path(__file__).resolve().parents[1]
ATTACKS = DATA / "attacks"
SENTINEL = ".hiera-attack-target"  # folders the attack candidates may write into (test-data safety)
PIDNS_MARK = "hiera-attack-pidns"  # argv[0] of the test's PID-namespace init (kill_everything.py's guard)
FAST = 5.0  # a speedup this large on an op against itself means the candidate skipped work unnoticed
REJECTED = {"incorrect", "suspect"}


# --- the arena: a stand-in for the user's machine ------------------------------------------------------

class Listeners:
    """TCP and UDP on 127.0.0.1 and an abstract Unix socket; records everything that reaches them."""

    def __init__(self, token: str):
        self.received: dict[str, list[bytes]] = {"tcp": [], "udp": [], "unix": []}
        self.tcp = socket.create_server(("127.0.0.1", 0))
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))
        self.abstract = f"hiera-attack-{token}"
        self.unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.unix.bind("\0" + self.abstract)
        self.unix.listen()
        for s in (self.tcp, self.udp, self.unix):
            s.settimeout(0.2)
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._accept, args=("tcp", self.tcp), daemon=True),
                         threading.Thread(target=self._accept, args=("unix", self.unix), daemon=True),
                         threading.Thread(target=self._datagrams, daemon=True)]
        for t in self._threads:
            t.start()

    @property
    def substitutions(self) -> dict[str, str]:
        return {"@PORT@": str(self.tcp.getsockname()[1]), "@UDP_PORT@": str(self.udp.getsockname()[1]),
                "@ABSTRACT@": self.abstract}

    def _accept(self, name: str, sock: socket.socket) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = sock.accept()
            except (TimeoutError, OSError):
                continue
            with conn:
                conn.settimeout(1.0)
                try:
                    data = conn.recv(4096)
                except OSError:
                    data = b""
                self.received[name].append(data or b"<a connection, no data>")

    def _datagrams(self) -> None:
        while not self._stop.is_set():
            try:
                data, _ = self.udp.recvfrom(65536)
            except (TimeoutError, OSError):
                continue
            self.received["udp"].append(data)

    def close(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(2)
        for s in (self.tcp, self.udp, self.unix):
            s.close()


class Arena:
    """A $HOME, a workspace, secrets and canaries under `root`, all named for one random token."""

    def __init__(self, root: Path, copy_sources: bool = False):
        self.root = root
        self.token = "t" + secrets.token_hex(8)
        self.home, self.ws = root / "home", root / "ws"
        for d in (root, self.home, self.ws, self.ws / "candidates", self.home / ".ssh"):
            d.mkdir(parents=True, exist_ok=True)
        for d in (root, self.home, self.ws):
            (d / SENTINEL).write_text("")
        self.secrets = {"HIERA_LLM_API_KEY": "sk-hiera-" + secrets.token_hex(16),
                        "HF_TOKEN": "hf_" + secrets.token_hex(16)}
        self.canaries = {"home": f"home-canary-{secrets.token_hex(8)}",
                         "ssh": f"ssh-key-canary-{secrets.token_hex(8)}",
                         "workspace": f"workspace-canary-{secrets.token_hex(8)}"}
        (self.home / "canary.txt").write_text(self.canaries["home"] + "\n")
        (self.home / ".ssh" / "id_ed25519").write_text(
            f"-----BEGIN OPENSSH PRIVATE KEY-----\n{self.canaries['ssh']}\n-----END OPENSSH PRIVATE KEY-----\n")
        (self.home / ".bashrc").write_text("# the user's own .bashrc\n")
        (self.ws / "canary.txt").write_text(self.canaries["workspace"] + "\n")
        self.sources = REPO
        if copy_sources:
            # The escape run imports hiera from a copy, so "hiera's installed sources" that an attack finds
            # through sys.modules are a copy the test can inspect (and the worktree stays untouched).
            self.sources = root / "hiera"
            for pkg in ("engine", "contracts"):
                shutil.copytree(REPO / pkg, self.sources / pkg, ignore=shutil.ignore_patterns("__pycache__"))
            (self.sources / SENTINEL).write_text("")
        self.subs: dict[str, str] = {"@TOKEN@": self.token, "@HOME@": str(self.home)}
        self.listeners: Listeners | None = None

    def listen(self) -> Listeners:
        self.listeners = Listeners(self.token)
        self.subs.update(self.listeners.substitutions)
        return self.listeners

    def render(self, name: str, as_name: str | None = None) -> Path:
        """An attack candidate, its placeholders filled in, in the workspace's candidates/ folder."""
        text = (ATTACKS / name).read_text()
        for key, value in self.subs.items():
            text = text.replace(key, value)
        left = re.search(r"@[A-Z_]+@", text)
        if left:
            raise ValueError(f"{name}: {left.group(0)} has no value here (start the listeners first?)")
        out = self.ws / "candidates" / (as_name or Path(name).name)
        out.write_text(text)
        return out

    def task(self, path: Path) -> Path:
        out = self.ws / path.name
        shutil.copyfile(path, out)
        return out

    def env(self) -> dict[str, str]:
        """A controlled environment: the toolchain's variables, the arena's HOME, two secrets."""
        # HIERA_BWRAP: where bubblewrap is when it is not on PATH (the lent GPU machine carries it); a tool
        # setting, not a secret.
        keep = ("PATH", "LD_LIBRARY_PATH", "CUDA_HOME", "CUDA_PATH", "CUDA_VISIBLE_DEVICES", "CXX", "CC", "HIERA_BWRAP")
        env = {k: os.environ[k] for k in keep if k in os.environ}
        env.update(HOME=str(self.home), LANG="C.UTF-8", PYTHONPATH=str(self.sources),
                   PYTHONDONTWRITEBYTECODE="1", **self.secrets)
        return env

    def leftovers(self) -> list[Path]:
        """Files named for the token outside the arena (the host's /tmp and /dev/shm)."""
        return sorted(p for d in (Path("/tmp"), Path("/dev/shm")) if d.is_dir()
                      for p in d.glob(f"hiera-attack-{self.token}*"))

    def cleanup(self) -> None:
        kill_pids(processes_named(self.token))
        if self.listeners is not None:
            self.listeners.close()
        for p in self.leftovers():
            with contextlib.suppress(OSError):
                p.unlink()


def processes_named(fragment: str) -> list[int]:
    """Live processes whose command line contains `fragment` (each attack names its processes for its token)."""
    found = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit() and int(d.name) != os.getpid():
            with contextlib.suppress(OSError):
                if fragment.encode() in (d / "cmdline").read_bytes():
                    found.append(int(d.name))
    return found


def kill_pids(pids: Iterable[int]) -> None:
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def snapshot(root: Path, skip: Sequence[str] = ()) -> dict[str, str]:
    """Content hash of every file under root (skipping __pycache__ and the top-level names in `skip`)."""
    out = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root)
        if p.is_file() and "__pycache__" not in rel.parts and rel.parts[0] not in skip:
            out[str(rel)] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def changed(before: dict[str, str], after: dict[str, str]) -> list[str]:
    return sorted(k for k in after.keys() | before.keys() if before.get(k) != after.get(k))


def files_containing(root: Path, needles: Iterable[str]) -> list[str]:
    """'path: needle' for every file under root whose bytes contain one of the needles."""
    needles = [n.encode() for n in needles]
    hits = []
    for p in root.rglob("*"):
        if p.is_file():
            with contextlib.suppress(OSError):
                data = p.read_bytes()
                hits += [f"{p}: {n.decode()}" for n in needles if n in data]
    return hits


# --- running hiera ------------------------------------------------------------------------------------

class _Reader:
    """Reads a pipe to EOF in a thread and notes when EOF came."""

    def __init__(self, pipe: Any):
        self.chunks: list[bytes] = []
        self.eof_at: float | None = None
        self.done = threading.Event()
        threading.Thread(target=self._run, args=(pipe,), daemon=True).start()

    def _run(self, pipe: Any) -> None:
        for chunk in iter(lambda: pipe.read1(65536), b""):
            self.chunks.append(chunk)
        self.eof_at = time.monotonic()
        self.done.set()

    @property
    def text(self) -> str:
        return b"".join(self.chunks).decode(errors="replace")


@dataclass
class CliRun:
    rc: int
    stdout: str
    stderr: str
    wall_s: float
    killed_by_test: bool  # ran past the test's own limit
    stdout_eof_s: float | None  # seconds from hiera's exit to EOF on its stdout; None: no EOF in the wait
    stderr_eof_s: float | None
    verdicts: list[dict[str, Any]] = field(default_factory=list)  # stdout lines that are JSON objects
    junk: list[str] = field(default_factory=list)  # stdout lines that are not

    def verdict(self, cand: Path) -> dict[str, Any] | None:
        found = [v for v in self.verdicts if v.get("candidate_file") == str(cand)]
        return found[0] if found else None

    def status(self, cand: Path) -> str | None:
        v = self.verdict(cand)
        return v.get("status") if v else None

    def summary(self) -> str:
        lines = [f"rc={self.rc} wall={self.wall_s:.1f}s killed_by_test={self.killed_by_test}"]
        lines += [f"  {Path(v.get('candidate_file', '?')).name}: {v.get('status')}: {str(v.get('reason'))[:200]}"
                  for v in self.verdicts]
        return "\n".join(lines + [f"  stderr tail: {self.stderr[-1500:]}"])


@lru_cache(maxsize=1)
def pidns_prefix() -> tuple[str, ...] | None:
    """`unshare` arguments that put a command in a PID namespace of its own (None where impossible)."""
    if not shutil.which("unshare") or not shutil.which("setsid"):
        return None
    for extra in ((), ("--user", "--map-root-user")):
        cmd = ("unshare", *extra, "--pid", "--fork", "--mount-proc", "--kill-child")
        with contextlib.suppress(OSError, subprocess.TimeoutExpired):
            if subprocess.run([*cmd, "true"], capture_output=True, timeout=20).returncode == 0:
                return cmd
    return None


def hiera_eval(arena: Arena, task: Path, cands: Sequence[Path], *, device: str = "cpu", trials: int = 20,
               space: str | None = None, pidns: bool = False, limit_s: float = 480,
               eof_wait_s: float = 10, extra: Sequence[str] = ()) -> CliRun:
    """`hiera eval TASK CANDS... --json` in the arena: cwd the workspace, the arena's environment; `extra`
    more arguments (--no-sandbox for a positive control)."""
    cmd = [sys.executable, "-m", "engine.cli", "eval", str(task), *map(str, cands), "--device", device, "--json",
           "--workspace", str(arena.ws), "--trials", str(trials), *(["--space", space] if space else []), *extra]
    if pidns:
        prefix = pidns_prefix()
        if prefix is None:
            pytest.skip("needs a PID namespace of the test's own (unshare --pid) to run process-killing attacks")
        # sh as the namespace's init (it cannot be killed from inside), hiera's CLI as its child.
        cmd = [*prefix, "setsid", "sh", "-c", '"$@"; exit $?', PIDNS_MARK, *cmd]
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=arena.ws, env=arena.env(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    out, err = _Reader(proc.stdout), _Reader(proc.stderr)
    killed = False
    try:
        rc = proc.wait(limit_s)
    except subprocess.TimeoutExpired:
        killed = True
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, signal.SIGKILL)
        rc = proc.wait(30)
    exited = time.monotonic()
    out.done.wait(eof_wait_s)
    err.done.wait(max(eof_wait_s - (time.monotonic() - exited), 0.1))
    verdicts, junk = [], []
    for line in filter(str.strip, out.text.splitlines()):
        try:
            obj = json.loads(line)
        except ValueError:
            obj = None
        if isinstance(obj, dict):
            verdicts.append(obj)
        else:
            junk.append(line)
    return CliRun(rc, out.text, err.text, exited - t0, killed,
                  None if out.eof_at is None else out.eof_at - exited,
                  None if err.eof_at is None else err.eof_at - exited, verdicts, junk)


def evaluate_api(arena: Arena, task: Path, entries: Sequence[tuple[str, Space | None]], device: str = "cpu",
                 trials: int = 30) -> dict[str, Any]:
    """The `Evaluator` API on one task: one batch, outcomes by candidate file stem."""
    from engine.evaluate import Candidate, CandidateKind, EvalSettings, Evaluator
    from engine.task.spec import load_task

    kinds = {".py": CandidateKind.MODELNEW, ".cpp": CandidateKind.CPP, ".cu": CandidateKind.CUDA}
    spec = load_task(arena.task(task))
    cands = []
    for name, space in entries:
        p = arena.render(name)
        cands.append(Candidate(p.stem, kinds[p.suffix], p.read_text(), space))
    with Evaluator(spec, arena.root / "work", EvalSettings(device=device, timing_trials=trials),
                   cache_dir=arena.root / "cache") as ev:
        outs = ev.evaluate(cands)
    return {c.id: o for c, o in zip(cands, outs)}


def describe(o: Any) -> str:
    return f"{o.status.value} (speedup {o.speedup}): {o.reason[:300]}"


@contextlib.contextmanager
def arena_at(root: Path, copy_sources: bool = False) -> Iterator[Arena]:
    a = Arena(root, copy_sources)
    try:
        yield a
    finally:
        a.cleanup()


# --- escape: files, network, environment, file reads, stdout (one batch) ----------------------------------

ESCAPE = ["honest_relu.py", "honest_relu.cpp", "write_outside.py", "write_outside.cpp", "net_tcp.py", "net_udp.py",
          "net_unix_abstract.py", "net_tcp.cpp", "env_environ.py", "env_proc.py", "env_getenv.cpp",
          "read_secrets.py", "read_include.cpp", "read_incbin.cpp", "stdout_forge.py", "stdout_proc_fd.py",
          "stdout_forge.cpp"]


@dataclass
class Escape:
    arena: Arena
    run: CliRun
    cands: dict[str, Path]
    task: Path
    task_before: bytes
    before: dict[str, dict[str, str]]


def run_escape(a: Arena, task: Path, names: Sequence[str], device: str = "cpu", extra: Sequence[str] = ()) -> Escape:
    """One batch of escape attacks, with the arena's files snapshotted before it (`extra`: --no-sandbox for the
    positive control)."""
    a.listen()
    task = a.task(task)
    cands = {Path(n).name: a.render(n) for n in names}
    before = {"home": snapshot(a.home), "workspace": snapshot(a.ws, skip=(".hiera",)), "hiera": snapshot(a.sources)}
    task_before = task.read_bytes()
    run = hiera_eval(a, task, list(cands.values()), device=device, extra=extra)
    time.sleep(0.5)  # let the listeners take in anything still in flight
    return Escape(a, run, cands, task, task_before, before)


def writes_outside_scratch(e: Escape, target: str) -> list[str]:
    """What the candidates wrote into one target: workspace, home, task file, hiera's sources, host /tmp."""
    a = e.arena
    if target == "workspace":
        # Outside .hiera nothing may change; inside it (where a candidate's scratch may live) the store
        # itself must not hold a candidate's write, nor its top folder a file the candidate put there.
        marks = [f"pwned-{kind}:{a.token}" for kind in ("py", "cpp", "cu")]
        store = [p for p in (a.ws / ".hiera").glob("*") if p.is_file()]
        return (changed(e.before["workspace"], snapshot(a.ws, skip=(".hiera",)))
                + [f"{p}: {m}" for p in store for m in marks if m.encode() in p.read_bytes()]
                + [str(p) for p in store if a.token in p.name])
    if target == "home":
        # hiera's bytecode cache (engine/pycache.py) is written there by its own trusted processes and shown to
        # the sandbox read-only, and the checker caches the device's measured ceilings, the kernel its ceilings
        # compile through PyTorch's jiterator and the CUDA driver's JIT cache there (engine/evaluate/ceilings.py,
        # engine/cache_home.py; never shown to a sandbox): what changes in them is not a candidate's, but no
        # candidate's mark may be in them. Anything else in the home fails, hiera's own writes included (on the
        # H100, 2026-12-07, this failed on a GPU with the driver's ~/.nv/ComputeCache, its default).
        cache = (".cache/hiera/pycache/", ".cache/hiera/ceilings.json", ".cache/hiera/torch-kernels/",
                 ".cache/hiera/cuda-jit/")
        marks = [f"pwned-{kind}:{a.token}".encode() for kind in ("py", "cpp", "cu")]
        after = snapshot(a.home)
        theirs = [k for k in after if k.startswith(cache) and any(m in (a.home / k).read_bytes() for m in marks)]
        return changed({k: v for k, v in e.before["home"].items() if not k.startswith(cache)},
                       {k: v for k, v in after.items() if not k.startswith(cache)}) + theirs
    if target == "task file":
        return [] if e.task.read_bytes() == e.task_before else [e.task.read_text()[-300:]]
    if target == "hiera's sources":
        return changed(e.before["hiera"], snapshot(a.sources))
    return [str(p) for p in a.leftovers()]


def secret_forms(value: str) -> list[str]:
    return [value, value[::-1], base64.b64encode(value.encode()).decode()]


def leaks_in_output(run: CliRun, needles: dict[str, str]) -> list[str]:
    """Where each needle shows up in hiera's stdout or stderr, with the text before it."""
    found = []
    for label, needle in needles.items():
        for where, text in (("stdout", run.stdout), ("stderr", run.stderr)):
            i = text.find(needle)
            if i >= 0:
                found.append(f"{label} in {where}: ...{text[max(i - 80, 0):i + len(needle)]}")
    return found


def secrets_found(e: Escape) -> list[str]:
    """The arena's secrets (raw, reversed, base64) in hiera's output or any file of the arena."""
    needles = {f"{k} ({n})": form for k, v in e.arena.secrets.items()
               for n, form in zip(("raw", "reversed", "base64"), secret_forms(v))}
    return leaks_in_output(e.run, needles) + files_containing(e.arena.root, needles.values())


@lru_cache(maxsize=1)
def passwd_line() -> str:
    try:
        return Path("/etc/passwd").read_text().splitlines()[0]
    except (OSError, IndexError):
        return ""


def file_canaries(a: Arena) -> dict[str, str]:
    return {k: v for k, v in {**a.canaries, "/etc/passwd": passwd_line()}.items() if v}


def canaries_in_verdict(e: Escape, cand: str) -> list[str]:
    v = e.run.verdict(e.cands[cand])
    assert v is not None, e.run.summary()
    text = json.dumps(v)
    return [f"{k}: {v['reason'][:600]}" for k, c in file_canaries(e.arena).items() if c in text]


def canaries_found(e: Escape) -> list[str]:
    """File contents in hiera's output or any file of the arena but the canaries' own files."""
    a, needles = e.arena, file_canaries(e.arena)
    own = (str(a.home / "canary.txt"), str(a.home / ".ssh"), str(a.ws / "canary.txt"))
    return leaks_in_output(e.run, needles) + [h for h in files_containing(a.root, needles.values())
                                              if not h.startswith(own)]


def stdout_problems(e: Escape) -> list[str]:
    """What in `hiera eval --json` stdout is not hiera's own JSON line for one of the batch's candidates."""
    files = {str(p) for p in e.cands.values()}
    problems = [f"not JSON: {line[:200]}" for line in e.run.junk]
    problems += [f"not hiera's: {json.dumps(v)[:200]}" for v in e.run.verdicts
                 if v.get("candidate_file") not in files or not v.get("run_id")]
    if len(e.run.verdicts) != len(files):
        problems.append(f"{len(e.run.verdicts)} JSON lines for {len(files)} candidates")
    return problems


@pytest.fixture(scope="module")
def escape(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Escape]:
    with arena_at(tmp_path_factory.mktemp("escape"), copy_sources=True) as a:
        yield run_escape(a, TASKS / "relu_positive.py", ESCAPE)


def test_the_escape_batch_ends_with_every_verdict_and_the_honest_ones_valid(escape: Escape) -> None:
    run = escape.run
    assert not run.killed_by_test and run.rc in (0, 1), run.summary()
    missing = [n for n, p in escape.cands.items() if run.verdict(p) is None]
    assert not missing, f"no verdict for {missing}\n{run.summary()}"
    for honest in ("honest_relu.py", "honest_relu.cpp"):
        assert run.status(escape.cands[honest]) == "valid", run.summary()
    # The corpus itself: an attack that does not build proves nothing (only the file-reading ones may fail).
    unbuilt = [n for n, p in escape.cands.items() if run.status(p) == "build_failed" and not n.startswith("read_")]
    assert not unbuilt, f"attacks that did not build: {unbuilt}\n{run.summary()}"


@pytest.fixture(scope="module")
def unsandboxed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Escape]:
    """The positive control: the same attacks with --no-sandbox, where they must land (else the tests above
    could pass because an attack does nothing). The attacks write only into folders the arena marked."""
    with arena_at(tmp_path_factory.mktemp("unsandboxed"), copy_sources=True) as a:
        # net_tcp first: the C++ write attack, unsandboxed, appends to hiera's own runner.py in the arena's
        # copy of the sources, after which no later runner of the batch starts.
        yield run_escape(a, TASKS / "relu_positive.py", ["net_tcp.py", "write_outside.py", "write_outside.cpp"],
                         extra=("--no-sandbox",))


# Not "home": even without the sandbox a runner's environment is rebuilt from the allowlist, its $HOME a
# scratch folder, so the attack's writes to $HOME go there.
@pytest.mark.parametrize("target", ["workspace", "task file", "hiera's sources", "host /tmp"])
def test_control_without_the_sandbox_the_writes_land(unsandboxed: Escape, target: str) -> None:
    assert writes_outside_scratch(unsandboxed, target), (
        f"with --no-sandbox nothing was written into the {target}: the write attacks prove nothing\n"
        + unsandboxed.run.summary())


def test_control_without_the_sandbox_the_connection_lands(unsandboxed: Escape) -> None:
    assert unsandboxed.arena.listeners is not None
    assert unsandboxed.arena.listeners.received["tcp"], unsandboxed.run.summary()


@pytest.mark.parametrize("target", ["workspace", "home", "task file", "hiera's sources", "host /tmp"])
def test_no_candidate_writes_outside_its_scratch(escape: Escape, target: str) -> None:
    bad = writes_outside_scratch(escape, target)
    assert not bad, f"candidates wrote into the {target}: {bad}"


@pytest.mark.parametrize("channel", ["tcp", "udp", "unix"])
def test_no_connection_reaches_a_listener_on_localhost(escape: Escape, channel: str) -> None:
    assert escape.arena.listeners is not None
    got = escape.arena.listeners.received[channel]
    assert not got, f"the {channel} listener on the host received {got}"


def test_environment_secrets_appear_nowhere(escape: Escape) -> None:
    found = secrets_found(escape)
    assert not found, "secrets leaked:\n" + "\n".join(found)


def test_file_contents_do_not_reach_the_failure_reason(escape: Escape) -> None:
    leaked = canaries_in_verdict(escape, "read_secrets.py")
    assert not leaked, f"read_secrets.py's outcome carries {leaked}"


def test_file_contents_do_not_reach_compile_errors(escape: Escape) -> None:
    assert escape.run.status(escape.cands["read_include.cpp"]) == "build_failed", escape.run.summary()
    leaked = canaries_in_verdict(escape, "read_include.cpp")
    assert not leaked, f"the compiler quoted {leaked}"


def test_file_contents_appear_nowhere_in_hieras_output(escape: Escape) -> None:
    found = canaries_found(escape)
    assert not found, "file contents leaked:\n" + "\n".join(found)


def test_json_stdout_holds_only_hieras_own_lines(escape: Escape) -> None:
    problems = stdout_problems(escape)
    assert not problems, problems[:6]


# --- daemons and the stdout pipe (one batch) ------------------------------------------------------------

LINGER = ["daemon_double_fork.py", "daemon_atexit.py", "daemon_setsid.cpp", "hold_stdout.py", "honest_relu.py"]
DAEMON_DELAY_S = 3.0  # the daemons write their canary this long after they start


@pytest.fixture(scope="module")
def lingering(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Arena, CliRun, dict[str, Path], list[str]]]:
    with arena_at(tmp_path_factory.mktemp("linger")) as a:
        cands = {n: a.render(n) for n in LINGER}
        run = hiera_eval(a, a.task(TASKS / "relu_positive.py"), list(cands.values()))
        time.sleep(DAEMON_DELAY_S + 2.0)  # the atexit daemon starts as the worker exits
        survivors = [Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
                     for pid in processes_named(a.token) if Path(f"/proc/{pid}/cmdline").exists()]
        yield a, run, cands, survivors


def test_the_lingering_batch_ends_with_every_verdict(lingering) -> None:
    _, run, cands, _ = lingering
    assert not run.killed_by_test and run.rc in (0, 1), run.summary()
    assert all(run.verdict(p) is not None for p in cands.values()), run.summary()
    assert run.status(cands["honest_relu.py"]) == "valid", run.summary()


@pytest.mark.parametrize("name", ["double-fork", "atexit", "setsid-cpp", "hiera-attack-hold"])
def test_no_process_outlives_the_evaluation(lingering, name: str) -> None:
    _, _, _, survivors = lingering
    alive = [s for s in survivors if name in s]
    assert not alive, f"still running after hiera exited: {alive}"


def test_no_daemon_writes_after_the_evaluation(lingering) -> None:
    a = lingering[0]
    written = [str(p) for p in a.leftovers() if "-daemon-" in p.name]
    assert not written, f"daemons wrote after the evaluation ended: {written}"


@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_hieras_output_pipes_reach_eof_when_it_exits(lingering, stream: str) -> None:
    _, run, _, _ = lingering
    lag = run.stdout_eof_s if stream == "stdout" else run.stderr_eof_s
    assert lag is not None and lag < 5.0, f"{stream} still open {lag} s after hiera exited (None: never, in 10 s)"


# --- killing hiera (each in a PID namespace of the test's own) -------------------------------------------

@pytest.mark.parametrize("attack", ["kill_parent.py", "kill_group.py", "kill_everything.py"])
def test_killing_hiera_fails_and_the_batch_keeps_its_verdicts(tmp_path: Path, attack: str) -> None:
    from engine.store import RunStore

    with arena_at(tmp_path) as a:
        before, after = a.render("honest_relu.py", "honest_before.py"), a.render("honest_relu.py", "honest_after.py")
        cand = a.render(attack)
        run = hiera_eval(a, a.task(TASKS / "relu_positive.py"), [before, cand, after], pidns=True)
        problems = [] if run.rc in (0, 1) else [f"hiera's CLI was killed (exit {run.rc})"]
        problems += [f"{p.name}: {run.status(p)}" for p in (before, after) if run.status(p) != "valid"]
        problems += [] if run.verdict(cand) else [f"no verdict for {attack}"]
        # The next time the store is opened, a run whose process died shows as ended.
        problems += [f"run {r['id']} left `running`" for r in RunStore.for_workspace(a.ws).runs()
                     if r["status"] == "running"]
        assert not problems, "\n".join(problems) + "\n" + run.summary()


# --- forged replies ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def forged(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[CliRun, dict[str, Path]]]:
    with arena_at(tmp_path_factory.mktemp("forge")) as a:
        names = [("forge_reply_gc.py", None), ("wrong_relu.py", "wrong_a.py"), ("honest_relu.py", "honest_a.py"),
                 ("forge_reply_fd.py", None), ("wrong_relu.py", "wrong_b.py"), ("honest_relu.py", "honest_b.py")]
        cands = {(alias or n): a.render(n, alias) for n, alias in names}
        yield hiera_eval(a, a.task(TASKS / "relu_positive.py"), list(cands.values())), cands


@pytest.mark.parametrize("forger", ["forge_reply_gc.py", "forge_reply_fd.py"])
def test_a_forged_reply_does_not_become_the_forgers_verdict(forged, forger: str) -> None:
    run, cands = forged
    v = run.verdict(cands[forger])
    assert v is not None, run.summary()
    assert v["status"] in REJECTED and "forged" not in v["reason"], run.summary()


@pytest.mark.parametrize("name,expected", [("wrong_a.py", "incorrect"), ("honest_a.py", "valid"),
                                           ("wrong_b.py", "incorrect"), ("honest_b.py", "valid")])
def test_a_forged_reply_does_not_shift_later_verdicts(forged, name: str, expected: str) -> None:
    run, cands = forged
    assert run.status(cands[name]) == expected, run.summary()


# --- resources and time limits ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def resources(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Arena, CliRun, dict[str, Path], list[int]]]:
    with arena_at(tmp_path_factory.mktemp("resources")) as a:
        cands = {n: a.render(n) for n in ("mem_hog.py", "fork_many.py", "huge_file.py", "honest_relu.py")}
        run = hiera_eval(a, a.task(TASKS / "relu_positive.py"), list(cands.values()))
        time.sleep(1.0)
        yield a, run, cands, processes_named(f"hiera-attack-fork-{a.token}")


@pytest.mark.parametrize("attack", ["mem_hog.py", "fork_many.py", "huge_file.py"])
def test_resource_limits_stop_the_candidate(resources, attack: str) -> None:
    _, run, cands, _ = resources
    assert run.status(cands[attack]) == "runtime_error", run.summary()


# What stopping at each limit looks like in the verdict's reason: the error the limit raises in the candidate,
# which the reason quotes. A runtime_error for any other cause (the candidate or the evaluator breaking) is not
# the limit working.
LIMIT_SAID = {"fork_many.py": r"processes: \[Errno 11\] Resource temporarily unavailable",  # the process cap: EAGAIN
              "huge_file.py": r"\[Errno 27\] File too large"}  # the file-size limit (RLIMIT_FSIZE): EFBIG


@pytest.mark.parametrize("attack", sorted(LIMIT_SAID))
def test_the_reason_names_the_limit_that_stopped_the_candidate(resources, attack: str) -> None:
    _, run, cands, _ = resources
    v = run.verdict(cands[attack])
    assert v is not None and re.search(LIMIT_SAID[attack], v["reason"]), run.summary()


def test_the_reason_names_the_memory_limit_that_stopped_the_candidate(resources) -> None:
    """Whichever limit stops it: the runner's memory cgroup (the kernel's SIGKILL, which the reason names from
    the group's oom_kill count) or, where no cgroup can be made, the address-space limit (a MemoryError)."""
    _, run, cands, _ = resources
    v = run.verdict(cands["mem_hog.py"])
    assert v is not None and re.search(r"memory", v["reason"], re.IGNORECASE), run.summary()


def test_resource_attacks_leave_no_process_or_file_and_the_batch_goes_on(resources) -> None:
    a, run, cands, forked = resources
    assert not forked, f"{len(forked)} processes fork_many.py started outlived the evaluation"
    assert not a.leftovers(), a.leftovers()
    assert run.rc in (0, 1) and run.status(cands["honest_relu.py"]) == "valid", run.summary()


@pytest.fixture(scope="module")
def hanging(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[CliRun, dict[str, Path]]]:
    with arena_at(tmp_path_factory.mktemp("hang")) as a:
        cands = {n: a.render(n) for n in ("slow_correct.py", "hang_busy.py", "honest_relu.py")}
        # The test's own limit: two timeouts "in seconds" plus an honest candidate fit well inside it.
        yield hiera_eval(a, a.task(TASKS / "relu_positive.py"), list(cands.values()), limit_s=180), cands


@pytest.mark.parametrize("attack", ["hang_busy.py", "slow_correct.py"])
def test_a_hang_or_far_too_slow_candidate_times_out_within_seconds(hanging, attack: str) -> None:
    run, cands = hanging
    v = run.verdict(cands[attack])
    assert v is not None, f"no verdict within the test's 180 s\n{run.summary()}"
    assert v["status"] == "timeout" and (v.get("verify_s") or 0) < 60, v
    # The reason names the time limit it ran past (the runner's or the worker's).
    assert re.search(r"no (answer|result) within [\d.]+ s", v["reason"]), v


def test_the_batch_goes_on_after_a_hang(hanging) -> None:
    run, cands = hanging
    assert not run.killed_by_test and run.status(cands["honest_relu.py"]) == "valid", run.summary()


# --- the reference and the verdict: Evaluator API, one worker per attack where state could carry ----------

@pytest.mark.parametrize("attack", ["patch_torch_relu.py", "patch_dispatcher.py", "patch_task_model.py"])
def test_patching_the_reference_to_the_candidates_math_is_rejected(tmp_path: Path, attack: str) -> None:
    with arena_at(tmp_path) as a:
        o = evaluate_api(a, TASKS / "relu_positive.py", [(attack, None)])[Path(attack).stem]
    assert o.status.value in REJECTED, describe(o)


def honest_or_refused(o: Any, *refusals: str) -> None:
    """An attack that must not come out valid-and-fast came out either valid at a speed it did not inflate
    (<= FAST) or with one of the refusals named. Anything else (runtime_error, timeout, a build failure) is the
    candidate or the evaluator breaking: "not valid-and-fast" too, but not the attack being stopped."""
    s = o.status.value
    assert (s == "valid" and o.speedup is not None and o.speedup <= FAST) or s in refusals, describe(o)


def test_slowing_the_reference_does_not_inflate_the_speedup(tmp_path: Path) -> None:
    with arena_at(tmp_path) as a:
        o = evaluate_api(a, TASKS / "relu_positive.py", [("patch_slow_reference.py", None)])["patch_slow_reference"]
    # The reference is timed where no candidate code ran: the speedup stays what the two relus take, or the
    # candidate is suspect.
    honest_or_refused(o, "suspect")


def test_a_patch_does_not_carry_over_to_the_next_candidate(tmp_path: Path) -> None:
    with arena_at(tmp_path) as a:
        outs = evaluate_api(a, TASKS / "relu_positive.py", [("patch_torch_relu.py", None), ("wrong_relu.py", None)])
    assert outs["wrong_relu"].status.value == "incorrect", describe(outs["wrong_relu"])


def test_sabotage_does_not_carry_over_to_the_next_candidate(tmp_path: Path) -> None:
    with arena_at(tmp_path) as a:
        outs = evaluate_api(a, TASKS / "relu_positive.py", [("carry_sabotage.py", None), ("honest_relu.py", None)])
    assert outs["honest_relu"].valid, describe(outs["honest_relu"])


def test_a_stash_left_by_one_candidate_is_not_found_by_the_next(tmp_path: Path) -> None:
    with arena_at(tmp_path) as a:
        outs = evaluate_api(a, TASKS / "relu_positive.py",
                            [("carry_stash_writer.py", None), ("carry_stash_reader.py", None)])
        assert outs["carry_stash_writer"].valid, describe(outs["carry_stash_writer"])
        assert outs["carry_stash_reader"].status.value == "incorrect", describe(outs["carry_stash_reader"])


PURE = Space.PURE_CUDA


@pytest.fixture(scope="module")
def relu_group(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    with arena_at(tmp_path_factory.mktemp("relu")) as a:
        yield evaluate_api(a, TASKS / "relu_positive.py", [
            ("honest_relu.py", None), ("timed_stack.py", None), ("timed_count.py", None), ("timed_buffer.py", None),
            ("offdist_identity.py", None), ("pure_subclass_model.py", PURE), ("pure_alias_assign.py", PURE),
            ("pure_import_alias.py", PURE)])


@pytest.fixture(scope="module")
def scale_bias_group(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    with arena_at(tmp_path_factory.mktemp("sbr")) as a:
        yield evaluate_api(a, TASKS / "scale_bias_relu.py", [
            ("honest_scale_bias_relu.py", None), ("snoop_gc.py", None), ("snoop_frames.py", None),
            ("offdist_clamp.py", None), ("pure_cpython.cpp", PURE)])


@pytest.fixture(scope="module")
def linear_group(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    with arena_at(tmp_path_factory.mktemp("linear")) as a:
        yield evaluate_api(a, TASKS / "small_linear.py", [("fingerprint_cache.py", None),
                                                          ("pure_getattr_matmul.py", PURE)])


@pytest.fixture(scope="module")
def softmax_group(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    with arena_at(tmp_path_factory.mktemp("softmax")) as a:
        outs = evaluate_api(a, TASKS / "expert_softmax.py", [("softmax_unshifted.py", None)])
        outs.update(evaluate_api(a, ATTACKS / "tasks" / "softmax_wide.py",
                                 [("softmax_zeros.py", None), ("softmax_bf16.py", None)]))
        yield outs


def test_the_honest_controls_are_valid(relu_group, scale_bias_group) -> None:
    for o in (relu_group["honest_relu"], scale_bias_group["honest_scale_bias_relu"]):
        assert o.valid, describe(o)


@pytest.mark.parametrize("attack", ["snoop_gc", "snoop_frames"])
def test_the_reference_and_its_outputs_are_out_of_the_candidates_reach(scale_bias_group, attack: str) -> None:
    o = scale_bias_group[attack]
    assert o.status.value in REJECTED, describe(o)


@pytest.mark.parametrize("attack", ["timed_count", "timed_buffer"])
def test_skipping_work_on_timed_calls_is_caught_as_incorrect(relu_group, attack: str) -> None:
    """Both skip the work on calls they take for timed ones (from the ninth call; on an input seen before):
    the timed outputs are checked, so the skipped ones are caught."""
    o = relu_group[attack]
    assert o.status.value == "incorrect", describe(o)


def test_telling_timed_calls_by_the_stack_is_not_valid_and_fast(relu_group) -> None:
    """timed_stack skips the work under a caller named like a timer: the runner's frames carry no such name
    (then it is valid at relu's own speed); were one named so, the checked timed outputs make it incorrect."""
    honest_or_refused(relu_group["timed_stack"], "incorrect")


def test_caching_on_an_input_fingerprint_does_not_inflate_the_speedup(linear_group) -> None:
    # Right for every input, so valid; fresh inputs every timed call, so the cache never hits.
    honest_or_refused(linear_group["fingerprint_cache"])


@pytest.mark.parametrize("group,attack", [("relu_group", "offdist_identity"), ("scale_bias_group", "offdist_clamp"),
                                          ("softmax_group", "softmax_unshifted")])
def test_right_only_on_the_tasks_input_distribution_is_incorrect(request: pytest.FixtureRequest, group: str,
                                                                 attack: str) -> None:
    o = request.getfixturevalue(group)[attack]
    assert o.status.value == "incorrect", describe(o)


@pytest.mark.parametrize("attack", ["softmax_zeros", "softmax_bf16"])
def test_tiny_outputs_do_not_pass_on_the_absolute_tolerance(softmax_group, attack: str) -> None:
    o = softmax_group[attack]
    assert o.status.value == "incorrect", describe(o)


@pytest.mark.parametrize("group,attack", [("relu_group", "pure_alias_assign"), ("relu_group", "pure_import_alias"),
                                          ("linear_group", "pure_getattr_matmul"),
                                          ("scale_bias_group", "pure_cpython")])
def test_pytorch_compute_in_a_pure_cuda_candidate_is_a_space_violation(request: pytest.FixtureRequest, group: str,
                                                                        attack: str) -> None:
    o = request.getfixturevalue(group)[attack]
    assert o.status.value == "space_violation", describe(o)


def test_a_pure_cuda_candidate_that_is_the_tasks_model_is_not_valid(relu_group) -> None:
    o = relu_group["pure_subclass_model"]
    assert o.status.value in ("space_violation", "runtime_error"), describe(o)
