"""The fairyforge command line: the engine, its benchmarks and its tools.

Subcommands:
  perft    count leaf nodes from a position (--divide: per move, Stockfish format)
  bench    time the fixed benchmark suite, against python-chess and UCI peers
  search   search a position and print the best move (UCI-style info lines)
  analyse  search every position of the games in a PGN file
  match    play two players (engine configurations or UCI engines)
  render   draw a position (a FEN, or a game of a PGN file) as SVG or PNG
  study    self-play balance studies of a variant and its option grid
  values   piece values measured by self-play from imbalanced starts
  openings opening trees of played games and books from MultiPV searches
  tune     fit the evaluation weights to game results (Texel's method)
  uci      speak UCI on standard input and output (for GUIs and tools)
  xboard   speak XBoard/CECP v2 on standard input and output
  variants list every variant (built-in, shipped examples, loaded files)

Results go to standard output (--json for perft, bench and search gives one
JSON document); progress, notes and errors go to standard error.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich import box
from rich.markup import escape
from rich.table import Table

import fairyforge
from fairyforge.tools import bench as benchmod
from fairyforge.tools.shell import add_opt, console, parse_options, require, results

if TYPE_CHECKING:
    from fairyforge.tools.players import Player


def add_position_args(p: argparse.ArgumentParser) -> None:
    """The arguments that choose a variant, its options and a position."""
    p.add_argument("--variant", "-v", default="chess", help="variant name (default: chess)")
    p.add_argument(
        "--fen", "-f", default=None, help="start from this FEN (default: the variant's start)"
    )
    add_opt(p)


def add_json(p: argparse.ArgumentParser) -> None:
    """``--json``: the result as one JSON document on standard output."""
    p.add_argument(
        "--json",
        action="store_true",
        help="print the result as one JSON document instead of text (default: off)",
    )


def cmd_perft(args: argparse.Namespace) -> int:
    options = parse_options(args.opt)
    board = fairyforge.Board(args.variant, args.fen, **options)
    start = time.perf_counter()
    divide: dict[str, int] | None = None
    if args.divide:
        if args.json:
            divide = board.perft_divide(args.depth, threads=args.threads)
            nodes = sum(divide.values())
        else:
            text = fairyforge.divide_text(
                args.variant, args.fen, args.depth, threads=args.threads, **options
            )
            print(text)  # Stockfish ends the total with a blank line too
            nodes = int(text.rsplit(":", 1)[1])
    else:
        nodes = board.perft(args.depth, threads=args.threads)
    elapsed = time.perf_counter() - start
    nps = nodes / elapsed if elapsed > 0 else float("inf")
    if args.json:
        doc = {
            "variant": board.variant.name,
            "options": board.variant.options,
            "fen": board.fen(),
            "depth": args.depth,
            "nodes": nodes,
            "seconds": elapsed,
            "divide": divide,
        }
        print(json.dumps(doc))
    elif not args.divide:
        print(nodes)
    console.print(
        f"[dim]{board.variant.name} depth {args.depth}: {nodes:,} nodes in {elapsed:.3f} s "
        f"({nps / 1e6:,.1f} M nodes/s, threads: {args.threads or 'all'})[/dim]",
        highlight=False,
    )
    return 0


def bench_table(rows: list[benchmod.Row]) -> Table:
    """The bench rows as a table that reads in 80 columns (the seconds are
    in ``--json``): long names wrap, numbers never do."""
    table = Table(
        title="fairyforge bench (one thread unless noted; M n/s: millions of nodes/s)",
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
        collapse_padding=True,
        show_edge=False,
    )
    table.add_column("case", min_width=30, overflow="fold")
    table.add_column("d", justify="right", no_wrap=True)
    table.add_column("nodes", justify="right", no_wrap=True)
    table.add_column("M n/s", justify="right", no_wrap=True)
    table.add_column("median", justify="right", no_wrap=True)
    table.add_column("note", no_wrap=True)
    for r in rows:
        depth = str(r.depth) if r.depth else ""
        median = f"{r.median / 1e6:,.2f}" if r.median else ""
        numbers = [f"{r.nodes:,}", f"{r.mnps:,.2f}", median]
        table.add_row(r.name, depth, *numbers, r.note)
    return table


def cmd_bench(args: argparse.Namespace) -> int:
    if args.plot:
        require("matplotlib", "--plot")
    peers = [] if args.no_peers else args.peer
    rows = benchmod.run_suite(quick=args.quick, console=console, peers=peers)
    if args.json:
        doc = {
            "rows": [dataclasses.asdict(r) | {"mnps": r.mnps, "peer": r.peer} for r in rows],
            "signature": benchmod.signature(rows),
            "ratios": benchmod.ratios(rows),
        }
        print(json.dumps(doc))
    else:
        results.print(bench_table(rows))
        results.print(f"signature (total nodes): {benchmod.signature(rows)}")
        for line in benchmod.ratios(rows):
            results.print(line, highlight=False)
    if args.plot:
        benchmod.plot(rows, args.plot)
        console.print(f"plot written to {args.plot}")
    return 0


def load_position(
    source: str, variant: str, options: dict[str, str], game: int = 1, ply: int | None = None
) -> fairyforge.Board:
    """A board from a FEN, or from game ``game`` (1-based) of a PGN file at
    ``ply`` of its main line (None: its final position); the game's
    Variant/FEN/VariantOptions tags win over the flags."""
    if game < 1:
        raise fairyforge.InvalidOptionError(f"invalid option --game: {game} (at least 1)")
    if ply is not None and ply < 0:
        raise fairyforge.InvalidOptionError(f"invalid option --ply: {ply} (at least 0)")
    if source.lower().endswith(".pgn"):
        from fairyforge import pgn

        with open(source, encoding="utf-8") as handle:
            for _ in range(game - 1):
                if pgn.read_headers(handle) is None:
                    break
            chosen = pgn.read_game(handle)
        if chosen is None:
            raise fairyforge.InvalidOptionError(
                f"invalid option --game: {source} has fewer than {game} games"
            )
        node: pgn.GameNode = chosen
        for _ in range(ply if ply is not None else 1 << 30):
            following = node.next()
            if following is None:
                if ply is not None:
                    raise fairyforge.InvalidOptionError(
                        f"invalid option --ply: game {game} has {node.ply()} plies"
                    )
                break
            node = following
        return node.board()
    return fairyforge.Board(variant, source, **options)


def cmd_render(args: argparse.Namespace) -> int:
    from fairyforge import svg

    kind = os.path.splitext(args.output)[1].lower()
    if kind not in (".svg", ".png"):
        raise fairyforge.InvalidOptionError(
            f"invalid option --output: {args.output!r} must end in .svg or .png"
        )
    if kind == ".png":
        require("cairosvg", "a .png --output")
    board = load_position(args.source, args.variant, parse_options(args.opt), args.game, args.ply)
    lastmove = board.peek() if board.move_stack else None
    check = board.royal_squares(board.turn) if board.is_check() else None
    image = svg.board(
        board, size=args.size, lastmove=lastmove, check=check, orientation=not args.flip
    )
    if kind == ".png":
        svg.render_png(image, args.output, size=args.size)
    else:
        with open(args.output, "w", encoding="utf-8") as handle:
            handle.write(image)
    console.print(f"wrote {args.output} ({board.variant.name}, {board.fen()})", highlight=False)
    return 0


def uci_score(score: fairyforge.Score) -> str:
    """A score as UCI writes it: ``cp 25`` or ``mate -3``."""
    return f"mate {score.mate}" if score.mate is not None else f"cp {score.cp}"


def cmd_search(args: argparse.Namespace) -> int:
    board = fairyforge.Board(args.variant, args.fen, **parse_options(args.opt))

    def show(i: fairyforge.Info) -> None:
        if args.json:
            return
        pv = " ".join(m.uci() for m in i.pv)
        print(
            f"info depth {i.depth} seldepth {i.seldepth} multipv {i.multipv} "
            f"score {uci_score(i.score)} nodes {i.nodes} nps {i.nps} hashfull {i.hashfull} "
            f"time {i.time * 1000:.0f} pv {pv}",
            flush=True,
        )

    movetime = args.movetime
    if args.depth is None and args.nodes is None and movetime is None:
        movetime = 1000
    lines = board.search_multipv(
        args.multipv, args.depth, args.nodes, movetime, threads=args.threads, info=show
    )
    best = lines[0]
    if args.json:
        doc = {
            "fen": board.fen(),
            "bestmove": best.best_move.uci() if best.best_move else None,
            "lines": [
                {
                    "move": r.best_move.uci() if r.best_move else None,
                    "san": board.san(r.best_move) if r.best_move else None,
                    "score": {"cp": r.score.cp, "mate": r.score.mate, "text": str(r.score)},
                    "pv": [m.uci() for m in r.pv],
                    "depth": r.depth,
                    "seldepth": r.seldepth,
                    "nodes": r.nodes,
                    "nps": r.nps,
                    "time": r.time,
                }
                for r in lines
            ],
        }
        print(json.dumps(doc))
    elif best.best_move is None:
        outcome = board.outcome()
        print(f"bestmove (none) {outcome.result() if outcome else ''}".rstrip())
    else:
        san = board.san(best.best_move)
        print(
            f"bestmove {best.best_move.uci()} ({san}) score {uci_score(best.score)} ({best.score})"
        )
    console.print(
        f"[dim]depth {best.depth}, {best.nodes:,} nodes in {best.time:.2f} s "
        f"({best.nps / 1e6:.2f} M nodes/s), score {best.score}[/dim]",
        highlight=False,
    )
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    from fairyforge.tools import analysis, jobs, pool

    if args.dask:
        require("dask.distributed", "--dask")
    if args.skip < 0:
        raise fairyforge.InvalidOptionError(f"invalid option --skip: {args.skip} (at least 0)")
    jobs.input_file(args.pgn, "pgn")
    jobs.output_file(args.out)
    engine_options = parse_engine_options(args.engine_option, "--engine-option")
    errors: list = []
    items = list(
        analysis.tasks(
            args.pgn,
            depth=args.depth,
            nodes=args.nodes,
            errors=errors,
            quiet_only=args.quiet_only,
            skip=args.skip,
        )
    )
    for e in errors:
        console.print(f"[yellow]skipped:[/yellow] {e}", highlight=False)
    variants = {(t.variant, tuple(sorted(t.options.items()))) for t in items}
    if args.engine.startswith("uci:") and len(variants) > 1:
        raise fairyforge.InvalidOptionError(
            "invalid option --engine: a uci: engine analyses one variant (its UCI_Variant "
            f"option chooses it), and {args.pgn} holds games of {len(variants)}"
        )
    first = items[0] if items else None
    player = make_player(
        args.engine,
        engine_options,
        "--engine",
        hash_mb=analysis.ANALYSER.hash_mb,
        board=(lambda: fairyforge.Board(first.variant, **first.options))
        if first is not None and len(variants) == 1
        else None,
        one_variant="give a PGN file of one variant",
    )
    if player.uci is None:
        # fairyforge's own search, named as its UCI mode names itself.
        preset = "" if player.name == "full" else f" {player.name}"
        player = dataclasses.replace(player, name=analysis.ANALYSER.name + preset)
    items = [dataclasses.replace(t, player=player) for t in items]
    client = None
    if args.dask:
        from dask.distributed import Client

        client = Client(args.dask)
    done = len(pool.recorded(args.out) & {t.index for t in items})
    positions = 0
    with jobs.ProgressBar(console, "analysing", len(items), done) as bar:

        def advance(record: dict) -> None:
            nonlocal positions
            positions += len(record["positions"])
            bar.advance(f"{positions} positions")

        records = analysis.run(
            items,
            out=args.out,
            workers=args.workers,
            client=client,
            progress=advance,
            source=args.pgn,
        )
    s = analysis.summary(records)
    table = Table(title=f"analysis of {args.pgn}")
    table.add_column("games", justify="right")
    table.add_column("skipped", justify="right")
    table.add_column("positions", justify="right")
    table.add_column("nodes", justify="right")
    table.add_column("M nodes/s", justify="right")
    table.add_column("played != best", justify="right")
    table.add_row(
        str(s["games"]),
        str(len(errors)),
        str(s["positions"]),
        f"{s['nodes']:,}",
        f"{s['nodes_per_second'] / 1e6:.2f}",
        str(s["played_differs"]),
    )
    results.print(table)
    console.print(f"records of {player.name}'s analysis in {args.out}", highlight=False)
    return 0


PRESETS = ("full", "material", "plain")


def parse_engine_options(pairs: Sequence[str], flag: str) -> tuple[tuple[str, str], ...]:
    """Repeated ``--a-option Name=Value`` arguments, in order."""
    out = []
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise fairyforge.InvalidOptionError(
                f"invalid option {flag} {pair!r}: expected Name=Value (for example Hash=64)"
            )
        out.append((name.strip(), value.strip()))
    return tuple(out)


def match_player(args: argparse.Namespace, side: str) -> Player:
    """The player ``--a``/``--b`` names, with the match's limits: a preset
    of fairyforge's search or ``uci:COMMAND``, an external engine started
    once here to check it and to learn its name."""
    flag = f"--{side}"
    options = parse_engine_options(getattr(args, f"{side}_option"), f"{flag}-option")
    clock = args.tc is not None
    movetime = getattr(args, f"{side}_movetime")
    if movetime is not None and (clock or movetime < 1):
        raise fairyforge.InvalidOptionError(
            f"invalid option {flag}-movetime: {movetime} (at least 1, and not with --tc)"
        )
    movetime = movetime if movetime is not None else args.movetime
    return make_player(
        getattr(args, side),
        options,
        flag,
        nodes=None if clock or movetime is not None else args.nodes,
        movetime=movetime,
        hash_mb=args.hash,
        board=None
        if args.variant == "all"
        else lambda: fairyforge.Board(args.variant, **parse_options(args.opt)),
        one_variant="give -v",
    )


def make_player(
    spec: str,
    options: tuple[tuple[str, str], ...],
    flag: str,
    *,
    nodes: int | None = None,
    movetime: int | None = None,
    hash_mb: int = 16,
    board: Callable[[], fairyforge.Board] | None = None,
    one_variant: str = "",
) -> Player:
    """The player a spec names (``full``, ``plain``, ``material`` or
    ``uci:COMMAND``, as ``match --a`` takes it) with its ``--...-option``
    pairs: an external engine is started once here to check it and to
    learn its name; a weights file (``EvalFile=FILE``) of fairyforge's own
    players is read once on the variant ``board`` makes (None: no single
    variant, an error naming ``one_variant`` as the cure)."""
    from fairyforge.tools import players

    if spec.startswith("uci:"):
        command = spec[len("uci:") :].strip()
        if not command:
            raise fairyforge.InvalidOptionError(
                f"invalid option {flag}: uci: needs the engine's command (uci:PATH)"
            )
        player = players.Player(
            command, nodes=nodes, movetime=movetime, uci=command, uci_options=options
        )
        return dataclasses.replace(player, name=players.probe(player))
    weights = None
    if options:
        if len(options) != 1 or options[0][0].lower() != "evalfile":
            raise fairyforge.InvalidOptionError(
                f"invalid option {flag}-option: fairyforge's own players take only "
                "EvalFile=FILE (a weights file); other options are for uci: players"
            )
        weights = options[0][1]
        if board is None:
            raise fairyforge.InvalidOptionError(
                f"invalid option {flag}-option: a weights file is for one variant ({one_variant})"
            )
        # Read once here, so that a file that does not fit fails at once.
        board().search(depth=1, weights=weights)
    if spec == "material":
        return players.Player("material-1ply", depth=1, eval="material", plain=True)
    if spec not in PRESETS:
        raise fairyforge.InvalidOptionError(
            f"invalid option {flag} {spec!r}: expected full, material, plain or uci:COMMAND"
        )
    name = spec if weights is None else f"{spec}:{os.path.splitext(os.path.basename(weights))[0]}"
    return players.Player(
        name,
        nodes=nodes,
        movetime=movetime,
        plain=spec == "plain",
        hash_mb=hash_mb,
        weights=weights,
    )


def cmd_match(args: argparse.Namespace) -> int:
    from fairyforge.tools import jobs, match, pool
    from fairyforge.tools import openings as openingsmod
    from fairyforge.tools import sprt as sprtmod
    from fairyforge.tools.clock import TimeControl

    if args.dask:
        require("dask.distributed", "--dask")
    if args.plot:
        require("matplotlib", "--plot")
    tc = TimeControl.parse(args.tc) if args.tc is not None else None
    test = sprtmod.Sprt.parse(args.sprt) if args.sprt is not None else None
    for name in ("games", "nodes", "movetime", "hash", "max_plies"):
        value = getattr(args, name)
        if value is not None and value < 1:
            flag = "--" + name.replace("_", "-")
            raise fairyforge.InvalidOptionError(f"invalid option {flag}: {value} (at least 1)")
    if args.grace < 0:
        raise fairyforge.InvalidOptionError(f"invalid option --grace: {args.grace} (at least 0)")
    if args.out:
        jobs.output_prefix(args.out)
    a, b = match_player(args, "a"), match_player(args, "b")
    if a.name == b.name:
        a = dataclasses.replace(a, name=f"{a.name} (a)")
        b = dataclasses.replace(b, name=f"{b.name} (b)")
    if args.variant == "all" and (a.uci or b.uci):
        raise fairyforge.InvalidOptionError(
            "invalid option --variant: name the variant when a uci: engine plays "
            "(its options choose its variant)"
        )
    variants = list(fairyforge.BUILTIN_VARIANTS) if args.variant == "all" else [args.variant]
    options = parse_options(args.opt)
    if args.openings and args.variant == "all":
        raise fairyforge.InvalidOptionError(
            "invalid option --variant: name the variant the --openings file is of"
        )
    book = openingsmod.read(args.openings, args.variant, options) if args.openings else None
    client = None
    if args.dask:
        from dask.distributed import Client

        client = Client(args.dask)
    if tc is not None:
        limit = f"{tc} clock"
    elif a.movetime != b.movetime:
        each = [f"{p.movetime} ms" if p.movetime else f"{p.nodes} nodes" for p in (a, b)]
        limit = f"{each[0]} / {each[1]} per move"
    elif args.movetime is not None:
        limit = f"{args.movetime} ms per move"
    else:
        limit = f"{args.nodes} nodes per move"
    most = "at most " if test is not None else ""
    table = Table(title=f"{a.name} vs {b.name} ({most}{args.games} games per variant, {limit})")
    for col in ["variant", "games", "W", "D", "L", "score", "Elo", "95% interval"]:
        table.add_column(col, justify="left" if col == "variant" else "right")
    ends = Table(title="terminations")
    for col in ["variant", "termination", "games"]:
        ends.add_column(col, justify="right" if col == "games" else "left")
    times = Table(title="time used per move, and faults")
    columns = ["variant", "player", "moves", "mean ms", "max ms", "time losses", "illegal"]
    columns.append("crashes")
    for col in columns:
        times.add_column(col, justify="left" if col in ("variant", "player") else "right")
    tests = Table(
        title=f"SPRT elo0={test.elo0:g} elo1={test.elo1:g} alpha={test.alpha:g} "
        f"beta={test.beta:g} (pairs of games, pentanomial 0-2 points)"
        if test
        else ""
    )
    for col in ["variant", "pairs", "pentanomial", "LLR", "bounds", "Elo", "decision"]:
        tests.add_column(col, justify="left" if col == "variant" else "right")
    plotted, docs = [], []
    for variant in variants:
        games = match.pairings(
            variant,
            a,
            b,
            args.games,
            options=options,
            seed=args.seed,
            max_plies=args.max_plies,
            fen=args.fen,
            tc=tc,
            grace_ms=args.grace,
            openings=book,
        )
        # A definition file's path names its games by the variant's name.
        label = fairyforge.variant(variant).name if variant.endswith(".toml") else variant
        out = f"{args.out}.{label}.jsonl" if args.out else None
        if out:
            jobs.output_file(out)
        done = len(pool.recorded(out) & {g.index for g in games})
        with jobs.ProgressBar(console, variant, len(games), done) as bar:
            seen: list[dict] = []
            old = pool.read(out) if test is not None and out and os.path.exists(out) else []

            def advance(
                record: dict, bar: jobs.ProgressBar = bar, seen: list = seen, old: list = old
            ) -> None:
                seen.append(record)
                now = match.score(seen, a.name)
                line = f"{a.name} {now.fraction:.1%} (+{now.wins} ={now.draws} -{now.losses})"
                if test is not None:
                    line += " " + sprtmod.status(test, old + seen, a.name).text()
                bar.advance(line)

            records = match.run(
                games,
                out=out,
                workers=args.workers,
                client=client,
                progress=advance,
                sprt=test,
            )
        s = match.summary(records, a.name, b.name)
        doc: dict = {
            "variant": variant,
            "games": s["score"].games,
            "wins": s["score"].wins,
            "draws": s["score"].draws,
            "losses": s["score"].losses,
            "elo": list(s["elo"]),
            "terminations": s["terminations"],
            "players": s["players"],
        }
        if test is not None:
            state = sprtmod.status(test, records, a.name)
            doc["sprt"] = state.as_dict()
            lower, upper = test.bounds()
            tests.add_row(
                variant,
                str(sum(state.pentanomial)),
                " ".join(str(c) for c in state.pentanomial),
                f"{state.llr:.2f}",
                f"[{lower:.2f}, {upper:.2f}]",
                f"{sprtmod.elo_estimate(state.pentanomial):+.1f}",
                state.decision or "undecided",
            )
        docs.append(doc)
        score = s["score"]
        elo, lo, hi = s["elo"]
        plotted.append((variant, elo, lo, hi))
        table.add_row(
            variant,
            str(score.games),
            str(score.wins),
            str(score.draws),
            str(score.losses),
            f"{score.fraction:.1%}",
            f"{elo:+.0f}",
            f"[{lo:+.0f}, {hi:+.0f}]",
        )
        for termination, count in s["terminations"].items():
            ends.add_row(variant, termination.replace("_", " "), str(count))
        for name, p in s["players"].items():
            times.add_row(
                variant,
                name,
                str(p["moves"]),
                f"{p['mean_ms']:.1f}",
                f"{p['max_ms']:.1f}",
                str(p["time_losses"]),
                str(p["illegal_moves"]),
                str(p["crashes"]),
            )
    if args.json:
        print(json.dumps({"a": a.name, "b": b.name, "limit": limit, "variants": docs}))
    else:
        results.print(table)
        if test is not None:
            results.print(tests)
        results.print(ends)
        results.print(times)
    if args.out:
        console.print(f"games in {args.out}.<variant>.jsonl and .pgn", highlight=False)
    if args.plot:
        match.plot(plotted, args.plot, f"{a.name} vs {b.name}")
        console.print(f"plot written to {args.plot}")
    return 0


def cmd_variants(args: argparse.Namespace) -> int:
    for path in args.load:
        fairyforge.load_variant(path)
    if args.show:
        info = fairyforge.variant(args.show)
        if args.json:
            print(json.dumps(_variant_record(info), indent=2))
        else:
            print(info.definition, end="")
        return 0
    infos = fairyforge.variants()
    if args.json:
        print(json.dumps([_variant_record(v) for v in infos], indent=2))
        return 0
    table = Table(box=box.SIMPLE, show_edge=False)
    for col in ("variant", "board", "pieces", "options", "description"):
        table.add_column(col, overflow="fold")
    for v in infos:
        pieces = " ".join(symbol for _, symbol, _, _, _ in v.kinds)
        options = f"{len(v.option_names)} options" if v.option_names else ""
        table.add_row(v.name, f"{v.files}x{v.ranks}", pieces, options, v.description.split(":")[0])
    results.print(table)
    return 0


def _variant_record(v: fairyforge.VariantInfo) -> dict[str, object]:
    """A variant as plain data for ``--json``."""
    return {
        "name": v.name,
        "description": v.description,
        "files": v.files,
        "ranks": v.ranks,
        "start_fen": v.start_fen,
        "builtin": v.builtin,
        "options": v.option_names,
        "kinds": [
            {"name": n, "symbol": s, "betza": b, "robotic": r, "value": val}
            for n, s, b, r, val in v.kinds
        ],
    }


def cmd_protocol(args: argparse.Namespace) -> int:
    import signal

    from fairyforge import _core

    # The loop runs in Rust without the interpreter: let Ctrl-C end it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if args.command == "uci":
        _core.run_uci()
    else:
        _core.run_xboard()
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="fairyforge", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--version", action="version", version=fairyforge.__version__)
    sub = parser.add_subparsers(dest="command", required=True, metavar="SUBCOMMAND")

    p = sub.add_parser("perft", help="count leaf nodes (and divide) from a position")
    p.add_argument("depth", type=int, help="plies to count (required)")
    add_position_args(p)
    p.add_argument(
        "--divide",
        "-d",
        action="store_true",
        help="per-move counts in Stockfish's format (default: off)",
    )
    p.add_argument(
        "--threads", "-t", type=int, default=None, help="worker threads (default: all cores)"
    )
    add_json(p)
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("bench", help="run the fixed benchmark suite and print nodes/s")
    p.add_argument(
        "--quick", action="store_true", help="shallower depths, a few seconds (default: off)"
    )
    p.add_argument(
        "--plot", metavar="PNG", help="also write a bar chart, needs matplotlib (default: none)"
    )
    peers = p.add_mutually_exclusive_group()
    peers.add_argument(
        "--peer",
        action="append",
        metavar="ENGINE",
        help="a UCI engine to time on the chess search (repeatable; "
        "default: fairy-stockfish and stockfish where installed)",
    )
    peers.add_argument("--no-peers", action="store_true", help="time no UCI engine (default: off)")
    add_json(p)
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("search", help="search a position and print the best move")
    add_position_args(p)
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--depth", type=int, help="iterations in plies (default: none)")
    limit.add_argument("--nodes", type=int, help="node budget (default: none)")
    limit.add_argument(
        "--movetime",
        type=int,
        help="milliseconds (default: 1000 when no other limit is given)",
    )
    p.add_argument("--multipv", type=int, default=1, help="best lines to report (default: 1)")
    p.add_argument("--threads", type=int, default=1, help="search threads (default: 1)")
    add_json(p)
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("analyse", help="search every position of the games in a PGN file")
    p.add_argument("pgn", help="a PGN file, any variant by its Variant tags (required)")
    limit = p.add_mutually_exclusive_group(required=True)
    limit.add_argument("--depth", type=int, help="plies per position (default: none)")
    limit.add_argument("--nodes", type=int, help="nodes per position (default: none)")
    p.add_argument(
        "--out", required=True, help="JSON-lines file, appended and resumable (required)"
    )
    p.add_argument(
        "--engine",
        default="full",
        metavar="PLAYER",
        help="the analyser, as match --a takes it: full (fairyforge's search), plain, "
        "material or uci:COMMAND (an external UCI engine, started once per worker; for a "
        "variant other than chess give it --engine-option UCI_Variant=NAME) (default: full)",
    )
    p.add_argument(
        "--engine-option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="UCI option of a uci: --engine, sent in order, repeatable (for example Threads=1, "
        "or VariantPath=FILE then UCI_Variant=NAME); EvalFile=FILE for fairyforge's own "
        "(default: none)",
    )
    p.add_argument(
        "--quiet-only",
        action="store_true",
        help="search only the positions fairyforge tune trains on: from ply --skip on, not "
        "in check, the next move neither a capture nor a promotion (default: every position)",
    )
    p.add_argument(
        "--skip",
        type=int,
        default=8,
        help="opening plies of each game not searched with --quiet-only (default: 8)",
    )
    p.add_argument("--workers", type=int, default=None, help="local processes (default: cores)")
    p.add_argument(
        "--dask", metavar="ADDRESS", help="run on a Dask scheduler instead (default: none)"
    )
    p.set_defaults(func=cmd_analyse)

    p = sub.add_parser(
        "match",
        help="play two players (engine configurations or UCI engines) against each other",
        description="Play two players against each other from seeded varied openings, "
        "colours swapped per opening, refereed by fairyforge (an illegal move, a crash or a "
        "time forfeit loses). See docs/MATCHES.md.",
    )
    p.add_argument("--variant", "-v", default="all", help="variant, or all (default: all)")
    add_opt(p, short=False)
    p.add_argument(
        "--fen", default=None, help="start every game from this FEN (default: the variant's start)"
    )
    p.add_argument("--games", "-n", type=int, default=20, help="games per variant (default: 20)")
    for side, default in (("a", "full"), ("b", "material")):
        p.add_argument(
            f"--{side}",
            default=default,
            metavar="PLAYER",
            help=f"full (fairyforge's search), plain (its alpha-beta without table or "
            "pruning), material (material only, one ply) or uci:COMMAND (an external UCI "
            f"engine; the command is split like a shell line) (default: {default})",
        )
        p.add_argument(
            f"--{side}-movetime",
            type=int,
            metavar="MS",
            help=f"milliseconds per move of --{side} only, in place of --movetime "
            "(time odds) (default: none)",
        )
        p.add_argument(
            f"--{side}-option",
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help=f"UCI option of a uci: --{side}, sent in order, repeatable "
            "(for example VariantPath=FILE then UCI_Variant=NAME) (default: none)",
        )
    limit = p.add_mutually_exclusive_group()
    limit.add_argument(
        "--tc",
        metavar="BASE+INC",
        help="a clock per side in seconds, e.g. 10+0.1 (default: no clock, --nodes)",
    )
    limit.add_argument(
        "--movetime", type=int, metavar="MS", help="milliseconds per move (default: none)"
    )
    limit.add_argument(
        "--nodes",
        type=int,
        default=2000,
        help="nodes per move of full, plain and uci: players without --tc or --movetime "
        "(default: 2000)",
    )
    p.add_argument(
        "--grace",
        type=int,
        default=100,
        metavar="MS",
        help="a move may overrun the time left by this much before it loses on time (default: 100)",
    )
    p.add_argument(
        "--hash",
        type=int,
        default=16,
        metavar="MB",
        help="table size of full and plain, in MiB (default: 16)",
    )
    p.add_argument(
        "--max-plies", type=int, default=200, help="adjudicate a draw after this (default: 200)"
    )
    p.add_argument("--seed", type=int, default=1, help="opening seed (default: 1)")
    p.add_argument(
        "--openings",
        metavar="FILE",
        help="openings from this EPD or PGN file, in turn, instead of random plies (default: none)",
    )
    p.add_argument("--workers", type=int, default=None, help="local processes (default: cores)")
    p.add_argument(
        "--dask", metavar="ADDRESS", help="run on a Dask scheduler instead (default: none)"
    )
    p.add_argument(
        "--out",
        metavar="PREFIX",
        help="append games to PREFIX.<variant>.jsonl and .pgn, settings in "
        "PREFIX.<variant>.settings.json; a rerun continues (default: no files)",
    )
    p.add_argument(
        "--sprt",
        metavar="TEXT",
        help='a sequential test over game pairs, e.g. "elo0=0 elo1=5 alpha=0.05 beta=0.05": '
        "stop when it decides, --games being the most (default: none)",
    )
    p.add_argument(
        "--plot", metavar="PNG", help="draw Elo with 95%% intervals per variant (default: none)"
    )
    add_json(p)
    p.set_defaults(func=cmd_match)

    p = sub.add_parser(
        "render", help="draw a position (a FEN, or a game of a .pgn file) as SVG or PNG"
    )
    p.add_argument("source", help="a FEN, or a .pgn file (required)")
    p.add_argument("--variant", "-v", default="chess", help="variant of a FEN (default: chess)")
    add_opt(p, short=False, of=" of a FEN")
    p.add_argument(
        "--game", type=int, default=1, help="which game of a .pgn file, from 1 (default: 1)"
    )
    p.add_argument(
        "--ply",
        type=int,
        default=None,
        help="position after this many plies of the game's main line (default: its end)",
    )
    p.add_argument(
        "--output", "-o", required=True, help="board.svg, or board.png with cairosvg (required)"
    )
    p.add_argument("--size", type=int, default=400, help="width in pixels (default: 400)")
    p.add_argument("--flip", action="store_true", help="Black at the bottom (default: off)")
    p.set_defaults(func=cmd_render)

    p = sub.add_parser("variants", help="list every variant, or show one's definition")
    p.add_argument(
        "--load",
        action="append",
        default=[],
        metavar="FILE",
        help="load a definition file first (repeatable; default: none)",
    )
    p.add_argument(
        "--show", metavar="NAME", help="print NAME's definition as TOML (default: list all)"
    )
    add_json(p)
    p.set_defaults(func=cmd_variants)

    for name, protocol in [("uci", "UCI"), ("xboard", "XBoard / CECP v2")]:
        p = sub.add_parser(name, help=f"speak {protocol} on stdin/stdout (docs/PROTOCOLS.md)")
        p.set_defaults(func=cmd_protocol)
    from fairyforge.tools import workbench

    workbench.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``fairyforge`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "depth", 1) is not None and getattr(args, "depth", 1) < 0:
        parser.error("depth must be >= 0")
    from fairyforge.tools import jobs
    from fairyforge.tools.uci_client import EngineError

    try:
        return args.func(args)
    except (ValueError, EngineError, jobs.MissingExtraError, jobs.WorkerError) as e:
        console.print(
            f"[bold red]error:[/bold red] {escape(str(e))}", highlight=False, soft_wrap=True
        )
        return 2
    except KeyboardInterrupt:
        console.print("[yellow]interrupted[/yellow]")
        return 130


if __name__ == "__main__":
    sys.exit(main())
