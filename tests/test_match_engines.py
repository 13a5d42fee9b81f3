"""Matches against external UCI engines: the client, the referee (illegal
moves, crashes and time forfeits scored), clocks, PGN and JSONL output,
settings fingerprints, and one engine per worker."""

from __future__ import annotations

import argparse
import io
import json
import os
import shlex
import shutil
import sys
from pathlib import Path

import chess
import chess.pgn
import pytest
from peers import black_took_en_passant

import fairyforge
from fairyforge import pgn
from fairyforge.tools import analysis, cli, match, players, pool
from fairyforge.tools.clock import TimeControl, format_clock
from fairyforge.tools.match import Pairing, Player
from fairyforge.tools.uci_client import EngineStartError, UciEngine

ROOT = Path(__file__).resolve().parent.parent
FAKE = Path(__file__).resolve().parent / "fake_uci.py"
STOCKFISH = shutil.which(
    "stockfish", path=os.pathsep.join([os.environ.get("PATH", ""), "/usr/games"])
)
FSF = os.environ.get("FAIRYFORGE_FSF", str(ROOT / ".peers" / "fairy-stockfish"))
FSF_INI = Path(__file__).resolve().parent / "data" / "fairy-stockfish.ini"

needs_stockfish = pytest.mark.skipif(STOCKFISH is None, reason="Debian's stockfish not installed")
needs_fsf = pytest.mark.skipif(
    not os.access(FSF, os.X_OK), reason=f"no Fairy-Stockfish at {FSF} (set FAIRYFORGE_FSF)"
)


def fake(mode: str, after: int = 0, pidfile: Path | None = None) -> str:
    """The command line of the faulty test engine."""
    words = [sys.executable, str(FAKE), mode, str(after)]
    return shlex.join(words + ([str(pidfile)] if pidfile else []))


def run_cli(capsys, *argv: str) -> tuple[int, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out + captured.err  # results, then notes and errors


@pytest.fixture(autouse=True)
def no_engines_left():
    yield
    players.close_all()


FULL = Player("full", nodes=300)


@pytest.mark.parametrize(
    "mode, pairing, termination, detail",
    [
        ("illegal", {}, "illegal_move", "illegal move"),
        ("none", {}, "illegal_move", "played no move"),
        ("crash", {}, "crash", "exited with code 3 (fake engine: crashing on purpose)"),
        (
            "hang",
            {"tc": TimeControl(500)},
            "time_forfeit",
            "ms left and 100 ms grace",
        ),
        ("late", {}, "time_forfeit", "ms allowed"),
    ],
)
def test_referee_scores_a_faulty_engine_as_a_loss(mode, pairing, termination, detail):
    faulty = Player("faulty", movetime=100 if mode == "late" else None, uci=fake(mode, 2))
    p = Pairing("chess", {}, 0, FULL, faulty, seed=3, opening_plies=2, max_plies=40, **pairing)
    record = match.play(p)
    assert record["termination"] == termination
    assert record["offender"] == "faulty" and record["result"] == "1-0"
    assert detail in record["detail"]
    assert len(record["moves"]) == 2 + 2 * 2 + 1  # opening, two moves each, White's third
    text = str(match.game_pgn(record))
    assert '[Termination "' in text and record["detail"] in text.replace("\n", " ")
    # A failed engine is replaced: the next game is played normally.
    faulty_good = Player("faulty", uci=fake("good"))
    again = match.play(Pairing("chess", {}, 1, faulty_good, FULL, seed=4, max_plies=6, **pairing))
    assert again["offender"] is None


def test_an_engine_that_cannot_start_a_game_loses_it():
    broken = Player("broken", uci=fake("nonewgame"))
    record = match.play(Pairing("chess", {}, 0, broken, FULL, seed=1, max_plies=10))
    assert (record["termination"], record["offender"], record["result"]) == (
        "crash",
        "broken",
        "0-1",
    )
    assert record["moves"] == record["moves"][: record["opening_plies"]]
    assert "failed to start a new game twice" in str(match.game_pgn(record))


def test_one_engine_per_player_per_worker(tmp_path, monkeypatch):
    made = []

    class Counted(fairyforge.Engine):
        def __init__(self, *args, **kwargs):
            made.append(self)

    monkeypatch.setattr(fairyforge, "Engine", Counted)
    pids = tmp_path / "pids"
    outside = Player("outside", uci=fake("good", pidfile=pids))
    games = match.pairings("chess", FULL, outside, 3, max_plies=8)
    match.run(games, workers=1)
    assert len(made) == 1
    assert len(pids.read_text().split()) == 1
    # Analysis, too: one engine, cleared between games.
    path = tmp_path / "g.pgn"
    board = fairyforge.Board("chess")
    for move in ("e2e4", "e7e5"):
        board.push_uci(move)
    pgn.write_games(path, [pgn.Game.from_board(board)] * 3)
    analysis.run(list(analysis.tasks(path, depth=2)), workers=1)
    assert len(made) == 2


def test_uci_client_reports_bad_engines_and_options(capsys):
    with pytest.raises(EngineStartError, match="cannot be started"):
        UciEngine("/nonexistent/engine")
    with pytest.raises(EngineStartError, match="did not start as a UCI engine"):
        UciEngine("true")
    with UciEngine(fake("good"), [("Hash", "8"), ("UCI_Variant", "chess")]) as engine:
        assert engine.name == "fake-good"
        reply = engine.go("position startpos moves e2e4", "go nodes 1", timeout=5)
        board = fairyforge.Board("chess")
        board.push_uci("e2e4")
        assert reply.move in board.legal_moves and (reply.depth, reply.score) == (1, "cp 12")
    with pytest.raises(EngineStartError, match="has no option 'Threads'"):
        UciEngine(fake("good"), {"Threads": "2"})
    with pytest.raises(EngineStartError, match="expected 1 to 64"):
        UciEngine(fake("good"), {"Hash": "100"})
    for argv, fragment in [
        (["--b", "uci:/nonexistent/engine"], "cannot be started"),
        (["--b", "uci:"], "uci: needs the engine's command"),
        (["--b", "stockfish"], "expected full, material, plain or uci:COMMAND"),
        (["--b", f"uci:{fake('good')}", "--b-option", "Hash"], "expected Name=Value"),
        (["--a-option", "Hash=1"], "own players take only EvalFile=FILE"),
        (["--b", f"uci:{fake('good')}", "-v", "all"], "name the variant"),
        (["--tc", "fast"], "invalid time control 'fast'"),
        (["--games", "0"], "--games: 0 (at least 1)"),
        (["--fen", "8/8 w - - 0 1"], "invalid FEN"),
        (["--out", "/nonexistent/dir/m"], "no directory '/nonexistent/dir'"),
    ]:
        code, out = run_cli(capsys, "match", "-v", "chess", *argv)
        assert code == 2 and fragment in " ".join(out.split()), (argv, out)


def test_time_controls_and_clock_text():
    assert TimeControl.parse("10+0.1") == TimeControl(10_000, 100)
    assert str(TimeControl.parse(" 60 ")) == "60"
    assert str(TimeControl(1500, 50)) == "1.5+0.05"
    for bad in ("", "0+1", "10+", "-5", "1:00"):
        with pytest.raises(fairyforge.InvalidOptionError):
            TimeControl.parse(bad)
    assert [format_clock(ms) for ms in (9_800, 61_005, 3_600_000, -3)] == [
        "0:00:09.8",
        "0:01:01.005",
        "1:00:00.0",
        "0:00:00.0",
    ]


def test_position_commands():
    board = fairyforge.Board("chess")
    assert players.position_command(board) == "position startpos"
    board.push_uci("e2e4")
    assert players.position_command(board) == "position startpos moves e2e4"
    fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    board = fairyforge.Board("chess", fen)
    board.push_uci("e2e4")
    assert players.position_command(board) == f"position fen {fen} moves e2e4"


def check_outputs(prefix: Path, variant: str, games: int) -> list[dict]:
    """The JSONL records and the PGN games agree, once per game."""
    records = pool.read(f"{prefix}.{variant}.jsonl")
    assert [r["index"] for r in records] == list(range(games))
    games_pgn = list(pgn.iter_games(f"{prefix}.{variant}.pgn"))
    assert [g.headers["Round"] for g in games_pgn] == [str(i + 1) for i in range(games)]
    for record, game in zip(records, games_pgn):
        assert [m.uci() for m in game.mainline_moves()] == record["moves"]
        assert game.headers["Result"] == record["result"]
        timed = [n for n in game.mainline() if "[%emt" in n.comment]
        assert len(timed) == len(record["moves"]) - record["opening_plies"]
    return records


@needs_stockfish
def test_match_against_stockfish_under_a_clock(tmp_path, capsys):
    prefix = tmp_path / "sf"
    argv = ["match", "-v", "chess", "--games", "2", "--tc", "1+0.05", "--max-plies", "40"]
    argv += ["--b", f"uci:{STOCKFISH}", "--b-option", "Hash=8", "--b-option", "Threads=1"]
    code, out = run_cli(capsys, *argv, "--workers", "1", "--out", str(prefix))
    assert code == 0, out
    assert "full vs Stockfish" in out and "time used per move" in out
    records = check_outputs(prefix, "chess", 2)
    for record in records:
        assert record["offender"] is None, record["detail"]
        assert len(record["clocks_ms"]) == len(record["moves"]) - record["opening_plies"]
    # python-chess replays the PGN: every move legal, the tags and clocks there.
    with open(f"{prefix}.chess.pgn", encoding="utf-8") as handle:
        for record in records:
            game = chess.pgn.read_game(handle)
            assert game is not None and not game.errors
            headers = game.headers
            assert headers["TimeControl"] == "1+0.05" and headers["Termination"]
            assert {headers["White"], headers["Black"]} == {"full", "Stockfish 15.1"}
            board = game.board()
            for node in game.mainline():
                assert node.move in board.legal_moves
                board.push(node.move)
            clocks = [n.clock() for n in game.mainline() if n.clock() is not None]
            assert len(clocks) == len(record["clocks_ms"])
            assert all(0 <= c <= 1 + 0.05 * 40 for c in clocks)


@needs_fsf
def test_shocking_match_against_fairy_stockfish(tmp_path, capsys):
    prefix = tmp_path / "fsf"
    argv = ["match", "-v", "shocking", "--games", "2", "--tc", "1+0.05", "--max-plies", "40"]
    argv += ["--b", f"uci:{shlex.quote(FSF)}", "--b-option", f"VariantPath={FSF_INI}"]
    argv += ["--b-option", "UCI_Variant=shocking-shock", "--workers", "1"]
    code, out = run_cli(capsys, *argv, "--out", str(prefix))
    assert code == 0, out
    records = check_outputs(prefix, "shocking", 2)
    for record in records:
        # Fairy-Stockfish's one known deviation (tests/data/fairy-stockfish.ini):
        # it never lets Black capture en passant, so after such a capture by
        # fairyforge it plays on from another position; nothing else is excused.
        excused = record["offender"] != "full" and black_took_en_passant(record)
        assert record["offender"] is None or excused, record["detail"]
    text = Path(f"{prefix}.shocking.pgn").read_text()
    assert '[Variant "shocking"]' in text and "[%clk " in text


def test_rerun_continues_and_refuses_other_settings(tmp_path, capsys):
    prefix = tmp_path / "m"
    argv = ["match", "-v", "evolution", "--max-plies", "8", "--workers", "1", "--out", str(prefix)]
    argv += ["--nodes", "200"]
    assert run_cli(capsys, *argv, "--games", "2")[0] == 0
    assert run_cli(capsys, *argv, "--games", "2")[0] == 0
    check_outputs(prefix, "evolution", 2)
    assert run_cli(capsys, *argv, "--games", "3")[0] == 0
    check_outputs(prefix, "evolution", 3)
    code, out = run_cli(capsys, *argv, "--games", "3", "--seed", "2")
    assert code == 2
    assert "holds results made with other settings" in out and "seed" in out
    code, out = run_cli(capsys, *argv[:-1], "300", "--games", "3")
    assert code == 2 and "players.full.nodes: 200 there, 300 now" in " ".join(out.split())
    check_outputs(prefix, "evolution", 3)
    # A PGN file that lost or doubled games is made whole from the records.
    pgn_file = Path(f"{prefix}.evolution.pgn")
    pgn_file.write_text(pgn_file.read_text() * 2)
    assert run_cli(capsys, *argv, "--games", "3")[0] == 0
    check_outputs(prefix, "evolution", 3)
    # Records without a settings file are not continued blindly.
    Path(f"{prefix}.evolution.settings.json").unlink()
    code, out = run_cli(capsys, *argv, "--games", "3")
    assert code == 2 and "settings file" in out


def test_self_play_is_allowed_and_varied(tmp_path, capsys):
    prefix = tmp_path / "self"
    argv = ["match", "-v", "chess", "--a", "full", "--b", "full", "--games", "4"]
    argv += ["--nodes", "100", "--max-plies", "10", "--workers", "1", "--out", str(prefix)]
    code, out = run_cli(capsys, *argv)
    assert code == 0 and "full (a) vs full (b)" in out
    records = [json.loads(line) for line in io.StringIO(Path(f"{prefix}.chess.jsonl").read_text())]
    openings = {tuple(r["moves"][: r["opening_plies"]]) for r in records}
    assert len(openings) == 4


def test_every_match_option_states_its_default():
    parser = cli.build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for action in commands.choices["match"]._actions:
        if action.dest != "help":
            assert "(default: " in action.help, action.dest


def test_time_odds_give_each_player_its_own_move_time(capsys, tmp_path):
    out = str(tmp_path / "odds")
    argv = ["match", "-v", "chess", "--games", "2", "--max-plies", "16", "--workers", "1"]
    argv += ["--a", "full", "--b", "plain", "--a-movetime", "5", "--b-movetime", "40"]
    code, text = run_cli(capsys, *argv, "--out", out, "--json")
    assert code == 0, text
    doc = json.loads(next(line for line in text.splitlines() if line.startswith("{")))
    assert doc["limit"] == "5 ms / 40 ms per move"
    players = doc["variants"][0]["players"]
    assert players["full"]["mean_ms"] < 20 < players["plain"]["mean_ms"]
    code, text = run_cli(capsys, *argv[:-4], "--a-movetime", "0", "--out", out)
    assert code == 2 and "--a-movetime: 0" in text, text
