"""Self-play balance studies: fairyforge plays itself from varied, fair
openings under each configuration of a variant (its options, or every
combination of a grid of them), and the games answer a designer's
questions -- does White win more often, how do games end, how long are
they, how many moves does a player have to choose from, what does the
engine think of the position as the game goes on.

>>> plan = make_plan("evolution", games=2, nodes=300, max_plies=16, random_plies=2)
>>> records = list(run(plan, workers=1))
>>> [r["index"] for r in records], records[0]["config"]
([0, 1], 'evolution')
>>> summary = summarize(records)[0]
>>> summary["games"], len(summary["branching"]["mean"]) > 0
(2, True)

Games: the same engine (fairyforge's search at the given limits, one
engine per side, its table cleared before each game) plays both sides.
Each game starts from an opening of its own (see
:mod:`fairyforge.tools.openings`: seeded fair random plies, or a line of an
openings file followed by them), and no two games of a configuration start
from the same position; at fixed nodes a game is then determined by its
seed and index, wherever it is played. Configurations share their seeds,
so where their rules agree their openings do too.

Output (``out``, a directory): per configuration ``<name>.jsonl`` (a JSON
line per game, appended as each ends), ``<name>.pgn`` and
``<name>.settings.json``; a rerun with the same settings continues, with
other settings it is refused (:class:`~fairyforge.tools.pool.SettingsMismatchError`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import itertools
import json
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import fairyforge
from fairyforge import pgn
from fairyforge.tools import jobs, match, pool, stats
from fairyforge.tools import openings as openingsmod
from fairyforge.tools.clock import TimeControl
from fairyforge.tools.openings import Opening
from fairyforge.tools.players import Player

__all__ = [
    "Config",
    "Plan",
    "configs",
    "make_plan",
    "parse_grid",
    "play_game",
    "plot",
    "run",
    "summarize",
]

#: Default node budget per move when no limit is given.
DEFAULT_NODES = 2000

#: How the games' ``termination`` values are grouped in the summary, in the
#: order they are shown.
TERMINATIONS = {
    "checkmate": "checkmate",
    "shock": "shock",
    "stalemate": "stalemate",
    "extinction": "extinction",
    "threefold_repetition": "repetition",
    "fivefold_repetition": "repetition",
    "fifty_moves": "fifty moves",
    "seventyfive_moves": "fifty moves",
    "insufficient_material": "insufficient material",
    "max_plies": "adjudication",
    "time_forfeit": "forfeit",
    "illegal_move": "forfeit",
    "crash": "forfeit",
}

#: Evaluations are averaged with mates and large scores capped at this many
#: centipawns (White's view), so one mate does not swamp a mean.
EVAL_CAP = 1000

#: Branching and evaluation by ply are reported up to the ply that at
#: least this fraction of the games reach.
PLY_COVERAGE = 0.1


class StudyError(ValueError):
    """A study that cannot run as asked: a bad grid, limits or openings."""


@dataclass(frozen=True)
class Config:
    """One configuration of a study: its ``label`` (the grid's choices, or
    the variant's name), the variant ``options``, the start positions games
    take in turn (None: the variant's start), ``tags`` copied into each
    record (piece-value studies name their imbalance there) and its number
    of ``games`` when it is not the plan's."""

    label: str
    options: dict = field(default_factory=dict)
    starts: tuple[str | None, ...] = (None,)
    tags: dict = field(default_factory=dict)
    games: int | None = None

    @property
    def file_name(self) -> str:
        """The output files' stem: the label with ``=`` as ``-`` and spaces
        as ``_`` (other unsafe characters as ``-``)."""
        name = self.label.replace("=", "-").replace(" ", "_")
        return re.sub(r"[^A-Za-z0-9_.+-]", "-", name)


@dataclass(frozen=True)
class Plan:
    """Everything that decides a study's games (see :func:`make_plan`)."""

    variant: str
    configs: tuple[Config, ...]
    games: int = 100
    nodes: int | None = DEFAULT_NODES
    movetime: int | None = None
    depth: int | None = None
    tc: TimeControl | None = None
    hash_mb: int = 16
    max_plies: int = 200
    openings: tuple[Opening, ...] = ()
    random_plies: int = 6
    window: int = 100
    window_nodes: int = 1000
    seed: int = 1
    event: str = "fairyforge study"

    def games_of(self, config: Config) -> int:
        """How many games ``config`` gets."""
        return config.games if config.games is not None else self.games

    def players(self) -> tuple[Player, Player]:
        """The two sides: one engine each, alike but for the name."""
        white = Player(
            "fairyforge (white)",
            depth=self.depth,
            nodes=self.nodes,
            movetime=self.movetime,
            hash_mb=self.hash_mb,
        )
        return white, dataclasses.replace(white, name="fairyforge (black)")

    def limit(self) -> str:
        """The limits in words: ``2000 nodes per move``."""
        if self.tc is not None:
            return f"{self.tc} clock"
        parts = []
        if self.nodes is not None:
            parts.append(f"{self.nodes} nodes")
        if self.movetime is not None:
            parts.append(f"{self.movetime} ms")
        if self.depth is not None:
            parts.append(f"depth {self.depth}")
        return " + ".join(parts) + " per move"

    def settings(self, config: Config) -> dict[str, Any]:
        """What decides the games of ``config`` (not their number, so a
        rerun with more games extends a study)."""
        book = [[o.fen, list(o.moves)] for o in self.openings]
        digest = hashlib.sha256(json.dumps(book).encode()).hexdigest()[:16] if book else None
        return {
            "event": self.event,
            "variant": self.variant,
            "options": config.options,
            "starts": list(config.starts),
            "tags": config.tags,
            "player": self.players()[0].settings(),
            "tc": str(self.tc) if self.tc is not None else None,
            "max_plies": self.max_plies,
            "openings": {"count": len(book), "sha256": digest} if book else None,
            "random_plies": self.random_plies,
            "window": self.window,
            "window_nodes": self.window_nodes,
            "seed": self.seed,
        }

    def fingerprint(self, config: Config) -> str:
        """A short hash of :meth:`settings`."""
        text = json.dumps(self.settings(config), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def start(self, config: Config, index: int) -> Opening:
        """Where game ``index`` starts before its random plies: a line of the
        openings file, or the configuration's start position."""
        if self.openings:
            return self.openings[index % len(self.openings)]
        return Opening(config.starts[index % len(config.starts)])

    def fair_task(self, config: Config, index: int, attempt: int) -> openingsmod.FairLine:
        """The opening of game ``index``, attempt ``attempt``."""
        start = self.start(config, index)
        return openingsmod.FairLine(
            self.variant,
            config.options,
            start.fen,
            start.moves,
            self.random_plies,
            f"{self.seed}/{index}/{attempt}",
            self.window,
            self.window_nodes,
        )


def parse_grid(specs: Iterable[str]) -> list[tuple[str, list[str]]]:
    """``["royal=king,maharajah", "cycle=none,knight"]`` as ``[("royal",
    ["king", "maharajah"]), ("cycle", ["none", "knight"])]``; raises
    :class:`StudyError` for a malformed item or a key given twice."""
    grid: list[tuple[str, list[str]]] = []
    for spec in specs:
        key, sep, values = spec.partition("=")
        key = key.strip()
        choices = [v.strip() for v in values.split(",")]
        if not sep or not key or not all(choices):
            raise StudyError(
                f"invalid option --grid {spec!r}: expected KEY=V1,V2,... "
                "(for example royal=king,maharajah,gryphon)"
            )
        if key in dict(grid):
            raise StudyError(f"invalid option --grid: {key!r} given twice")
        if len(set(choices)) != len(choices):
            raise StudyError(f"invalid option --grid {spec!r}: a value is given twice")
        grid.append((key, choices))
    return grid


def configs(
    variant: str, options: dict | None = None, grid: Sequence[tuple[str, Sequence[str]]] = ()
) -> list[Config]:
    """Every combination of the grid's values (the first key varying
    slowest) on top of ``options``; one configuration, labelled with the
    variant's name, without a grid. Raises :class:`StudyError` when a grid
    key is also a fixed option, and the engine's errors for bad values."""
    options = dict(options or {})
    for key, _ in grid:
        if key in options:
            raise StudyError(f"invalid option --grid: {key!r} is also fixed by --opt")
    if not grid:
        fairyforge.Board(variant, **options)
        return [Config(variant, options)]
    out = []
    for values in itertools.product(*(choices for _, choices in grid)):
        chosen = dict(zip((key for key, _ in grid), values))
        fairyforge.Board(variant, **options, **chosen)
        label = " ".join(f"{k}={v}" for k, v in chosen.items())
        out.append(Config(label, {**options, **chosen}))
    return out


def make_plan(
    variant: str = "chess",
    *,
    options: dict | None = None,
    grid: Sequence[tuple[str, Sequence[str]]] | dict[str, Sequence[str]] = (),
    games: int = 100,
    nodes: int | None = None,
    movetime: int | None = None,
    depth: int | None = None,
    tc: str | TimeControl | None = None,
    hash_mb: int = 16,
    max_plies: int = 200,
    openings: str | os.PathLike[str] | Sequence[Opening] | None = None,
    random_plies: int | None = None,
    window: int = 100,
    window_nodes: int = 1000,
    seed: int = 1,
    study_configs: Sequence[Config] | None = None,
    event: str = "fairyforge study",
) -> Plan:
    """Check a study's settings and return its :class:`Plan`.

    Limits: ``nodes`` (default :data:`DEFAULT_NODES` when nothing else is
    given), ``movetime`` (ms), ``depth``, or a clock ``tc`` (``"10+0.1"``;
    it replaces the others). Openings: ``random_plies`` fair random plies
    (default 6, or 0 after an openings file) within ``window`` centipawns
    at ``window_nodes`` nodes, after a line of ``openings`` (a path to an
    EPD/PGN file or a list of :class:`~fairyforge.tools.openings.Opening`)
    when given. ``grid``: keys and the values to combine. Raises
    ``ValueError`` subclasses for anything that would not run."""
    if isinstance(tc, str):
        tc = TimeControl.parse(tc)
    for name, value, least in (
        ("games", games, 1),
        ("nodes", nodes, 1),
        ("movetime", movetime, 1),
        ("depth", depth, 1),
        ("hash", hash_mb, 1),
        ("max-plies", max_plies, 1),
        ("random-plies", random_plies, 0),
        ("window", window, 0),
        ("window-nodes", window_nodes, 1),
    ):
        if value is not None and value < least:
            raise StudyError(f"invalid option --{name}: {value} (at least {least})")
    if tc is not None and (nodes, movetime, depth) != (None, None, None):
        raise StudyError("invalid limits: a clock (--tc) replaces --nodes, --movetime and --depth")
    if tc is None and (nodes, movetime, depth) == (None, None, None):
        nodes = DEFAULT_NODES
    grid_items = list(grid.items()) if isinstance(grid, dict) else list(grid)
    found = list(study_configs) if study_configs else configs(variant, options, grid_items)
    book: tuple[Opening, ...] = ()
    if openings is not None:
        if isinstance(openings, (str, os.PathLike)):
            book = tuple(openingsmod.read(openings, variant, found[0].options))
        else:
            book = tuple(openings)
        for config in found:
            openingsmod.check(book, variant, config.options)
    if random_plies is None:
        random_plies = 0 if book else 6
    if book and random_plies == 0 and games > len(book):
        raise StudyError(
            f"invalid option --games: {games} games but {len(book)} openings, and with "
            "--random-plies 0 games from one opening would replay each other: "
            "give --random-plies R to vary them, or fewer games"
        )
    return Plan(
        variant,
        tuple(found),
        games,
        nodes,
        movetime,
        depth,
        tc,
        hash_mb,
        max_plies,
        book,
        random_plies,
        window,
        window_nodes,
        seed,
        event,
    )


# --------------------------------------------------------------------------
# Games


@dataclass(frozen=True)
class GameTask:
    """One game of a study: its configuration's label and tags, and the
    pairing to play (its opening as the book)."""

    config: str
    pairing: match.Pairing
    tags: dict = field(default_factory=dict)


def play_game(task: GameTask) -> dict:
    """Play a game and return its record: :func:`fairyforge.tools.match.play`'s
    fields, plus ``config`` (the label), the configuration's tags, and what
    the summary needs: ``legal`` (legal moves in the position before each
    ply), ``captures`` (plies that took a piece), ``eval_cp`` (the mover's
    search score as White's centipawns per ply, None in the opening, mates
    as +-100000), ``kings`` (royal pieces of White and Black at the end)
    and ``points`` (Burden's points of White and Black, or None)."""
    record = match.play(task.pairing)
    record["config"] = task.config
    record.update(task.tags)
    record.update(game_stats(record))
    return record


def _sides(board: fairyforge.Board) -> tuple[int, int]:
    """Pieces of White and of Black on the board."""
    placement = board.fen().split()[0]
    return sum(c.isupper() for c in placement), sum(c.islower() for c in placement)


def game_stats(record: dict) -> dict[str, Any]:
    """Replay a record's moves for ``legal``, ``captures``, ``eval_cp``,
    ``kings`` and ``points`` (see :func:`play_game`)."""
    board = fairyforge.Board(record["variant"], record.get("fen"), **record["options"])
    book = record["opening_plies"]
    legal, evals = [], []
    captures = 0
    pieces = _sides(board)
    for ply, move in enumerate(record["moves"]):
        legal.append(len(board.legal_moves))
        white = board.turn
        text = record["evals"][ply - book] if ply >= book else None
        evals.append(_white_cp(text, white))
        board.push_uci(move)
        now = _sides(board)
        if now[1 if white else 0] < pieces[1 if white else 0]:
            captures += 1
        pieces = now
    outcome = board.outcome(claim_draw=True)
    points = list(outcome.points) if outcome is not None and outcome.points else None
    kings = [len(board.royal_squares(True)), len(board.royal_squares(False))]
    return {
        "legal": legal,
        "captures": captures,
        "eval_cp": evals,
        "kings": kings,
        "points": points,
    }


def _white_cp(text: str | None, white: bool) -> int | None:
    """A record's ``+0.25/12`` or ``#-3/9`` (mover's view) as White's
    centipawns."""
    if not text:
        return None
    score = text.partition("/")[0]
    if score.startswith("#"):
        cp = openingsmod.MATE_CP if int(score[1:]) > 0 else -openingsmod.MATE_CP
    else:
        cp = round(float(score) * 100)
    return cp if white else -cp


def _game_pgn(record: dict, event: str) -> pgn.Game:
    game = match.game_pgn(record)
    game.headers["Event"] = event
    return game


def _rewrite_pgn(path: Path, records: list[dict], event: str) -> None:
    """The PGN file made again from the records, so it holds each once."""
    temporary = path.with_suffix(".pgn.tmp")
    temporary.unlink(missing_ok=True)
    temporary.touch()
    pgn.write_games(temporary, (_game_pgn(r, event) for r in records))
    temporary.replace(path)


def _opening_key(record: dict) -> str:
    """The position a recorded game's opening reached."""
    opening = Opening(record.get("fen"), tuple(record["moves"][: record["opening_plies"]]))
    return openingsmod.position_key(opening.board(record["variant"], record["options"]))


def run(
    plan: Plan,
    *,
    out: str | os.PathLike[str] | None = None,
    executor: Any = None,
    workers: int | None = None,
    on_start: Callable[[int, int], None] | None = None,
) -> Iterator[dict]:
    """Play the plan's games; an iterator over their records: those already
    in ``out`` first (each configuration's games in index order), then each
    new one as it finishes, once it is appended to its configuration's
    JSONL and PGN files. ``executor``: None for a local process pool of
    ``workers`` processes (1: in this process), any
    ``concurrent.futures.Executor`` or a ``dask.distributed.Client``.
    ``on_start(done, total)`` is called once before play with the games
    already recorded and the games in all.

    Openings and games share the workers: a game is played as soon as its
    opening is settled (the openings of all games before it known), so the
    first games end at once. The output directory and the stored settings
    are checked when ``run`` is called (a
    :class:`~fairyforge.tools.jobs.PathError` or
    :class:`~fairyforge.tools.pool.SettingsMismatchError` before any
    work); the games are played as the iterator is consumed. Stopping the
    iteration (or Ctrl-C) cancels the games not finished; finished ones
    stay recorded, and a rerun continues."""
    paths: dict[str, Path] = {}
    if out is not None:
        directory = jobs.output_dir(out)
        paths = {c.label: directory / f"{c.file_name}.jsonl" for c in plan.configs}
        for config in plan.configs:
            pool.claim(paths[config.label], plan.settings(config))
    return _run(plan, paths, executor, workers, on_start)


def _opening(item: tuple[str, int, openingsmod.FairLine]) -> openingsmod.Line:
    """A game's first attempt at a fair line (a task of its own)."""
    return openingsmod.fair_line(item[2])


def _run(
    plan: Plan,
    paths: dict[str, Path],
    executor: Any,
    workers: int | None,
    on_start: Callable[[int, int], None] | None,
) -> Iterator[dict]:
    with contextlib.ExitStack() as held:
        recorded: dict[str, list[dict]] = {}
        for config in plan.configs:
            path = paths.get(config.label)
            if path is None:
                recorded[config.label] = []
                continue
            held.enter_context(pool.lock(path))
            pool.claim(path, plan.settings(config))
            everything = pool.read(path) if path.exists() else []
            _rewrite_pgn(path.with_suffix(".pgn"), everything, plan.event)
            games = plan.games_of(config)
            recorded[config.label] = [r for r in everything if r["index"] < games]
        for config in plan.configs:
            yield from recorded[config.label]
        runner = held.enter_context(jobs.Runner(executor, workers))
        white, black = plan.players()

        def play(config: Config, index: int, line: openingsmod.Line) -> None:
            pairing = match.Pairing(
                plan.variant,
                config.options,
                index,
                white,
                black,
                opening_plies=0,
                max_plies=plan.max_plies,
                fen=plan.start(config, index).fen,
                tc=plan.tc,
                book=line.moves,
            )
            runner.submit(play_game, GameTask(config.label, pairing, config.tags), priority=0)

        settle: dict[str, openingsmod.Distinct] = {}
        by_label = {c.label: c for c in plan.configs}
        todo = {
            c.label: sorted(set(range(plan.games_of(c))) - {r["index"] for r in recorded[c.label]})
            for c in plan.configs
        }
        for config in plan.configs:
            taken = {r["index"]: _opening_key(r) for r in recorded[config.label]}
            settle[config.label] = openingsmod.Distinct(
                lambda i, attempt, config=config: plan.fair_task(config, i, attempt),
                todo[config.label],
                taken,
            )
        for index in range(max(plan.games_of(c) for c in plan.configs)):
            for config in plan.configs:
                if index not in todo[config.label]:
                    continue
                if plan.random_plies == 0:
                    start = plan.start(config, index)
                    key = openingsmod.position_key(start.board(plan.variant, config.options))
                    play(config, index, openingsmod.Line(start.moves, key))
                else:
                    item = (config.label, index, plan.fair_task(config, index, 0))
                    runner.submit(_opening, item, priority=1)
        done = sum(len(r) for r in recorded.values())
        if on_start:
            on_start(done, done + sum(len(t) for t in todo.values()))
        for fn, item, result in runner.results():
            if fn is _opening:
                label, index, _ = item
                for settled, line in settle[label].add(index, result):
                    play(by_label[label], settled, line)
                continue
            path = paths.get(item.config)
            if path is not None:
                game = _game_pgn(result, plan.event)
                with pool.interrupt_deferred():
                    pool.append(path, result)
                    pgn.write_games(path.with_suffix(".pgn"), [game])
            yield result


# --------------------------------------------------------------------------
# Summary


def summarize(records: Iterable[dict]) -> list[dict[str, Any]]:
    """A summary per configuration (in the order they first appear): games;
    White wins, draws and Black wins; White's score and its 95% interval
    (:func:`fairyforge.tools.stats.score_interval`); terminations (grouped
    as in :data:`TERMINATIONS`); game length in plies (quartiles, mean);
    the lengths themselves; captures per game; legal moves per position
    (mean, and by ply);
    White's evaluation by ply (capped at :data:`EVAL_CAP`); royal pieces of
    each side at the end; Burden's points (totals and per game)."""
    by_config: dict[str, list[dict]] = {}
    for record in records:
        by_config.setdefault(record["config"], []).append(record)
    return [_summary(label, games) for label, games in by_config.items()]


def _summary(label: str, records: list[dict]) -> dict[str, Any]:
    n = len(records)
    results = Counter(r["result"] for r in records)
    wins, draws, losses = results["1-0"], results["1/2-1/2"], results["0-1"]
    lo, hi = stats.score_interval(wins, draws, losses)
    ends = Counter(TERMINATIONS.get(r["termination"], r["termination"]) for r in records)
    order = list(dict.fromkeys(TERMINATIONS.values()))
    lengths = [len(r["moves"]) for r in records]
    quartiles = stats.quartiles(lengths)
    legal = [count for r in records for count in r["legal"]]
    points = [r["points"] for r in records if r.get("points")]
    return {
        "config": label,
        "variant": records[0]["variant"],
        "options": records[0]["options"],
        "games": n,
        "white_wins": wins,
        "draws": draws,
        "black_wins": losses,
        "white_score": (wins + 0.5 * draws) / n,
        "interval": [lo, hi],
        "terminations": {k: ends[k] for k in sorted(ends, key=_order_of(order))},
        "length": {
            "q1": quartiles[0] if quartiles else None,
            "median": quartiles[1] if quartiles else None,
            "q3": quartiles[2] if quartiles else None,
            "mean": sum(lengths) / n,
            "max": max(lengths),
        },
        "lengths": sorted(lengths),
        "captures_per_game": sum(r["captures"] for r in records) / n,
        "branching_mean": sum(legal) / len(legal) if legal else None,
        "branching": _by_ply(records, "legal", cap=None),
        "eval": _by_ply(records, "eval_cp", cap=EVAL_CAP),
        "kings_end": {
            "white": sum(r["kings"][0] for r in records) / n,
            "black": sum(r["kings"][1] for r in records) / n,
        },
        "points": {
            "white": sum(p[0] for p in points),
            "black": sum(p[1] for p in points),
            "white_per_game": sum(p[0] for p in points) / n,
            "black_per_game": sum(p[1] for p in points) / n,
        }
        if points
        else None,
    }


def _order_of(order: list[str]) -> Callable[[str], int]:
    return lambda name: order.index(name) if name in order else len(order)


def _by_ply(records: list[dict], key: str, cap: int | None) -> dict[str, list]:
    """Mean of a per-ply list over the games that have a value at each ply,
    up to the ply :data:`PLY_COVERAGE` of the games reach."""
    least = max(1, round(PLY_COVERAGE * len(records)))
    means, counts = [], []
    for ply in itertools.count():
        values = [r[key][ply] for r in records if ply < len(r[key]) and r[key][ply] is not None]
        reached = sum(1 for r in records if ply < len(r[key]))
        if reached < least:
            break
        if cap is not None:
            values = [max(-cap, min(cap, v)) for v in values]
        means.append(sum(values) / len(values) if values else None)
        counts.append(len(values))
    return {"mean": means, "games": counts}


def summary_json(plan: Plan, summaries: list[dict[str, Any]]) -> dict[str, Any]:
    """``summary.json``: the plan's settings (limits, openings, seed) and
    each configuration's summary with the fingerprint of its settings."""
    fingerprints = {c.label: plan.fingerprint(c) for c in plan.configs}
    return {
        "event": plan.event,
        "variant": plan.variant,
        "games_per_config": plan.games,
        "limit": plan.limit(),
        "max_plies": plan.max_plies,
        "openings": {
            "file_lines": len(plan.openings),
            "random_plies": plan.random_plies,
            "window_cp": plan.window,
            "window_nodes": plan.window_nodes,
        },
        "seed": plan.seed,
        "configs": [{**s, "fingerprint": fingerprints.get(s["config"])} for s in summaries],
    }


def write_summary(directory: str | os.PathLike[str], document: dict[str, Any], name: str) -> Path:
    """Write ``document`` as ``directory/name`` (via a temporary file)."""
    path = Path(directory) / name
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    temporary.replace(path)
    return path


# --------------------------------------------------------------------------
# Plots


def _pyplot() -> Any:
    jobs.require_extra("matplotlib", "plot")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot(
    summaries: list[dict[str, Any]], directory: str | os.PathLike[str], title: str
) -> list[Path]:
    """PNGs in ``directory``: ``score.png`` (White's score with its 95%
    interval per configuration), ``terminations.png`` (how games ended, as
    shares), ``lengths.png`` (game length histograms), ``branching.png``
    (legal moves by ply) and ``eval.png`` (White's evaluation by ply).
    Returns their paths."""
    plt = _pyplot()
    directory = Path(directory)
    labels = [s["config"] for s in summaries]
    paths = []

    width = max(6.0, 0.9 * len(labels) + 2)
    fig, ax = plt.subplots(figsize=(width, 4.2), layout="constrained")
    x = range(len(labels))
    scores = [100 * s["white_score"] for s in summaries]
    lows = [100 * (s["white_score"] - s["interval"][0]) for s in summaries]
    highs = [100 * (s["interval"][1] - s["white_score"]) for s in summaries]
    ax.errorbar(x, scores, yerr=[lows, highs], fmt="o", capsize=5, color="#2c7fb8")
    ax.set_xlim(-0.5, len(labels) - 0.5)
    ax.axhline(50, color="grey", lw=0.8, ls="--")
    ax.set_xticks(list(x), labels, rotation=30 if len(labels) > 3 else 0, ha="right")
    ax.set_ylabel("White's score, % (95% interval)")
    ax.set_title(f"{title}: White's score")
    paths.append(_save(fig, plt, directory / "score.png"))

    kinds = list(dict.fromkeys(k for s in summaries for k in s["terminations"]))
    fig, ax = plt.subplots(figsize=(9, max(2.5, 0.45 * len(labels) + 1.5)), layout="constrained")
    left = [0.0] * len(labels)
    colours = plt.get_cmap("tab10")
    for i, kind in enumerate(kinds):
        shares = [100 * s["terminations"].get(kind, 0) / s["games"] for s in summaries]
        ax.barh(labels, shares, left=left, label=kind, color=colours(i % 10))
        left = [a + b for a, b in zip(left, shares)]
    ax.set_xlabel("share of games, %")
    ax.set_xlim(0, 100)
    ax.invert_yaxis()
    ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8)
    ax.set_title(f"{title}: how games end")
    paths.append(_save(fig, plt, directory / "terminations.png"))

    lengths = [s["lengths"] for s in summaries]
    cols = min(3, len(labels))
    rows = -(-len(labels) // cols)
    fig, axes = plt.subplots(
        rows,
        cols,
        figsize=(max(3.6 * cols, 7), max(2.6 * rows, 3.8)),
        squeeze=False,
        layout="constrained",
    )
    top = max((max(v) for v in lengths if v), default=1)
    for ax, label, values in zip(axes.flat, labels, lengths):
        ax.hist(values, bins=range(0, top + 10, 10), color="#41ab5d")
        ax.set_title(label, fontsize=9)
        ax.set_xlabel("plies", fontsize=8)
    for ax in list(axes.flat)[len(labels) :]:
        ax.axis("off")
    fig.suptitle(f"{title}: game length")
    paths.append(_save(fig, plt, directory / "lengths.png"))

    for name, key, ylabel in (
        ("branching.png", "branching", "legal moves (mean)"),
        ("eval.png", "eval", f"White's evaluation, pawns (capped at {EVAL_CAP // 100})"),
    ):
        fig, ax = plt.subplots(figsize=(8, 4.2), layout="constrained")
        for label, s in zip(labels, summaries):
            means = s[key]["mean"]
            points = [
                (i, m / 100 if key == "eval" else m) for i, m in enumerate(means) if m is not None
            ]
            ax.plot([p[0] for p in points], [p[1] for p in points], label=label, lw=1.2)
        if key == "eval":
            ax.axhline(0, color="grey", lw=0.8, ls="--")
        ax.set_xlabel("ply")
        ax.set_ylabel(ylabel)
        ax.set_title(f"{title}: {'legal moves' if key == 'branching' else 'evaluation'} by ply")
        if len(labels) > 1:
            ax.legend(fontsize=7, ncol=2 if len(labels) > 5 else 1)
        paths.append(_save(fig, plt, directory / name))
    return paths


def _save(fig: Any, plt: Any, path: Path) -> Path:
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
