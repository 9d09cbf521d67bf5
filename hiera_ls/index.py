"""The workspace index: optimizable modules in Python files, `.cu` files and the runs they came from.

Python files are read with `ast` (hiera_ls.modules), never imported. Open documents are indexed from the
editor's text; everything else from disk, at start and whenever `watchdog` reports a change made outside
the editor (a `git checkout`, a `hiera optimize` run in a terminal writing the store).

Which run a `.cu` belongs to comes from the store (candidate sources under `.hiera/runs/<id>/`, results
recorded in run summaries) and from the server's own record of the result files it created
(`.hiera/ls/state.json`), since a result created through a workspace edit is not in the engine's store.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contracts import strict_json
from contracts.runstore import StoreReader
from hiera_ls.files import read_text, read_text_or_none
from hiera_ls.modules import ModuleClass, PythonScan, scan_python
from hiera_ls.taskfile import task_path

log = logging.getLogger(__name__)

MAX_FILES = 20000  # a walk that finds more stops there: the editor is for projects, not file systems
MAX_BYTES = 1 << 20
_SKIP_DIRS = {"node_modules", "__pycache__", "site-packages", "dist-packages"}


def skip_dir(name: str) -> bool:
    return name.startswith(".") or name in _SKIP_DIRS


def walk(roots: Iterable[Path]) -> tuple[dict[Path, PythonScan], set[Path]]:
    """Scan roots from disk (blocking: run in a thread). Virtual environments and hidden folders are skipped."""
    py: dict[Path, PythonScan] = {}
    cu: set[Path] = set()
    seen = 0
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = [d for d in dirnames if not skip_dir(d)]
            if "pyvenv.cfg" in filenames:  # a venv not named .venv
                dirnames[:] = []
                continue
            for name in filenames:
                seen += 1
                if seen > MAX_FILES:
                    log.warning("workspace has over %d files; indexed the first ones only", MAX_FILES)
                    return py, cu
                p = Path(dirpath, name)
                if name.endswith(".cu"):
                    cu.add(p)
                elif name.endswith(".py"):
                    scan = scan_file(p)
                    if scan is not None and scan.modules:
                        py[p] = scan
    return py, cu


def scan_file(p: Path) -> PythonScan | None:
    try:
        return scan_python(read_text(p, MAX_BYTES))
    except OSError:  # gone, unreadable, over the size limit, or not a regular file (a FIFO named x.py)
        return None


@dataclass
class DiskState:
    """What changed paths hold now: read in a thread, applied on the event loop."""

    py: dict[Path, PythonScan | None]
    cu: dict[Path, bool]


def read_disk_state(paths: Iterable[Path]) -> DiskState:
    """Read changed files and walk new folders (blocking: run in a thread for a batch)."""
    state = DiskState({}, {})
    for p in paths:
        if p.is_dir():
            py, cu = walk([p])
            state.py.update(py)
            state.cu.update(dict.fromkeys(cu, True))
        elif p.suffix == ".cu":
            state.cu[p] = p.exists()
        elif p.suffix == ".py":
            state.py[p] = scan_file(p) if p.exists() else None
    return state


@dataclass(frozen=True)
class CuOrigin:
    """The run (and candidate) a .cu file came from."""

    root: Path
    run_id: str
    candidate_id: str | None
    task: str | None  # the run's task path, for profiling the kernel against it
    source_path: str | None  # the candidate's own copy in the run folder: the text the profile was made on


class LsState:
    """The server's own record, per workspace folder: result files it created and kernels it profiled."""

    def __init__(self, root: Path):
        self.path = root / ".hiera" / "ls" / "state.json"
        self.results: dict[str, dict[str, Any]] = {}
        self.profiles: dict[str, dict[str, Any]] = {}
        with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
            data = json.loads(read_text_or_none(self.path) or "{}")
            self.results = dict(data.get("results", {}))
            self.profiles = dict(data.get("profiles", {}))

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(strict_json.dumps({"results": self.results, "profiles": self.profiles}, indent=1))
        tmp.replace(self.path)


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class WorkspaceIndex:
    def __init__(self, roots: list[Path]):
        self.roots = [r.resolve() for r in roots]
        self.py: dict[Path, PythonScan] = {}
        self.cu: set[Path] = set()
        self.open_docs: set[Path] = set()  # indexed from the editor's text, not from disk
        self._readers: dict[Path, StoreReader] = {r: StoreReader(r) for r in self.roots}
        self._states: dict[Path, LsState] = {}

    # --- where things are ---------------------------------------------------------------------------------

    def root_of(self, path: Path) -> Path:
        path = path.resolve()
        best = None
        for r in self.roots:
            if path.is_relative_to(r) and (best is None or len(r.parts) > len(best.parts)):
                best = r
        return best or (self.roots[0] if self.roots else path.parent)

    def contains(self, path: Path) -> bool:
        """Whether the file is inside one of the workspace folders."""
        path = path.resolve()
        return any(path.is_relative_to(r) for r in self.roots)

    def reader(self, path_or_root: Path) -> StoreReader:
        root = path_or_root if path_or_root in self._readers else self.root_of(path_or_root)
        if root not in self._readers:
            self._readers[root] = StoreReader(root)
        return self._readers[root]

    def readers(self) -> list[StoreReader]:
        return list(self._readers.values())

    def state(self, root: Path) -> LsState:
        if root not in self._states:
            self._states[root] = LsState(root)
        return self._states[root]

    # --- python files --------------------------------------------------------------------------------------

    def merge_walk(self, py: dict[Path, PythonScan], cu: set[Path]) -> None:
        """Adopt a disk walk's results, keeping what open documents say."""
        for p in list(self.py):
            if p not in self.open_docs and p not in py:
                del self.py[p]
        for p, scan in py.items():
            if p not in self.open_docs:
                self.py[p] = scan
        self.cu = cu

    def apply_disk_state(self, state: DiskState) -> bool:
        """Adopt what read_disk_state found (on the event loop); True when what the index knows changed."""
        changed = False
        for p, exists in state.cu.items():
            before = p in self.cu
            (self.cu.add if exists else self.cu.discard)(p)
            changed |= before != exists
        for p, scan in state.py.items():
            if p in self.open_docs:
                continue  # the editor's text wins over the disk's
            before = self.py.get(p)
            if scan is None or not scan.modules:
                changed |= self.py.pop(p, None) is not None
            else:
                self.py[p] = scan
                changed |= before != scan
        return changed

    def scan(self, path: Path) -> PythonScan | None:
        return self.py.get(path)

    # --- runs -----------------------------------------------------------------------------------------------

    def task_paths(self, path: Path, module: ModuleClass) -> list[str]:
        """How the store names this module's task (the engine stores the resolved path)."""
        tp = task_path(self.root_of(path), path, module)
        return [str(tp)] if tp == path else [str(tp), str(path)]

    def latest_run(self, path: Path, module: ModuleClass, kind: str = "optimize") -> dict[str, Any] | None:
        return self.reader(path).latest_run(self.task_paths(path, module), kind)

    def cu_origin(self, path: Path) -> CuOrigin | None:
        path = path.resolve()
        root = self.root_of(path)
        reader = self.reader(root)
        recorded = self.state(root).results.get(str(path))
        if recorded:
            cand = reader.candidate(recorded["run_id"], recorded.get("candidate_id") or "")
            run = reader.run(recorded["run_id"])
            return CuOrigin(root, recorded["run_id"], recorded.get("candidate_id"),
                            run["task_path"] if run else recorded.get("task"),
                            cand["source_path"] if cand else None)
        cand = reader.candidate_by_source(str(path))
        if cand is None:
            runs_dir = root / ".hiera" / "runs"
            if path.is_relative_to(runs_dir):
                run_id = path.relative_to(runs_dir).parts[0]
                cand = reader.candidate(run_id, path.stem)
                if cand is None:
                    run = reader.run(run_id)
                    return CuOrigin(root, run_id, None, run["task_path"] if run else None, None) if run else None
        if cand is not None:
            run = reader.run(cand["run_id"])
            return CuOrigin(root, cand["run_id"], cand["id"], run["task_path"] if run else None, cand["source_path"])
        # a result the engine wrote beside a module (not through the editor): named in its run's summary
        for run in reader.recent_runs():
            best = (run.get("summary") or {}).get("best") or {}
            paths = best.get("paths") or {}
            if paths.get("cu") and Path(paths["cu"]).resolve() == path:
                cand = reader.candidate(run["id"], best.get("candidate_id") or "")
                return CuOrigin(root, run["id"], best.get("candidate_id"), run["task_path"],
                                cand["source_path"] if cand else None)
        return None

    def profile_for_cu(self, path: Path) -> tuple[dict[str, Any], CuOrigin | None] | None:
        """The newest profile of the kernel in this .cu: a `Profile kernel` job's, else its run's own."""
        path = path.resolve()
        root = self.root_of(path)
        reader = self.reader(root)
        origin = self.cu_origin(path)
        rec = self.state(root).profiles.get(str(path))
        if rec:
            data = reader.profile(rec["run_id"], rec.get("candidate_id") or "") or next(
                iter(reader.profiles(rec["run_id"]).values()), None) or rec.get("data")
            if data:
                return data, origin
        if origin and origin.candidate_id:
            data = reader.profile(origin.run_id, origin.candidate_id)
            if data:
                return data, origin
        return None

    def known_text(self, path: Path, origin: CuOrigin | None) -> set[str]:
        """Hashes of the texts a profile of this file is valid for (per-line data goes stale on edits)."""
        out: set[str] = set()
        root = self.root_of(path)
        rec = self.state(root).results.get(str(path.resolve())) or {}
        if rec.get("sha"):
            out.add(rec["sha"])
        prof = self.state(root).profiles.get(str(path.resolve())) or {}
        if prof.get("sha"):
            out.add(prof["sha"])
        if origin and origin.source_path and (text := read_text_or_none(origin.source_path)) is not None:
            out.add(text_hash(text))
        return out

    def modules_json(self) -> list[dict[str, Any]]:
        out = []
        for p, scan in sorted(self.py.items()):
            if scan.is_result:
                continue
            for m in scan.modules:
                out.append({"uri": p.as_uri(), "path": str(p), **m.to_json()})
        return out


# --- watching the disk -----------------------------------------------------------------------------------


class Watcher:
    """watchdog observers for changes made outside the editor, delivered to the event loop debounced.

    One recursive watch per top-level folder that is not skipped (so `.venv`, `.git` and `node_modules` are
    never walked by inotify), one flat watch on each root and one on each root's `.hiera/` (the store's
    database and WAL file: a run started from a terminal shows up in the editor).
    """

    DEBOUNCE_S = 0.25

    def __init__(self, roots: list[Path], loop: asyncio.AbstractEventLoop,
                 on_change: Callable[[set[Path]], None]):
        self.roots = roots
        self.loop = loop
        self.on_change = on_change
        self._pending: set[Path] = set()
        self._timer: asyncio.TimerHandle | None = None
        self._watched: set[Path] = set()
        self._observer: Any = None

    def start(self) -> None:
        from watchdog.events import FileSystemEvent, FileSystemEventHandler
        from watchdog.observers import Observer

        watcher = self

        class Handler(FileSystemEventHandler):
            def on_any_event(self, event: FileSystemEvent) -> None:
                if event.event_type in ("opened", "closed_no_write"):
                    return
                for raw in (event.src_path, getattr(event, "dest_path", "")):
                    if raw:
                        p = Path(os.fsdecode(raw))
                        watcher.loop.call_soon_threadsafe(watcher._push, p, event.is_directory
                                                          and event.event_type == "created")

        self._handler = Handler()
        self._observer = Observer()
        self._observer.daemon = True
        for root in self.roots:
            self._watch(root, recursive=False)
            self._watch(root / ".hiera", recursive=False)
            with contextlib.suppress(OSError):
                for child in root.iterdir():
                    if child.is_dir() and not skip_dir(child.name) and not (child / "pyvenv.cfg").exists():
                        self._watch(child, recursive=True)
        self._observer.start()

    def _watch(self, path: Path, recursive: bool) -> None:
        if path in self._watched or not path.is_dir() or self._observer is None:
            return
        try:
            self._observer.schedule(self._handler, str(path), recursive=recursive)
            self._watched.add(path)
        except OSError as e:  # inotify watch limit, permissions: keep serving without this folder
            log.warning("not watching %s for outside changes: %s", path, e)

    def _push(self, path: Path, new_dir: bool) -> None:
        if new_dir and path.parent in self.roots:
            if path.name == ".hiera":  # the first run in a fresh workspace just created the store
                self._watch(path, recursive=False)
            elif not skip_dir(path.name):
                self._watch(path, recursive=True)
        if not (path.suffix in (".py", ".cu") or path.name.startswith("hiera.db") or new_dir):
            return
        self._pending.add(path)
        if self._timer is None:
            self._timer = self.loop.call_later(self.DEBOUNCE_S, self._flush)

    def _flush(self) -> None:
        self._timer = None
        batch, self._pending = self._pending, set()
        try:
            self.on_change(batch)
        except Exception:
            log.exception("handling outside file changes failed")

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._observer is not None:
            self._observer.stop()
            self._observer = None
