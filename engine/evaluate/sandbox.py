"""The sandbox every process that compiles or runs candidate code starts in: bubblewrap, configured here.

What it gives (README, "How candidates are judged"):
- no network: a network namespace of its own with nothing but a loopback that is down;
- a file system read-only except one per-candidate scratch folder (`/sandbox`), built up from the system's
  own folders (/usr, /lib...), the Python installation and what the step needs (the toolchain for a build,
  the device nodes for a GPU run); the user's home, the workspace, /etc (but for the dynamic loader's
  files and a made-up passwd), hiera's own sources and every other folder are not there at all;
- an environment rebuilt from an allowlist (no keys, tokens or HIERA_* variables reach it);
- an unprivileged user: its own user namespace (uid 65534 inside, your uid outside) when hiera runs as
  you; when hiera runs as root, the real host uid 65534 (nobody), dropped to by `setpriv` before anything
  else runs (a user namespace would map the sandbox to root outside, and root-only files in bound folders,
  /sys/firmware/acpi/tables/DSDT say, would be readable by owner match);
- the host's own host name and the user's name (in its UTS namespace, /etc/hosts, a passwd entry for its uid
  and $USER): a kernel that checks who and where it runs sees what it would see in the user's process;
- its own PID, IPC, UTS and cgroup namespaces, a new session (no terminal to write into), all capabilities
  dropped, and death with its parent: when the checker ends a candidate, every process the candidate
  started ends with it, and nothing inside can see, signal or trace a process outside;
- /sys only where it is needed (a GPU process gets it whole; a CPU runner /sys/devices/system; the compiler
  none: the host's network addresses are under /sys/class/net);
- sizes: /tmp, /dev/shm and a runner's scratch are memory file systems of a fixed size (a candidate cannot
  fill the host's disk); resource limits the runner sets on itself before any candidate code loads (file
  size, CPU time, core dumps; address space on the CPU path) and the compiler gets from `ulimit`, with a
  control group per process tree where one can be made (cgroups.py).

What it does not give: a limit on GPU memory (a candidate can allocate the card's memory; the checker's
own allocations are made first and a failure is that candidate's outcome), nor a system-call filter
(seccomp). Without bubblewrap hiera refuses to evaluate unless the user opts out (`--no-sandbox`).
"""

from __future__ import annotations

import functools
import glob
import logging
import os
import shutil
import site
import subprocess
import sys
import sysconfig
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from engine.untrusted import register_host_path

ENV_BWRAP = "HIERA_BWRAP"
SCRATCH = "/sandbox"  # the per-candidate read-write folder, as the sandbox sees it (also cwd and HOME)
HIERA_DIR = "/hiera"  # runner.py and wire.py, bound read-only
NOBODY = 65534  # the uid and gid a sandboxed process runs as

# Variables passed through when set: device selection, threading and the NCCL/NVSHMEM safety settings of
# multi-GPU hosts. Everything else is dropped; paths the sandbox needs are set explicitly.
PASS_ENV = ("CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER", "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES",
            "LD_LIBRARY_PATH", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "TZ", "TORCH_SYMM_MEM_DISABLE_MULTICAST")
PASS_ENV_PREFIXES = ("NCCL_", "NVSHMEM_")

# Folders of the base system, bound read-only where they exist (merged-/usr systems have symlinks instead).
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# Files of /etc that programs need to start (the loader's cache, compiler alternatives); nothing else of /etc.
ETC_FILES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime", "os-release")


class SandboxUnavailable(RuntimeError):
    """The sandbox cannot be set up here; the message says why and what to do."""


_INSTALL_HINT = ("install bubblewrap (Debian/Ubuntu: `apt install bubblewrap`; scripts/setup.sh does it where it "
                 f"can) or point {ENV_BWRAP} at a bwrap binary; to run candidates without a sandbox, with your "
                 "own user's rights over your files and network, pass --no-sandbox (editor: hiera.sandbox = false)")


def find_bwrap() -> str:
    explicit = os.environ.get(ENV_BWRAP)
    if explicit:
        if not os.access(explicit, os.X_OK):
            raise SandboxUnavailable(f"{ENV_BWRAP}={explicit} is not an executable file; {_INSTALL_HINT}")
        return explicit
    found = shutil.which("bwrap")
    if found:
        return found
    raise SandboxUnavailable("bubblewrap (bwrap) was not found, so candidate code cannot be sandboxed: "
                             + _INSTALL_HINT)


@dataclass(frozen=True)
class Bind:
    source: str
    dest: str
    writable: bool = False
    device: bool = False


@dataclass(frozen=True)
class Policy:
    """What one sandboxed process may see and use."""

    scratch: Path  # host folder bound read-write at /sandbox (or, with scratch_bytes, only beside it)
    binds: tuple[Bind, ...] = ()  # (a dest under /sandbox puts a file into a memory scratch)
    masks: tuple[str, ...] = ()  # paths hidden under an empty tmpfs (e.g. library folders in pure CUDA)
    gpu: bool = False
    env: Mapping[str, str] = field(default_factory=dict)  # added to the base environment
    tmp_bytes: int = 1 << 30  # size of each of the sandbox's /tmp and /dev/shm (in memory)
    # /sandbox as a memory file system of this size instead of the host folder: a step whose results are
    # read back through the folder (a build, a profile) keeps the host folder.
    scratch_bytes: int | None = None
    sys_dirs: tuple[str, ...] = ("/sys",)  # what of /sys is bound (read-only)


def _existing(paths: Sequence[str | Path]) -> list[str]:
    seen: list[str] = []
    for p in paths:
        s = str(p)
        if s and os.path.exists(s) and s not in seen:
            seen.append(s)
    return seen


def python_dirs(with_site: bool) -> list[str]:
    """The interpreter's own folders; with_site adds its site-packages (torch and the rest)."""
    dirs = [sys.base_prefix, os.path.dirname(os.path.realpath(sys.executable)),
            sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"], sysconfig.get_paths()["include"]]
    if with_site:
        dirs += [sys.prefix, *site.getsitepackages()]
        user = site.getusersitepackages()
        if isinstance(user, str):
            dirs.append(user)
    return _existing(dirs)


def gpu_device_nodes() -> list[str]:
    return sorted(glob.glob("/dev/nvidia*")) + sorted(glob.glob("/dev/dri/*"))


@functools.lru_cache(maxsize=1)
def host_identity() -> tuple[str, str]:
    """(host name, user name) as the user's own processes see them: the sandbox shows the same, so that a
    candidate cannot tell it is being checked by asking who and where it is (issue 42: a kernel correct only
    where the host name was "sandbox"). Names only: the uid, the home folder and the file system stay the
    sandbox's."""
    import getpass
    import socket

    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "user"
    safe = "".join(c for c in user if c.isalnum() or c in "._-") or "user"
    return socket.gethostname() or "localhost", safe


def base_env(extra: Mapping[str, str]) -> dict[str, str]:
    user = host_identity()[1]
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": SCRATCH, "TMPDIR": "/tmp", "LANG": "C.UTF-8",
           "USER": user, "LOGNAME": user, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0"}
    for k, v in os.environ.items():
        if k in PASS_ENV or k.startswith(PASS_ENV_PREFIXES):
            env[k] = v
    env.update(extra)
    return env


def _etc_dir(scratch_parent: Path) -> Path:
    """A made-up /etc/passwd and /etc/group: programs that look up their user (getpass, Inductor's cache
    folder) find one, and the real user database is not readable."""
    d = scratch_parent / "etc"
    d.mkdir(parents=True, exist_ok=True)
    host, user = host_identity()
    (d / "passwd").write_text(f"{user}:x:65534:65534::/sandbox:/bin/sh\n")
    (d / "group").write_text(f"{user}:x:65534:\n")
    (d / "hosts").write_text(f"127.0.0.1 localhost\n127.0.1.1 {host}\n")
    return d


_log = logging.getLogger(__name__)
# As root: namespaces but the user one, and of root's capabilities only what setpriv needs to become nobody
# (it then drops those too, and the bounding set, before it runs the command).
_AS_ROOT = ["--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
            "--cap-drop", "ALL", "--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--cap-add", "CAP_SETPCAP"]
_AS_USER = ["--unshare-all", "--cap-drop", "ALL", "--uid", str(NOBODY), "--gid", str(NOBODY)]


def _setpriv() -> str | None:
    found = shutil.which("setpriv", path="/usr/bin:/bin:/usr/sbin:/sbin")
    return os.path.realpath(found) if found else None


def _drop_to_nobody(argv: Sequence[str]) -> list[str]:
    setpriv = _setpriv()
    assert setpriv is not None
    return [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--inh-caps=-all",
            "--bounding-set=-all", "--", *argv]


@functools.lru_cache(maxsize=2)
def drops_root(gpu: bool) -> bool:
    """Whether sandboxed processes run as the host's uid nobody: hiera runs as root, setpriv is there, and a
    trivial process started that way runs as nobody (on a GPU, and can open the driver's control node).
    Where not, the sandbox falls back to a user namespace (uid 65534 inside, root outside) and says so."""
    if os.geteuid() != 0:
        return False
    why = "setpriv (util-linux) was not found" if _setpriv() is None else ""
    if not why:
        import tempfile

        scratch = Path(tempfile.mkdtemp(prefix="hiera-probe-")) / "probe"
        scratch.mkdir()
        check = f'test "$(id -u)" = {NOBODY}' + (" && test -w /dev/nvidiactl" if gpu and
                                                 os.path.exists("/dev/nvidiactl") else "")
        try:
            cmd = _command(Policy(scratch=scratch, gpu=gpu), ["/bin/sh", "-c", check], None, drop=True)
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
            if proc.returncode != 0:
                why = f"a process run as uid {NOBODY} failed ({(proc.stderr or proc.stdout).strip()[-300:]})"
        except (OSError, subprocess.TimeoutExpired) as e:
            why = f"a process run as uid {NOBODY} could not start ({e})"
        finally:
            shutil.rmtree(scratch.parent, ignore_errors=True)
    if why:
        _log.warning("hiera runs as root and its sandbox cannot run candidates as uid %d: %s; sandboxed "
                     "processes run in a user namespace mapped to root instead, so root-only files in the folders "
                     "they see are readable to them", NOBODY, why)
    return not why


def _parent_dirs(dests: Sequence[str]) -> list[str]:
    """`--dir` arguments (mode 0755) for the folders above each mount point that nothing else makes: bwrap
    makes missing parents itself with mode 0700, which only root may enter (a Python under /root/.pyenv,
    /hiera/runner.py, /sys/devices/system would be out of the sandboxed uid's reach)."""
    made: set[str] = {"/", "/etc", "/proc", "/dev", "/tmp", SCRATCH}
    mounted: list[str] = list(SYSTEM_DIRS)  # below a system folder every parent is the host's own
    out: list[str] = []
    for dest in dests:
        parts = Path(dest).parts
        for i in range(2, len(parts)):
            parent = str(Path(*parts[:i]))
            if parent in made or any(parent == m or parent.startswith(m + "/") for m in mounted):
                continue
            made.add(parent)
            out += ["--perms", "0755", "--dir", parent]
        mounted.append(dest)
    return out


def command(policy: Policy, argv: Sequence[str], info_fd: int | None = None) -> list[str]:
    """The bwrap command line that runs `argv` under `policy`."""
    return _command(policy, argv, info_fd, drop=drops_root(policy.gpu))


def _command(policy: Policy, argv: Sequence[str], info_fd: int | None, drop: bool) -> list[str]:
    # Every host path this sandbox can learn of (its mounts' sources) is scrubbed from what it says (untrusted.py).
    register_host_path(policy.scratch.parent)
    for b in policy.binds:
        if not b.device and not b.source.startswith(SYSTEM_DIRS):
            register_host_path(b.source)
    args = [find_bwrap(), *(_AS_ROOT if drop else _AS_USER), "--die-with-parent", "--new-session",
            "--hostname", host_identity()[0], "--tmpfs", "/"]
    for d in SYSTEM_DIRS:
        if os.path.islink(d):
            args += ["--symlink", os.readlink(d), d]
        elif os.path.isdir(d):
            args += ["--ro-bind", d, d]
    etc = _etc_dir(policy.scratch.parent / (policy.scratch.name + ".sys"))
    args += ["--dir", "/etc"]
    for name in ETC_FILES:
        p = Path("/etc") / name
        if p.exists():
            args += ["--ro-bind", str(p), str(p)]
    for name in ("passwd", "group", "hosts"):
        args += ["--ro-bind", str(etc / name), f"/etc/{name}"]
    args += ["--proc", "/proc", "--dev", "/dev"]
    sys_dirs = [d for d in policy.sys_dirs if os.path.isdir(d)]
    args += _parent_dirs(sys_dirs)
    for d in sys_dirs:
        args += ["--ro-bind", d, d]
    for d in ("/tmp", "/dev/shm"):
        args += ["--size", str(policy.tmp_bytes), "--perms", "01777", "--tmpfs", d]
    if policy.scratch_bytes is not None:
        args += ["--size", str(policy.scratch_bytes), "--perms", "01777", "--tmpfs", SCRATCH]
    else:
        if drop:  # the host folder belongs to the uid the sandbox runs as
            os.chown(policy.scratch, NOBODY, NOBODY)
        args += ["--bind", str(policy.scratch), SCRATCH]
    args += ["--chdir", SCRATCH]
    # After the memory file systems: a bind below /tmp (a folder of pytest's, or of tempfile's) needs its
    # parents inside the /tmp the sandbox has, not the one that mount hid.
    args += _parent_dirs([b.dest for b in policy.binds])
    if policy.gpu:
        for node in gpu_device_nodes():
            args += ["--dev-bind", node, node]
    for b in policy.binds:
        flag = "--dev-bind" if b.device else ("--bind" if b.writable else "--ro-bind")
        args += [flag, b.source, b.dest]
    for m in policy.masks:
        if os.path.isdir(m):
            args += ["--tmpfs", m]
    # The root itself read-only (bwrap makes it a writable memory file system of no size limit otherwise).
    args += ["--remount-ro", "/", "--clearenv"]
    for k, v in base_env(policy.env).items():
        args += ["--setenv", k, v]
    if info_fd is not None:
        args += ["--info-fd", str(info_fd)]
    return [*args, "--", *(_drop_to_nobody(argv) if drop else argv)]


@functools.lru_cache(maxsize=4)
def probe(gpu: bool, workdir: str | None = None) -> None:
    """Start one trivial sandboxed process; raises SandboxUnavailable with bwrap's own words if it fails.
    (In a temporary folder unless given one: a command refused for want of a sandbox leaves nothing behind.)"""
    import tempfile

    scratch = Path(workdir or tempfile.mkdtemp(prefix="hiera-probe-")) / "probe"
    scratch.mkdir(parents=True, exist_ok=True)
    try:
        cmd = command(Policy(scratch=scratch, gpu=gpu), ["/bin/sh", "-c", "exit 0"])
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise SandboxUnavailable(f"bubblewrap could not be started ({e}); {_INSTALL_HINT}") from e
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        shutil.rmtree(scratch.parent / "probe.sys", ignore_errors=True)
    if proc.returncode != 0:
        said = (proc.stderr or proc.stdout).strip().splitlines()
        why = said[-1] if said else f"exit {proc.returncode}"
        raise SandboxUnavailable(
            f"bubblewrap is installed but cannot create its namespaces here ({why}); "
            "unprivileged user namespaces may be disabled (sysctl kernel.unprivileged_userns_clone=1, or "
            f"AppArmor's restriction on them); {_INSTALL_HINT}")


def hide_library_dirs() -> list[str]:
    """Folders of CUDA's libraries (cuBLAS, cuDNN, ...) to mask in the pure CUDA space: a candidate there
    cannot dlopen what it may not use, whatever its source looks like."""
    homes = {os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"}
    dirs: list[str] = []
    for home in filter(None, homes):
        real = os.path.realpath(home)
        dirs += [os.path.join(real, "lib64"), os.path.join(real, "lib"),
                 *glob.glob(os.path.join(real, "targets", "*", "lib"))]
    return _existing(dirs)
