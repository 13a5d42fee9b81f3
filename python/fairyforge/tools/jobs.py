"""Long jobs that survive real use: many independent tasks (games, searches)
run in this process, on a local process pool, on any
``concurrent.futures.Executor`` or on a Dask ``Client``, with

- results handed back one by one as they finish (:class:`Runner`, and
  :func:`execute` over it), so the caller can append each to its output
  at once, and may add tasks as results arrive;
- Ctrl-C stopping within a fraction of a second: pending tasks are
  cancelled and the local pool's workers terminated, so no worker is left
  running (workers ignore SIGINT; the parent ends them);
- no orphan worker when the parent is killed (``kill -9``): each worker of a
  local pool watches its parent's pid and exits when the parent is gone;
- a worker that dies (killed, out of memory) costs only the tasks it was
  running: they are run again on a fresh pool;
- paths checked before any work (:func:`input_file`, :func:`output_dir`,
  :func:`output_prefix`), and a progress bar with the ETA and a running
  score (:class:`ProgressBar`).
"""

from __future__ import annotations

import heapq
import importlib.util
import itertools
import multiprocessing
import os
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, ProcessPoolExecutor
from concurrent.futures import wait as futures_wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: Seconds between a worker's looks at its parent: how long a worker may
#: outlive a killed parent.
WATCH_SECONDS = 0.25

#: Seconds a terminated worker is given to end before it is killed.
TERMINATE_SECONDS = 1.0

#: Times in a row a local pool may break (a worker died) before the job
#: gives up; a task that kills its worker every time is not retried forever.
POOL_RESTARTS = 3


class PathError(ValueError):
    """A path that cannot serve: a missing input, a directory where a file is
    wanted, an output directory that is missing or cannot be written."""


class MissingExtraError(ImportError):
    """An optional dependency that is not installed; the message names the
    extra that installs it."""


class WorkerError(RuntimeError):
    """The local pool's workers keep dying: the job stops, finished results
    are kept."""


def require_extra(module: str, extra: str) -> None:
    """Raise :class:`MissingExtraError` when ``module`` cannot be imported,
    naming ``pip install fairyforge[extra]``; checked before any work."""
    if importlib.util.find_spec(module) is None:
        raise MissingExtraError(
            f"{module} is not installed: pip install fairyforge[{extra}]", name=module
        )


def input_file(path: str | os.PathLike[str], what: str) -> Path:
    """``path`` as an existing, readable regular file, or :class:`PathError`
    (``what`` names it in the message: ``"--openings"``)."""
    p = Path(path)
    if not p.exists():
        raise PathError(f"{what}: no file {str(p)!r}")
    if p.is_dir():
        raise PathError(f"{what}: {str(p)!r} is a directory, not a file")
    if not os.access(p, os.R_OK):
        raise PathError(f"{what}: {str(p)!r} cannot be read")
    return p


def _writable(directory: Path) -> bool:
    """Whether a file can really be created in ``directory`` (os.access is
    no answer for root or on a read-only mount)."""
    try:
        with tempfile.TemporaryFile(dir=directory):
            return True
    except OSError:
        return False


def output_dir(path: str | os.PathLike[str], what: str = "--out") -> Path:
    """``path`` as a writable output directory, created when missing (its
    parent must exist); :class:`PathError` otherwise."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise PathError(f"{what}: {str(p)!r} is a file, not a directory")
    if not p.exists():
        parent = p.parent
        if not parent.is_dir():
            raise PathError(f"{what}: no directory {str(parent)!r} to create {p.name!r} in")
        try:
            p.mkdir()
        except OSError as e:
            raise PathError(f"{what}: cannot create {str(p)!r} ({e.strerror})") from None
    if not _writable(p):
        raise PathError(f"{what}: directory {str(p)!r} cannot be written")
    return p


def output_prefix(prefix: str | os.PathLike[str], what: str = "--out") -> None:
    """Check that files ``PREFIX.*`` can be written: the directory of the
    prefix exists and is writable; :class:`PathError` otherwise."""
    directory = Path(prefix).parent
    if not directory.is_dir():
        raise PathError(f"{what}: no directory {str(directory)!r}")
    if not _writable(directory):
        raise PathError(f"{what}: directory {str(directory)!r} cannot be written")


def output_file(path: str | os.PathLike[str], what: str = "--out") -> None:
    """Check that ``path`` can be written or appended to: not a directory,
    in a writable directory; :class:`PathError` otherwise."""
    p = Path(path)
    if p.is_dir():
        raise PathError(f"{what}: {str(p)!r} is a directory, not a file")
    output_prefix(p, what)
    if p.exists() and not os.access(p, os.W_OK):
        raise PathError(f"{what}: {str(p)!r} cannot be written")


# --------------------------------------------------------------------------
# Workers of the local pool


def _worker_start(parent: int, definitions: list[str]) -> None:
    """Initializer of a local pool's worker: Ctrl-C is the parent's to
    handle (it ends the workers), the worker ends when its parent does, and
    it loads the variant definitions the parent had loaded."""
    from fairyforge import _core

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for text in definitions:
        _core.load_variant_text(text, "a definition loaded by the parent process")
    watch = threading.Thread(
        target=_watch_parent, args=(parent,), name="fairyforge-parent-watch", daemon=True
    )
    watch.start()


def _watch_parent(parent: int) -> None:
    """Exit at once (no cleanup: there is nobody left to report to) when the
    parent process is gone, so a killed run leaves no worker behind."""
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def local_pool(workers: int | None) -> ProcessPoolExecutor:
    """A process pool of ``workers`` processes (default: the cores), started
    with ``spawn`` (no threads of this process are forked) and workers that
    watch their parent."""
    from fairyforge import _core

    return ProcessPoolExecutor(
        max_workers=workers or os.cpu_count() or 1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_worker_start,
        initargs=(os.getpid(), _core.loaded_definitions()),
    )


def stop_pool(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the workers now: terminated, then
    killed after :data:`TERMINATE_SECONDS` if still running."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + TERMINATE_SECONDS
    for process in processes:
        process.join(max(deadline - time.monotonic(), 0))
        if process.is_alive():
            process.kill()
            process.join(TERMINATE_SECONDS)


def is_dask_client(executor: Any) -> bool:
    """Whether ``executor`` is a ``dask.distributed.Client`` (by its type's
    module, so Dask is never imported to find out)."""
    return any(
        cls.__module__.startswith("distributed") and cls.__name__ == "Client"
        for cls in type(executor).__mro__
    )


class Runner:
    """Tasks on an executor, a bounded number at a time, the most urgent
    first; tasks may be added while results come in (a study makes a
    game's task when its opening is known).

    ``executor``: None for a local process pool of ``workers`` processes
    (``workers=1``: in this process), any ``concurrent.futures.Executor``
    or a ``dask.distributed.Client``. At most twice as many tasks as there
    are workers are handed over at once, so a task added later with a
    higher priority (a lower number) does not wait behind all the others.
    A local pool that breaks (a worker died) is replaced and its unfinished
    tasks run again; :class:`WorkerError` after :data:`POOL_RESTARTS`
    breaks in a row without a finished task. Leaving the ``with`` block
    (normally, on an exception or on Ctrl-C) cancels what is not finished
    and ends a local pool's workers; an executor passed in stays open.

    >>> with Runner(workers=1) as runner:
    ...     runner.submit(abs, -2, priority=1)
    ...     runner.submit(abs, -1, priority=0)
    ...     [(item, result) for _, item, result in runner.results()]
    [(-1, 1), (-2, 2)]
    """

    def __init__(self, executor: Any = None, workers: int | None = None):
        if executor is not None and not (
            is_dask_client(executor) or isinstance(executor, Executor)
        ):
            raise TypeError(
                "executor must be a concurrent.futures.Executor or a dask.distributed.Client, "
                f"not {type(executor).__name__}"
            )
        self._executor = executor
        self._workers = workers or os.cpu_count() or 1
        self._inline = executor is None and workers == 1
        self._dask = executor is not None and is_dask_client(executor)
        self._queue: list[tuple[int, int, Callable[[Any], Any], Any]] = []
        self._order = itertools.count()
        self._running: dict[Any, tuple[int, int, Callable[[Any], Any], Any]] = {}
        self._pool: ProcessPoolExecutor | None = None
        if self._dask:
            slots = sum(executor.nthreads().values())
        elif executor is not None:
            slots = getattr(executor, "_max_workers", None) or self._workers
        else:
            slots = self._workers
        self._slots = 2 * max(slots, 1)

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def submit(self, fn: Callable[[T], R], item: T, priority: int = 0) -> None:
        """Queue ``fn(item)``; lower ``priority`` numbers run first, equal
        ones in the order given."""
        heapq.heappush(self._queue, (priority, next(self._order), fn, item))

    def results(self) -> Iterator[tuple[Callable[[Any], Any], Any, Any]]:
        """``(fn, item, result)`` as tasks finish, until none is queued or
        running (tasks submitted meanwhile included). An exception raised
        by a task is raised here."""
        breaks = 0
        while self._queue or self._running:
            if self._inline:
                _, _, fn, item = heapq.heappop(self._queue)
                yield fn, item, fn(item)
                continue
            self._hand_over()
            broken = False
            for future in self._wait():
                entry = self._running.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    heapq.heappush(self._queue, entry)
                    broken = True
                    continue
                breaks = 0
                yield entry[2], entry[3], result
            if broken:
                breaks += 1
                for entry in self._running.values():
                    heapq.heappush(self._queue, entry)
                self._running.clear()
                self._stop_pool()
                if breaks >= POOL_RESTARTS:
                    raise WorkerError(
                        f"the workers died {breaks} times in a row without finishing a task "
                        f"({len(self._queue)} left); finished results are kept"
                    )

    def _hand_over(self) -> None:
        while self._queue and len(self._running) < self._slots:
            entry = heapq.heappop(self._queue)
            _, _, fn, item = entry
            if self._dask:
                future = self._executor.submit(fn, item, pure=False)
            elif self._executor is not None:
                future = self._executor.submit(fn, item)
            else:
                if self._pool is None:
                    self._pool = local_pool(self._workers)
                future = self._pool.submit(fn, item)
            self._running[future] = entry

    def _wait(self) -> Iterable[Any]:
        if self._dask:
            from dask.distributed import wait

            return wait(list(self._running), return_when="FIRST_COMPLETED").done
        return futures_wait(list(self._running), return_when=FIRST_COMPLETED).done

    def _stop_pool(self) -> None:
        if self._pool is not None:
            stop_pool(self._pool)
            self._pool = None

    def close(self) -> None:
        """Cancel what is not finished; end a local pool's workers."""
        running = list(self._running)
        self._running.clear()
        self._queue.clear()
        if self._dask and running:
            self._executor.cancel(running)
        else:
            for future in running:
                future.cancel()
        self._stop_pool()


def execute(
    fn: Callable[[T], R],
    items: Iterable[T],
    *,
    executor: Any = None,
    workers: int | None = None,
) -> Iterator[tuple[T, R]]:
    """``(item, fn(item))`` for each item, as the tasks finish, on a
    :class:`Runner` (see there for ``executor`` and ``workers``). On Ctrl-C,
    on an exception, or when the caller stops iterating, the tasks not
    finished are cancelled (a local pool's workers are ended)."""
    with Runner(executor, workers) as runner:
        for item in items:
            runner.submit(fn, item)
        for _, item, result in runner.results():
            yield item, result


# --------------------------------------------------------------------------
# Progress


class ProgressBar:
    """A progress bar on a rich console: done of total, elapsed time, ETA
    and a status text (a running score). ``with ProgressBar(console, "study",
    total, done) as bar: bar.advance("White 55.0%")``. Transient: the final
    table replaces it."""

    def __init__(self, console: Any, description: str, total: int, done: int = 0):
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[status]}"),
            console=console,
            transient=True,
        )
        self._task = self._progress.add_task(description, total=total, completed=done, status="")

    def __enter__(self) -> ProgressBar:
        self._progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._progress.stop()

    def advance(self, status: str | None = None) -> None:
        """One more done, with a new status text."""
        fields = {"status": status} if status is not None else {}
        self._progress.update(self._task, advance=1, **fields)

    def describe(self, description: str, total: int | None = None, done: int | None = None) -> None:
        """Move on to another phase: a new description, total and count."""
        self._progress.reset(self._task, description=description, total=total, completed=done or 0)
