"""Running many independent jobs (games to play, games to analyse) on a
local process pool, an executor or a Dask cluster (see
:mod:`fairyforge.tools.jobs`), with results appended to a JSON-lines file
so that an interrupted run resumes where it stopped. A torn last line (a
run killed while writing it) is cut off with a warning, and one run at a
time may write an output (a lock held while it runs)."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from fairyforge.tools import jobs

T = TypeVar("T")

log = logging.getLogger("fairyforge.jobs")


class SettingsMismatchError(ValueError):
    """An output that holds results made with other settings than a rerun's."""


class OutputBusyError(ValueError):
    """An output that another run is writing now."""


def settings_path(out: str | os.PathLike[str]) -> Path:
    """Where the settings of an output are kept: ``m.chess.jsonl`` ->
    ``m.chess.settings.json``."""
    return Path(out).with_suffix(".settings.json")


def claim(out: str | os.PathLike[str], settings: dict[str, Any]) -> None:
    """Tie ``out`` to ``settings``: stored when ``out`` holds no record yet;
    otherwise they must equal the stored ones, or
    :class:`SettingsMismatchError` says which differ."""
    path = settings_path(out)
    wanted = json.loads(json.dumps(settings, sort_keys=True))
    repair(out)
    if not recorded(out):
        path.write_text(json.dumps(wanted, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        return
    advice = "rerun with the settings it was made with, or name another output"
    try:
        stored = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise SettingsMismatchError(
            f"{out} holds results but its settings file {path} is missing or unreadable: {advice}"
        ) from None
    if stored != wanted:
        changes = "; ".join(
            f"{key}: {old!r} there, {new!r} now" for key, old, new in _differences(stored, wanted)
        )
        raise SettingsMismatchError(
            f"{out} holds results made with other settings ({changes}): {advice}"
        )


def _differences(old: Any, new: Any, prefix: str = "") -> Iterator[tuple[str, Any, Any]]:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            yield from _differences(old.get(key), new.get(key), f"{prefix}{key}.")
    elif old != new:
        yield prefix.rstrip("."), old, new


def repair(path: str | os.PathLike[str]) -> None:
    """Cut off a torn last line of ``path`` (a run killed while appending
    it), with a warning; its task runs again. A last line that is whole
    but lacks its newline gets one."""
    if not os.path.exists(path):
        return
    with open(path, "rb+") as handle:
        data = handle.read()
        if not data or data.endswith(b"\n"):
            return
        start = data.rfind(b"\n") + 1
        if _parse(data[start:]) is not None:
            handle.write(b"\n")
            return
        handle.truncate(start)
    log.warning(
        "%s: cut off a torn last line (%d bytes, from a run that was killed while writing it); "
        "its task runs again",
        path,
        len(data) - start,
    )


def _parse(line: bytes | str) -> dict | None:
    """A record line as a dict with an ``index``, or None."""
    try:
        record = json.loads(line)
    except ValueError:
        return None
    return record if isinstance(record, dict) and isinstance(record.get("index"), int) else None


def _records(path: str | os.PathLike[str]) -> Iterator[dict]:
    """The records of ``path`` in file order; a line that is not a record is
    skipped with a warning, and a record of an index seen before too."""
    seen = set()
    with open(path, encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, 1):
            if not line.strip():
                continue
            record = _parse(line)
            if record is None:
                log.warning("%s line %d: not a record, ignored", path, number)
            elif record["index"] in seen:
                log.warning("%s line %d: index %d again, ignored", path, number, record["index"])
            else:
                seen.add(record["index"])
                yield record


def recorded(path: str | os.PathLike[str] | None) -> set[int]:
    """The ``index`` of every record already in ``path``."""
    if path is None or not os.path.exists(path):
        return set()
    return {record["index"] for record in _records(path)}


def read(path: str | os.PathLike[str]) -> list[dict]:
    """Every record of ``path``, sorted by index."""
    return sorted(_records(path), key=_index)


@contextlib.contextmanager
def lock(out: str | os.PathLike[str]) -> Iterator[None]:
    """Hold ``out`` for this run: a second run writing the same output at the
    same time is refused with :class:`OutputBusyError` (the lock ends with
    the process, however it ends). Where ``fcntl`` is missing, no lock."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    path = Path(out).with_suffix(".lock")
    with open(path, "a+", encoding="utf-8") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise OutputBusyError(
                f"{out} is being written by another run: wait for it, or name another output"
            ) from None
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _index(record: dict) -> int:
    return record["index"]


def run_tasks(
    fn: Callable[[T], dict], items: Iterable[T], *, workers: int | None = None, client: Any = None
) -> Iterator[dict]:
    """``fn`` over ``items``, yielding results as they finish: in this
    process (``workers=1``), on a local process pool, or on ``client`` (a
    ``dask.distributed.Client`` or any ``concurrent.futures.Executor``);
    see :func:`fairyforge.tools.jobs.execute`."""
    for _, result in jobs.execute(fn, items, executor=client, workers=workers):
        yield result


@contextlib.contextmanager
def interrupt_deferred() -> Iterator[None]:
    """Hold Ctrl-C until the block ends (main thread only), so that a
    record and what is written beside it (a PGN game) land both or neither."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught and callable(previous):
        previous(signal.SIGINT, None)
    elif caught and previous != signal.SIG_IGN:
        raise KeyboardInterrupt


def append(out: str | os.PathLike[str], record: dict) -> None:
    """Append one record to ``out`` as one line, written at once."""
    with open(out, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(record) + "\n")


def run_resumable(
    fn: Callable[[T], dict],
    items: Iterable[T],
    index: Callable[[T], int],
    *,
    out: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    client: Any = None,
    progress: Callable[[dict], None] | None = None,
    until: Callable[[list[dict]], bool] | None = None,
) -> list[dict]:
    """Run the items whose index is not yet recorded in ``out``, appending
    each result as it arrives; return every record (old and new) by index.
    ``until``: called with every record so far (old and new) before the
    run and after each new record; when it says True, the run stops and
    the tasks not finished are cancelled (a sequential test decided)."""
    with lock(out) if out is not None else contextlib.nullcontext():
        if out is not None:
            repair(out)
        done = recorded(out)
        history = read(out) if until is not None and out is not None and os.path.exists(out) else []
        records = []
        todo = [item for item in items if index(item) not in done]
        if until is not None and until(history):
            todo = []
        results = run_tasks(fn, todo, workers=workers, client=client)
        with contextlib.closing(results):  # type: ignore[type-var]
            for record in results:
                with interrupt_deferred():
                    if out is not None:
                        append(out, record)
                    if progress:
                        progress(record)
                records.append(record)
                history.append(record)
                if until is not None and until(history):
                    break
    return read(out) if out is not None else sorted(records, key=_index)
