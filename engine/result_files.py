"""Where a run's result goes and what it is: the exported ModelNew file and its kernel, beside the task (or the
--results-dir) when it is faster than eager, else in the run's own folder under not-delivered/ beside a REASON.txt
that says why in the verdict's words and numbers; one result per run, replaced by a later session of the same run,
never numbered again."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from contracts.runrecord import (
    BEST_SO_FAR_DIR,
    NOT_DELIVERED_DIR,
    NOT_DELIVERED_REASON,
    BestFigure,
    Figure,
    Notice,
    ResultPaths,
    Verdict,
    not_delivered_reason,
    verdict_phrase,
)
from contracts.wording import device_words
from engine.evaluate.outcome import Candidate, CandidateKind
from engine.loop_state import Best
from engine.task.export import BatchesVerified, modelnew_source, modelnew_wrapper, result_paths, run_mark

if TYPE_CHECKING:
    from engine.loop_host import FilesHost

MODELNEW_COPY = ".source.py.txt"  # beside a whole-ModelNew result: its source, to read (not importable)


class ResultFiles:
    """The result files of one Loop's runs."""

    def __init__(self, loop: FilesHost):
        self.loop = loop

    def write(self, best: Best, run_id: str) -> ResultPaths:
        """The run's one result: beside the task (or --results-dir) when faster, else in the run's folder. A
        file this run wrote before (an earlier session of it) is replaced, never numbered again."""
        fig = best.figure()
        directory = self.loop.settings.results_dir
        if fig.verdict != Verdict.FASTER.value and not self.loop.settings.keep_slower:
            directory = self.loop.store.run_dir(run_id) / NOT_DELIVERED_DIR
            directory.mkdir(parents=True, exist_ok=True)
            (directory / NOT_DELIVERED_REASON).write_text(not_delivered_reason(fig, best.outcome.flags) + "\n")
        try:
            return self._write_pair(best, fig, run_id, directory)
        except OSError as e:
            if directory is not None and self.loop.store.root in directory.parents:
                raise  # the run's own folder: there is nowhere else to keep it
            # Checked writable when the run started (engine/commands/checks.py); it changed since. The result
            # is not lost: it goes to the run's folder, and the run says where and why.
            kept = self.loop.store.run_dir(run_id) / "result"
            where = directory or self.loop.spec.path.parent
            self.loop.store.record_notice(run_id, f"could not write the result in {where} ({e.strerror or e}); it is "
                                                  f"kept in {kept}")
            self.loop.emit(Notice(self.loop.store.notices(run_id)[-1]))
            return self._write_pair(best, fig, run_id, kept)

    def keep_so_far(self, best: Best, run_id: str) -> ResultPaths | None:
        """The best as it stands, in the run's best-so-far folder (replaced at each new best): what a run killed
        before its end leaves. None when it cannot be written (the run goes on; its result is written at its end)."""
        directory = self.loop.store.run_dir(run_id) / BEST_SO_FAR_DIR
        try:
            for old in directory.glob("*"):
                old.unlink()
            return self._write_pair(best, best.figure(), run_id, directory)
        except OSError:
            return None

    @staticmethod
    def not_delivered(fig: Figure | BestFigure, paths: ResultPaths | None) -> str | None:
        """Why the written result is not beside the task (it went to not-delivered/), or None."""
        if paths is None or Path(paths.py).parent.name != NOT_DELIVERED_DIR:
            return None
        reason = Path(paths.py).parent / NOT_DELIVERED_REASON
        return reason.read_text().strip() if reason.is_file() else not_delivered_reason(fig)

    def _verified_library(self, c: Candidate) -> bytes | None:
        """The evaluator's own build of the best (its build cache, or built again by the same recipe in the same
        sandbox if pruned): what the exported file loads, by hash (engine/task/export.py). None where it cannot be
        had (no compiler here): the file then builds the source by that recipe."""
        from engine.evaluate.build import build_one

        config = getattr(self.loop.evaluator, "build_config", None)
        if config is None:
            return None
        built = build_one(c, config)
        if not built.ok or built.artifact is None:
            return None
        try:
            return Path(built.artifact).read_bytes()
        except OSError:
            return None

    def _write_pair(self, best: Best, fig: BestFigure, run_id: str, directory: Path | None) -> ResultPaths:
        c = best.candidate
        if directory is not None:
            directory.mkdir(parents=True, exist_ok=True)
        if c.kind is CandidateKind.MODELNEW:
            # Inert on import, like a contract kernel's file: the source embedded, run on first use; a readable
            # copy beside it (engine/task/export.py modelnew_wrapper).
            py, copy = result_paths(self.loop.spec, MODELNEW_COPY, directory, run_id)
            first = (f"The best of an optimize run {run_mark(run_id)}: {fig.speedup:.2f}x against eager on "
                     f"{device_words(best.outcome.device, best.outcome.device_name)}, {verdict_phrase(fig)}.")
            # Checked at other batch sizes (any ModelNew but hiera's own, by default): the file refuses the sizes
            # it was not found valid at; not checked: it says so and guards nothing.
            spec_batch = self.loop.spec.batch
            batches = BatchesVerified.of(spec_batch.size if spec_batch is not None else None, best.outcome.shapes)
            py.write_text(modelnew_wrapper(c.source, first, copy.name, batches))
            copy.write_text(c.source)
            return ResultPaths(str(py), None)
        py, src = result_paths(self.loop.spec, c.kind.suffix, directory, run_id)
        pair = "timed again on its own" if best.retimed else "its first pair; not re-timed"
        on = device_words(best.outcome.device, best.outcome.device_name)
        note = (f"{fig.speedup:.2f}x against eager on {on}, {verdict_phrase(fig)}; {pair}. "
                f"Kernel copy: {src.name}.")
        # The file's guard serves what the best was found valid on: the batch range its checks found at sizes
        # drawn for it, or the given shapes alone (a candidate valid only there, or not checked at drawn sizes).
        cover = best.outcome.shapes.served if best.outcome.shapes is not None else None
        speeds = best.outcome.shapes.speeds_text(fig.speedup) if best.outcome.shapes is not None else ""
        if speeds:
            note += " " + speeds
        py.write_text(modelnew_source(self.loop.spec, c.source, cuda=c.kind is CandidateKind.CUDA, note=note,
                                      run_id=run_id, cover=cover, library=self._verified_library(c)))
        src.write_text(c.source)
        return ResultPaths(str(py), str(src))
