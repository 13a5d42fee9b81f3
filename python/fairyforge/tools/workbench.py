"""The variant designer's commands: ``fairyforge study`` (self-play balance
studies), ``fairyforge values`` (piece values by self-play),
``fairyforge openings`` (opening trees and books) and ``fairyforge tune``
(evaluation weights fitted to games). See docs/STUDIES.md and
docs/TUNING.md.
The heavy modules are imported when a command runs."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.tree import Tree

import fairyforge
from fairyforge.tools import shell


def _console(args: argparse.Namespace) -> Console:
    """Where progress and notes go: standard error."""
    return shell.console


def _results(args: argparse.Namespace) -> Console:
    """Where the result tables go: standard output, or standard error when
    ``--json`` owns standard output."""
    return Console(stderr=True) if getattr(args, "json", False) else shell.results


def _executor(args: argparse.Namespace) -> Any:
    if not args.dask:
        return None
    from fairyforge.tools import jobs

    jobs.require_extra("distributed", "dask")
    from dask.distributed import Client

    return Client(args.dask)


def _play(
    args: argparse.Namespace,
    console: Console,
    plan: Any,
    out: Path,
    runner: Callable[..., Any],
) -> list[dict] | None:
    """Run a plan's games with a progress bar (ETA, running score of the
    configuration that just finished a game); the records, old and new, or
    None after Ctrl-C (the finished games are kept)."""
    from fairyforge.tools import jobs

    records: list[dict] = []
    scores: dict[str, Counter] = {}
    started = False
    executor = _executor(args)
    try:
        with jobs.ProgressBar(console, "games", 0) as bar:

            def on_start(done: int, total: int) -> None:
                nonlocal started
                started = True
                bar.describe("games", total, done)

            for record in runner(
                plan, out=out, executor=executor, workers=args.workers, on_start=on_start
            ):
                records.append(record)
                tally = scores.setdefault(record["config"], Counter())
                tally[record["result"]] += 1
                if started:
                    n = sum(tally.values())
                    white = (tally["1-0"] + 0.5 * tally["1/2-1/2"]) / n
                    bar.advance(
                        f"{record['config']}: White {white:.1%} "
                        f"(+{tally['1-0']} ={tally['1/2-1/2']} -{tally['0-1']})"
                    )
    except KeyboardInterrupt:
        console.print(
            f"[yellow]interrupted[/yellow]: {len(records)} games kept in {out}; "
            "the same command continues",
            highlight=False,
            soft_wrap=True,
        )
        return None
    finally:
        if executor is not None:
            executor.close()
    return records


def _limits(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "games": args.games,
        "nodes": args.nodes,
        "movetime": args.movetime,
        "depth": args.depth,
        "tc": args.tc,
        "hash_mb": args.hash,
        "max_plies": args.max_plies,
        "random_plies": args.random_plies,
        "window": args.window,
        "window_nodes": args.window_nodes,
        "seed": args.seed,
    }


def cmd_study(args: argparse.Namespace) -> int:
    from fairyforge.tools import jobs, study

    console = _console(args)
    if args.plot:
        jobs.require_extra("matplotlib", "plot")
    plan = study.make_plan(
        args.variant,
        options=shell.parse_options(args.opt),
        grid=study.parse_grid(args.grid),
        openings=args.openings,
        **_limits(args),
    )
    out = jobs.output_dir(args.out)
    records = _play(args, console, plan, out, study.run)
    if records is None:
        return 130
    order = {c.label: i for i, c in enumerate(plan.configs)}
    summaries = sorted(study.summarize(records), key=lambda s: order[s["config"]])
    document = study.summary_json(plan, summaries)
    study.write_summary(out, document, "summary.json")
    if args.json:
        print(json.dumps(document, indent=1))
    else:
        _study_tables(_results(args), plan, summaries)
        console.print(f"games and summary.json in {out}", highlight=False, soft_wrap=True)
    if args.plot:
        title = f"{plan.variant}, {plan.limit()}"
        for path in study.plot(summaries, out, title):
            console.print(f"plot written to {path}", highlight=False, soft_wrap=True)
    return 0


def _study_tables(console: Console, plan: Any, summaries: list[dict]) -> None:
    results = Table(title=f"{plan.variant}: White's score ({plan.limit()}, self-play)")
    for col in ("configuration", "games", "White / draw / Black", "White score", "95% interval"):
        results.add_column(col, justify="left" if col == "configuration" else "right")
    for s in summaries:
        lo, hi = s["interval"]
        results.add_row(
            s["config"],
            str(s["games"]),
            f"{s['white_wins']} / {s['draws']} / {s['black_wins']}",
            f"{s['white_score']:.1%}",
            f"{lo:.1%} - {hi:.1%}",
        )
    console.print(results)

    kinds = list(dict.fromkeys(k for s in summaries for k in s["terminations"]))
    ends = Table(title="how games end (share of games)")
    ends.add_column("configuration")
    for kind in kinds:
        ends.add_column(kind, justify="right")
    for s in summaries:
        cells = []
        for kind in kinds:
            count = s["terminations"].get(kind, 0)
            share = count / s["games"]
            cells.append("-" if not count else f"{share:.0%}" if share >= 0.005 else "<1%")
        ends.add_row(s["config"], *cells)
    console.print(ends)

    shape = Table(title="games (plies; legal moves per position; White's evaluation in pawns)")
    for col in ("configuration", "plies q1-med-q3", "captures", "legal moves", "eval @10/20/40"):
        shape.add_column(col, justify="left" if col == "configuration" else "right")
    for s in summaries:
        length = s["length"]
        evals = s["eval"]["mean"]
        at = [evals[p] if p < len(evals) and evals[p] is not None else None for p in (10, 20, 40)]
        shape.add_row(
            s["config"],
            f"{length['q1']:.0f}-{length['median']:.0f}-{length['q3']:.0f}",
            f"{s['captures_per_game']:.1f}",
            f"{s['branching_mean']:.1f}" if s["branching_mean"] is not None else "-",
            " ".join(f"{v / 100:+.1f}" if v is not None else "-" for v in at),
        )
    console.print(shape)

    if any(s["variant"] == "burden" for s in summaries):
        royal = Table(title="Burden: royal pieces at the end and points per game (mean)")
        for col in ("configuration", "kings White", "kings Black", "points White", "points Black"):
            royal.add_column(col, justify="left" if col == "configuration" else "right")
        for s in summaries:
            kings, points = s["kings_end"], s["points"]
            royal.add_row(
                s["config"],
                f"{kings['white']:.2f}",
                f"{kings['black']:.2f}",
                f"{points['white_per_game']:.2f}" if points else "0",
                f"{points['black_per_game']:.2f}" if points else "0",
            )
        console.print(royal)


def cmd_values(args: argparse.Namespace) -> int:
    from fairyforge.tools import jobs, study, values

    console = _console(args)
    if args.plot:
        jobs.require_extra("matplotlib", "plot")
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()] if args.kinds else None
    plan = values.make_plan(
        args.variant,
        options=shell.parse_options(args.opt),
        kinds=kinds,
        unit_games=args.unit_games,
        **_limits(args),
    )
    out = jobs.output_dir(args.out)
    records = _play(args, console, plan, out, values.run)
    if records is None:
        return 130
    estimated = values.estimate(records)
    summaries = study.summarize(records)
    document = {
        "variant": plan.variant,
        "options": plan.configs[0].options,
        "limit": plan.limit(),
        "games_per_start": plan.games,
        "unit_games": plan.games_of(plan.configs[0]),
        "unit": estimated["unit"],
        "base_elo": estimated["base_elo"],
        "values": [v.__dict__ for v in estimated["values"]],
        "starts": [
            {k: s[k] for k in ("config", "games", "white_score", "interval")} for s in summaries
        ],
    }
    study.write_summary(out, document, "values.json")
    if args.json:
        print(json.dumps(document, indent=1))
    else:
        unit = fairyforge.Piece.from_symbol(estimated["unit"]).name
        table = Table(
            title=f"{plan.variant} piece values in {unit}s ({plan.limit()}, {plan.games} games "
            "per start)"
        )
        for col in ("kind", "piece", "side", f"value ({unit}s)", "95% interval"):
            table.add_column(col, justify="right" if "value" in col or "95" in col else "left")
        for col in ("Elo per piece", "games"):
            table.add_column(col, justify="right")
        for v in estimated["values"]:
            table.add_row(
                v.kind,
                v.name,
                v.sides or "(unit)",
                f"{v.value:.2f}",
                f"{v.low:.2f} - {v.high:.2f}" if v.kind != v.unit else "(unit)",
                f"{v.elo:+.0f} [{v.elo_low:+.0f}, {v.elo_high:+.0f}]",
                str(v.games),
            )
        _results(args).print(table)
        console.print(
            f"baseline: White scores {summaries[0]['white_score']:.1%} from the start; "
            f"games and values.json in {out}",
            highlight=False,
            soft_wrap=True,
        )
    if args.plot:
        path = values.plot(estimated, out / "values.png", f"{plan.variant}: piece values")
        console.print(f"plot written to {path}", highlight=False, soft_wrap=True)
    return 0


def cmd_tune(args: argparse.Namespace) -> int:
    from fairyforge.tools import jobs, study, tune

    console = _console(args)
    if args.plot:
        jobs.require_extra("matplotlib", "plot")
    if not 0 <= args.held < 1:
        raise fairyforge.InvalidOptionError(f"invalid option --held: {args.held} (0 to below 1)")
    if args.skip < 0:
        raise fairyforge.InvalidOptionError(f"invalid option --skip: {args.skip} (at least 0)")
    if not 0 < args.rate <= 1000:
        raise fairyforge.InvalidOptionError(
            f"invalid option --rate: {args.rate} (above 0, at most 1000)"
        )
    if not 0 <= args.l2 <= 1:
        raise fairyforge.InvalidOptionError(f"invalid option --l2: {args.l2} (0 to 1)")
    if args.epochs < 1:
        raise fairyforge.InvalidOptionError(f"invalid option --epochs: {args.epochs} (at least 1)")
    if not 0 <= args.lam <= 1:
        raise fairyforge.InvalidOptionError(f"invalid option --lambda: {args.lam} (0 to 1)")
    for path in args.pgn:
        jobs.input_file(path, "--pgn")
    analysed = [tune.read_analysis(path) for path in args.analysis]
    options = shell.parse_options(args.opt)
    board = fairyforge.Board(args.variant, **options)
    out = jobs.output_dir(args.out)
    if args.pgn or args.analysis:
        games = [g for path in args.pgn for g in tune.games_of_pgn(path, scored_by=args.scored_by)]
        for analysis in analysed:
            games += tune.games_of_analysis(analysis, scored_by=args.scored_by)
        games = [g for g in games if g.variant == board.variant.name]
        source = ", ".join([*args.pgn, *args.analysis])
    else:
        plan = study.make_plan(args.variant, options=options, **_limits(args))
        records = _play(args, console, plan, out, study.run)
        if records is None:
            return 130
        games = list(tune.games_of_records(records, scored_by=args.scored_by))
        source = f"self-play, {plan.limit()}"
    train, held = tune.split(games, args.held, args.seed, args.skip)
    scored = sum(p[2] is not None for p in train + held)
    console.print(
        f"{len(games)} games ({source}): {len(train)} training and {len(held)} held-out "
        f"positions, {scored} with a score; fitting",
        highlight=False,
        soft_wrap=True,
    )
    t = tune.fit(
        board,
        train,
        held,
        weights=args.weights,
        epochs=args.epochs,
        rate=args.rate,
        l2=args.l2,
        frozen=[n.strip() for n in args.freeze.split(",") if n.strip()] if args.freeze else (),
        anchor=args.anchor,
        lam=args.lam,
    )
    (out / "weights.toml").write_text(t.weights, encoding="utf-8")
    document = {
        "variant": board.variant.name,
        "options": options,
        "games": len(games),
        "lambda": args.lam,
        "scored_by": args.scored_by,
        "scored_positions": scored,
    }
    document.update(t.as_dict())
    study.write_summary(out, document, "tune.json")
    if args.json:
        print(json.dumps(document, indent=1))
    else:
        table = Table(title=f"{board.variant.name}: weights fitted to {len(games)} games")
        for col in ("term", "before (mg, eg)", "after (mg, eg)"):
            table.add_column(col, justify="left" if col == "term" else "right")
        for name, (a, b) in t.terms.items():
            table.add_row(name, f"{a[0]:.1f}, {a[1]:.1f}", f"{b[0]:.1f}, {b[1]:.1f}")
        _results(args).print(table)
        console.print(
            f"k {t.k:.3f}; loss training {t.before[0]:.5f} -> {t.after[0]:.5f}, held out "
            f"{t.before[1]:.5f} -> {t.after[1]:.5f} (epoch {t.best_epoch} kept); "
            f"weights in {out / 'weights.toml'}",
            highlight=False,
            soft_wrap=True,
        )
    if args.plot:
        tune.plot(t, str(out / "tune.png"), f"{board.variant.name}: Texel fit")
        console.print(f"plot written to {out / 'tune.png'}", highlight=False, soft_wrap=True)
    return 0


def _tree_sources(source: str) -> dict[str, list[dict]]:
    """Game records by name from a study directory (each JSONL file), a
    JSONL file or a PGN file."""
    from fairyforge import pgn
    from fairyforge.tools import jobs, pool

    path = Path(source)
    if path.is_dir():
        files = sorted(path.glob("*.jsonl"))
        if not files:
            raise jobs.PathError(f"{source}: no .jsonl game files in the directory")
        return {f.stem: pool.read(f) for f in files}
    jobs.input_file(path, "openings tree")
    if path.suffix.lower() == ".jsonl":
        return {path.stem: pool.read(path)}
    records = []
    try:
        for game in pgn.iter_games(path):
            start = game.board()
            fen = game.headers.get("FEN")
            records.append(
                {
                    "variant": start.variant.name,
                    "options": dict(start.variant.options),
                    "fen": fen,
                    "moves": [m.uci() for m in game.mainline_moves()],
                    "result": game.headers.get("Result", "*"),
                }
            )
    except pgn.PgnError as e:
        raise jobs.PathError(f"{source}: {e}") from None
    return {path.stem: records}


def cmd_openings_tree(args: argparse.Namespace) -> int:
    from fairyforge.tools import jobs
    from fairyforge.tools import openings as openingsmod

    console = _console(args)
    for flag, value, least in (("--plies", args.plies, 1), ("--min-games", args.min_games, 1)):
        if value < least:
            raise fairyforge.InvalidOptionError(
                f"invalid option {flag}: {value} (at least {least})"
            )
    if args.out:
        jobs.output_file(args.out)
    sources = _tree_sources(args.source)
    document = {}
    written = []
    for name, records in sources.items():
        if not records:
            continue
        variant, options = records[0]["variant"], records[0]["options"]
        roots = openingsmod.tree(records, args.plies)
        for fen, root in roots.items():
            board = fairyforge.Board(variant, fen, **options)
            title = f"{name}: {root.games} games" + (f" from {fen}" if fen else "")
            document[f"{name}" + (f" {fen}" if fen else "")] = _tree_json(root)
            if not args.json:
                shown = Tree(title)
                _tree_rich(shown, root, board, args.plies, args.min_games, args.top)
                _results(args).print(shown)
            written += [
                (variant, options, line)
                for line in openingsmod.tree_lines(root, fen, min_games=args.min_games)
            ]
    if not document:
        raise jobs.PathError(f"{args.source}: no games")
    if args.json:
        print(json.dumps(document, indent=1))
    if args.out:
        if not written:
            raise fairyforge.InvalidOptionError(
                f"invalid option --out: no line has {args.min_games} games or more "
                "(lower --min-games)"
            )
        kinds = {(v, tuple(sorted(o.items()))) for v, o, _ in written}
        if len(kinds) > 1:
            raise fairyforge.InvalidOptionError(
                "invalid option --out: the games are of several configurations; "
                "name one configuration's .jsonl file"
            )
        variant, options, _ = written[0]
        openingsmod.write(args.out, [line for _, _, line in written], variant, options)
        console.print(
            f"{len(written)} lines written to {args.out}", highlight=False, soft_wrap=True
        )
    return 0


def _tree_json(node: Any) -> dict[str, Any]:
    return {
        move: {"games": child.games, "white_score": child.score, "next": _tree_json(child)}
        for move, child in sorted(node.children.items(), key=lambda mc: -mc[1].games)
    }


def _tree_rich(
    shown: Tree, node: Any, board: fairyforge.Board, plies: int, min_games: int, top: int
) -> None:
    kept = sorted(
        ((m, c) for m, c in node.children.items() if c.games >= min_games),
        key=lambda mc: -mc[1].games,
    )[:top]
    for move, child in kept:
        number = board.fullmove_number
        prefix = f"{number}." if board.turn else f"{number}..."
        san = board.san(move)
        label = (
            f"{prefix} {san}  [dim]{child.games} game{'s' if child.games > 1 else ''} "
            f"({child.games / node.games:.0%}), "
            f"White {child.score:.0%}[/dim]"
        )
        branch = shown.add(label)
        board.push_uci(move)
        if len(board.move_stack) < plies:
            _tree_rich(branch, child, board, plies, min_games, top)
        board.pop()


def cmd_openings_book(args: argparse.Namespace) -> int:
    from fairyforge.tools import jobs
    from fairyforge.tools import openings as openingsmod

    console = _console(args)
    for flag, value, least in (
        ("--plies", args.plies, 1),
        ("--multipv", args.multipv, 1),
        ("--depth", args.depth, 1),
        ("--window", args.window, 0),
    ):
        if value < least:
            raise fairyforge.InvalidOptionError(
                f"invalid option {flag}: {value} (at least {least})"
            )
    jobs.output_file(args.out)
    options = shell.parse_options(args.opt)
    with jobs.ProgressBar(console, "book", 1) as bar:
        lines = openingsmod.book(
            args.variant,
            options,
            fen=args.fen,
            plies=args.plies,
            multipv=args.multipv,
            depth=args.depth,
            window=args.window,
            workers=args.workers,
            progress=lambda done, total: bar.describe("book", total, done),
        )
    if not lines:
        raise fairyforge.InvalidOptionError(
            f"no line reaches {args.plies} plies: every line ends the game first"
        )
    openingsmod.write(args.out, lines, args.variant, options)
    if args.json:
        print(json.dumps([{"fen": o.fen, "moves": list(o.moves)} for o in lines], indent=1))
    else:
        console.print(
            f"{len(lines)} lines of {args.plies} plies written to {args.out}", highlight=False
        )
    return 0


# --------------------------------------------------------------------------
# Parsers


def _game_args(p: argparse.ArgumentParser, games: int) -> None:
    """The options study and values share: variant, limits, openings, jobs."""
    p.add_argument("--variant", "-v", default="chess", help="variant name (default: chess)")
    shell.add_opt(p)
    p.add_argument(
        "--games", "-n", type=int, default=games, help=f"games per configuration (default: {games})"
    )
    limit = p.add_mutually_exclusive_group()
    limit.add_argument(
        "--tc", metavar="BASE+INC", help="a clock per side in seconds, e.g. 10+0.1 (default: none)"
    )
    limit.add_argument(
        "--nodes", type=int, help="nodes per move (default: 2000 when no other limit is given)"
    )
    limit.add_argument("--movetime", type=int, metavar="MS", help="ms per move (default: none)")
    limit.add_argument("--depth", type=int, help="plies of search per move (default: none)")
    p.add_argument(
        "--hash", type=int, default=16, metavar="MB", help="table size per side, MiB (default: 16)"
    )
    p.add_argument(
        "--max-plies",
        type=int,
        default=200,
        help="adjudicate a draw after this many plies (default: 200)",
    )
    p.add_argument(
        "--random-plies",
        type=int,
        default=None,
        metavar="R",
        help="fair random plies opening each game (default: 6, or 0 after --openings)",
    )
    p.add_argument(
        "--window",
        type=int,
        default=100,
        metavar="CP",
        help="a random ply is kept when it scores no more than CP centipawns below the best "
        "move (default: 100)",
    )
    p.add_argument(
        "--window-nodes",
        type=int,
        default=1000,
        metavar="N",
        help="nodes of each search that checks a random ply (default: 1000)",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of the openings (default: 1)")
    p.add_argument(
        "--workers",
        "-j",
        type=int,
        default=None,
        help="local worker processes; 1 plays in this process (default: one per core)",
    )
    p.add_argument(
        "--dask", metavar="ADDRESS", help="run on this Dask scheduler instead (default: none)"
    )
    p.add_argument(
        "--out",
        required=True,
        metavar="DIR",
        help="directory for games (JSONL, PGN), settings and summary; created if missing, "
        "and a rerun continues (required)",
    )
    p.add_argument("--plot", action="store_true", help="also write PNG plots to DIR (default: no)")
    p.add_argument(
        "--json", action="store_true", help="print the summary as JSON on stdout (default: no)"
    )


def register(sub: Any) -> None:
    """Add ``study``, ``values``, ``tune`` and ``openings`` to the CLI's subparsers."""
    p = sub.add_parser(
        "study",
        help="self-play balance study of a variant and its options",
        description="fairyforge plays itself from fair, varied openings under each "
        "configuration (options, or every combination of --grid) and reports White's "
        "score, how games end, their length, captures, legal moves and evaluation by ply. "
        "See docs/STUDIES.md.",
    )
    _game_args(p, 100)
    p.add_argument(
        "--grid",
        action="append",
        default=[],
        metavar="KEY=V1,V2",
        help="play every combination of these option values, repeatable "
        "(for example --grid royal=king,maharajah,gryphon --grid cycle=none,knight) "
        "(default: none)",
    )
    p.add_argument(
        "--openings",
        metavar="FILE",
        help="start games from the lines of this EPD or PGN file, in turn (default: none)",
    )
    p.set_defaults(func=cmd_study)

    p = sub.add_parser(
        "values",
        help="piece values measured by self-play from uneven starts",
        description="fairyforge plays itself from the start without one piece (or with a "
        "piece turned into another kind) and converts the scores, through Elo, into values "
        "in units of the variant's pawn (or commonest piece). See docs/STUDIES.md.",
    )
    _game_args(p, 100)
    p.add_argument(
        "--kinds",
        metavar="K,K",
        help="measure only these piece letters (the unit is always measured) (default: all)",
    )
    p.add_argument(
        "--unit-games",
        type=int,
        metavar="N",
        help="games of the baseline and of each start without a unit piece (default: 3 x --games)",
    )
    p.set_defaults(func=cmd_values)

    p = sub.add_parser(
        "tune",
        help="fit the evaluation weights to game results (Texel's method)",
        description="fairyforge plays itself (or reads --pgn games, or the games "
        "fairyforge analyse scored, --analysis), takes the quiet "
        "positions of every game with their result, and fits the evaluation weights by "
        "logistic regression, checked on held-out games. Writes DIR/weights.toml, which "
        "Board.search(weights=...), the UCI option EvalFile and --a-option EvalFile=FILE "
        "read. See docs/TUNING.md.",
    )
    _game_args(p, 1000)
    p.add_argument(
        "--pgn",
        action="append",
        default=[],
        metavar="FILE",
        help="fit to the games of this PGN file instead of self-play, repeatable (default: none)",
    )
    p.add_argument(
        "--analysis",
        action="append",
        default=[],
        metavar="FILE",
        help="fit to the games of this fairyforge analyse output instead of self-play, each "
        "analysed position scored by the analyser, repeatable, with --pgn too (default: none)",
    )
    p.add_argument(
        "--weights", metavar="FILE", help="weights file to start from (default: the variant's)"
    )
    p.add_argument("--epochs", type=int, default=1000, help="epochs of Adam (default: 1000)")
    p.add_argument("--rate", type=float, default=1.0, help="Adam step in centipawns (default: 1.0)")
    p.add_argument(
        "--anchor",
        metavar="KIND",
        help="after the fit, scale every weight so that this kind keeps its middlegame value "
        "(for a start whose scale the results do not bear out) (default: none)",
    )
    p.add_argument(
        "--freeze",
        metavar="TERM,TERM",
        help="keep these terms at their start weights: names such as tempo or knight.value, "
        "or a per-kind term such as mobility for every kind (default: none)",
    )
    p.add_argument(
        "--l2",
        type=float,
        default=1e-7,
        help="ridge weight per squared centipawn a weight moves (default: 1e-7)",
    )
    p.add_argument(
        "--lambda",
        dest="lam",
        type=float,
        default=1.0,
        help="weight of the game's result in the target of a position its mover scored "
        "([%%eval] in PGN, the search's score in self-play, the analyser's in --analysis); "
        "the rest is the score's "
        "expectation (1: results only, 0: scores only) (default: 1)",
    )
    p.add_argument(
        "--scored-by",
        metavar="NAME",
        help="use only the scores of players (or --analysis analysers) whose name contains "
        "NAME (default: every score)",
    )
    p.add_argument(
        "--held",
        type=float,
        default=0.1,
        help="share of the games held out to check the fit (default: 0.1)",
    )
    p.add_argument(
        "--skip", type=int, default=8, help="opening plies of each game not used (default: 8)"
    )
    p.set_defaults(func=cmd_tune)

    p = sub.add_parser("openings", help="opening trees from games, and books from searches")
    kinds = p.add_subparsers(dest="openings_command", required=True)
    t = kinds.add_parser(
        "tree",
        help="opening tree of a study's games: frequency and White's score per move",
    )
    t.add_argument("source", help="a study directory, a .jsonl game file or a .pgn file (required)")
    t.add_argument("--plies", type=int, default=6, help="depth of the tree (default: 6)")
    t.add_argument(
        "--min-games", type=int, default=2, help="leave out moves with fewer games (default: 2)"
    )
    t.add_argument("--top", type=int, default=4, help="moves shown per position (default: 4)")
    t.add_argument(
        "--out",
        metavar="FILE",
        help="write the tree's lines as openings: .epd, or PGN otherwise (default: none)",
    )
    t.add_argument("--json", action="store_true", help="print the tree as JSON (default: no)")
    t.set_defaults(func=cmd_openings_tree)
    b = kinds.add_parser("book", help="a book of shallow MultiPV searches, usable as --openings")
    b.add_argument("--variant", "-v", default="chess", help="variant name (default: chess)")
    shell.add_opt(b)
    b.add_argument("--fen", default=None, help="start from this FEN (default: the variant's)")
    b.add_argument("--plies", type=int, default=4, help="length of the lines (default: 4)")
    b.add_argument(
        "--multipv", type=int, default=3, help="moves searched per position (default: 3)"
    )
    b.add_argument("--depth", type=int, default=4, help="depth of each search (default: 4)")
    b.add_argument(
        "--window",
        type=int,
        default=50,
        metavar="CP",
        help="keep moves within CP centipawns of the best (default: 50)",
    )
    b.add_argument(
        "--workers", "-j", type=int, default=1, help="local worker processes (default: 1)"
    )
    b.add_argument(
        "--out", required=True, metavar="FILE", help="the book: .epd, or PGN otherwise (required)"
    )
    b.add_argument("--json", action="store_true", help="also print the lines as JSON (default: no)")
    b.set_defaults(func=cmd_openings_book)
