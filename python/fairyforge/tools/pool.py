"""Running many independent jobs (games to play, games to analyse) on a
local process pool or a Dask cluster, with results appended to a
JSON-lines file so that an interrupted run resumes where it stopped."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")


class SettingsMismatchError(ValueError):
    """An output that holds results made with other settings than a rerun's."""


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


def recorded(path: str | os.PathLike[str] | None) -> set[int]:
    """The ``index`` of every record already in ``path``."""
    if path is None or not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as handle:
        return {json.loads(line)["index"] for line in handle if line.strip()}


def read(path: str | os.PathLike[str]) -> list[dict]:
    """Every record of ``path``, sorted by index."""
    with open(path, encoding="utf-8") as handle:
        return sorted((json.loads(line) for line in handle if line.strip()), key=_index)


def _index(record: dict) -> int:
    return record["index"]


def run_tasks(
    fn: Callable[[T], dict], items: Iterable[T], *, workers: int | None = None, client: Any = None
) -> Iterator[dict]:
    """``fn`` over ``items``, yielding results as they finish: in this
    process (``workers=1``), on a local process pool, or on a Dask
    ``client``."""
    items = list(items)
    if not items:
        return
    if client is not None:
        from dask.distributed import as_completed as dask_completed

        for future in dask_completed(client.map(fn, items, pure=False)):
            yield future.result()
    elif workers == 1:
        yield from map(fn, items)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for future in as_completed([pool.submit(fn, item) for item in items]):
                yield future.result()


def run_resumable(
    fn: Callable[[T], dict],
    items: Iterable[T],
    index: Callable[[T], int],
    *,
    out: str | os.PathLike[str] | None = None,
    workers: int | None = None,
    client: Any = None,
    progress: Callable[[dict], None] | None = None,
) -> list[dict]:
    """Run the items whose index is not yet recorded in ``out``, appending
    each result as it arrives; return every record (old and new) by index."""
    done = recorded(out)
    records = []
    todo = [item for item in items if index(item) not in done]
    for record in run_tasks(fn, todo, workers=workers, client=client):
        if out is not None:
            with open(out, "a", encoding="utf-8") as handle:
                handle.write(json.dumps(record) + "\n")
        records.append(record)
        if progress:
            progress(record)
    return read(out) if out is not None else sorted(records, key=_index)
