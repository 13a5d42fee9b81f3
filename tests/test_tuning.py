"""Evaluation weights from Python, the CLI, UCI and matches, and the
``fairyforge tune`` command end to end (self-play, PGN and analysis input,
resume, JSON, plot, refused settings)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from peers import FAIRYFORGE, Process

import fairyforge
from fairyforge.tools import cli, tune

FEN = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"


def run_cli(capsys, *argv: str) -> tuple[int, str]:
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def weights_file(tmp_path: Path, text: str, name: str = "weights.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("fen", "low", "high"),
    [
        # Two rooks against a queen, all else as at the start: Fairy-Stockfish
        # sees about -0.9 for the rooks; a fit to results alone said -5.3.
        ("1nbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQ - 0 1", -150, 100),
        # A queen up at the start: Fairy-Stockfish about +12.9, that fit +19.6.
        ("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 1000, 1500),
    ],
)
def test_shipped_chess_weights_value_the_queen_as_a_strong_engine_does(fen, low, high):
    score = fairyforge.Board("chess", fen).search(depth=4).score
    assert score.mate is None and low <= score.cp <= high


def test_a_weights_file_changes_the_search_the_same_way_everywhere(tmp_path):
    path = weights_file(tmp_path, 'variant = "chess"\n[eval.knight]\nvalue = 600\nmobility = 4\n')
    board = fairyforge.Board("chess", FEN)
    plain = board.search(depth=6)
    weighed = board.search(depth=6, weights=path)
    assert (weighed.nodes, weighed.pv) != (plain.nodes, plain.pv)
    again = fairyforge.Engine("chess").search(board, depth=6, weights=path)
    assert (again.nodes, again.score, again.pv) == (weighed.nodes, weighed.score, weighed.pv)
    # A file that sets no term changes nothing.
    info = fairyforge.variant("chess")
    defaults = weights_file(tmp_path, 'variant = "chess"\n', "defaults.toml")
    same = board.search(depth=6, weights=defaults)
    assert (same.nodes, same.pv) == (plain.nodes, plain.pv), info.name


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('variant = "chess"\n[eval]\nshock_file = 3\n', ["eval.shock_file", "not a term"]),
        ('variant = "shocking"\n[eval]\ntempo = 3\n', ["variant", "for shocking, not chess"]),
        ('variant = "chess"\n[eval.knight]\nvalue = "a lot"\n', ["eval.knight.value", "number"]),
        ('variant = "chess"\n[eval\n', ["not valid TOML"]),
    ],
)
def test_bad_weights_files_are_refused_naming_the_key(tmp_path, text, words):
    path = weights_file(tmp_path, text)
    with pytest.raises(fairyforge.InvalidVariantError) as e:
        fairyforge.Board("chess").search(depth=2, weights=path)
    assert all(w in str(e.value) for w in words), str(e.value)
    with pytest.raises(fairyforge.InvalidVariantError, match="cannot read"):
        fairyforge.Board("chess").search(depth=2, weights=str(tmp_path / "missing.toml"))


def test_uci_evalfile(tmp_path):
    path = weights_file(tmp_path, 'variant = "chess"\n[eval.pawn]\nvalue = [80, 130]\n')
    p = Process([*FAIRYFORGE, "uci"])
    p.send("uci")
    assert "option name EvalFile type string default <empty>" in p.expect("uciok", timeout=10)
    p.send(f"setoption name EvalFile value {path}")
    p.send(f"position fen {FEN}")
    p.send("go depth 6")
    lines = p.expect("bestmove")
    last = [line.split() for line in lines if " nodes " in line][-1]
    nodes = int(last[last.index("nodes") + 1])
    expected = fairyforge.Board("chess", FEN).search(depth=6, weights=path)
    assert nodes == expected.nodes
    assert lines[-1].split()[1] == expected.best_move.uci()
    p.send("setoption name UCI_Variant value shocking")
    p.send("isready")
    lines = p.expect("readyok")
    assert any("EvalFile" in line and "for chess, not shocking" in line for line in lines), lines
    p.send("setoption name EvalFile value /nonexistent.toml")
    p.send("isready")
    assert any("EvalFile" in line and "cannot read" in line for line in p.expect("readyok"))
    p.send("quit")
    assert p.close() == 0


def test_a_match_player_takes_a_weights_file_and_reruns_check_its_content(capsys, tmp_path):
    path = weights_file(tmp_path, 'variant = "chess"\n[eval.knight]\nvalue = 450\n', "knights.toml")
    out = str(tmp_path / "m")
    argv = ["match", "-v", "chess", "--games", "2", "--nodes", "200", "--workers", "1"]
    argv += ["--a", "full", "--a-option", f"EvalFile={path}", "--b", "full", "--out", out, "--json"]
    code, text = run_cli(capsys, *argv)
    assert code == 0, text
    doc = json.loads(next(line for line in text.splitlines() if line.startswith("{")))
    assert doc["a"] == "full:knights" and doc["variants"][0]["games"] == 2
    Path(path).write_text('variant = "chess"\n[eval.knight]\nvalue = 460\n', encoding="utf-8")
    code, text = run_cli(capsys, *argv)
    assert code == 2 and "weights" in text and "sha256" in text, text
    base = ["match", "-v", "chess", "--games", "2", "--nodes", "200", "--workers", "1"]
    code, text = run_cli(capsys, *base, "--a-option", "Hash=4", "--out", str(tmp_path / "n"))
    assert code == 2 and "only EvalFile" in text, text


def test_tune_self_play_resume_and_pgn(capsys, tmp_path):
    out = tmp_path / "tune"
    argv = ["tune", "-v", "chess", "--games", "6", "--nodes", "200", "--max-plies", "80"]
    argv += ["--workers", "1", "--epochs", "40", "--skip", "4", "--out", str(out)]
    code, text = run_cli(capsys, *argv, "--json", "--plot")
    assert code == 0, text
    doc = json.loads(text[text.index("{") : text.rindex("}") + 1])
    # Every quiet position of the games recorded, in one set or the other.
    (records,) = out.glob("*.jsonl")
    lines = records.read_text(encoding="utf-8").splitlines()
    games = list(tune.games_of_records(json.loads(line) for line in lines))
    quiet = sum(
        len(list(tune.positions(fairyforge.Board(g.variant, g.fen), g.moves, g.result, 4)))
        for g in games
    )
    assert doc["games"] == len(games) > 0 and doc["train_positions"] > 0
    assert doc["train_positions"] + doc["held_positions"] == quiet
    assert doc["curve"][0][0] == 0 and doc["best_epoch"] <= 40
    assert set(doc["terms"]) >= {"tempo", "knight.value", "knight.mobility", "doubled"}
    assert (out / "tune.png").read_bytes()[:4] == b"\x89PNG"
    weights = (out / "weights.toml").read_text()
    assert weights.count('variant = "chess"') == 1 and "[eval.knight]" in weights
    fairyforge.Board("chess").search(depth=3, weights=str(out / "weights.toml"))
    # A rerun finds every game recorded and fits the same positions again.
    code, text = run_cli(capsys, *argv, "--json")
    assert code == 0
    redo = json.loads(text[text.index("{") : text.rindex("}") + 1])
    assert (redo["games"], redo["train_positions"], redo["after"]) == (
        doc["games"],
        doc["train_positions"],
        doc["after"],
    )
    (pgn_file,) = out.glob("*.pgn")
    code, text = run_cli(
        capsys,
        "tune",
        "-v",
        "chess",
        "--pgn",
        str(pgn_file),
        "--skip",
        "4",
        "--epochs",
        "40",
        "--out",
        str(tmp_path / "from-pgn"),
        "--json",
    )
    assert code == 0, text
    from_pgn = json.loads(text[text.index("{") : text.rindex("}") + 1])
    assert (from_pgn["games"], from_pgn["train_positions"]) == (
        doc["games"],
        doc["train_positions"],
    )
    # The searches' scores come alike from records and PGN, White's view.
    scored = {g.moves: g.scores for g in tune.games_of_pgn(pgn_file)}
    assert scored == {g.moves: g.scores for g in games}
    assert all(len(g.scores) == len(g.moves) for g in games)
    assert sum(s is not None for g in games for s in g.scores) > len(games) * 10
    code, text = run_cli(
        capsys, *fit_args(pgn_file), "--lambda", "0", "--json", "--out", str(tmp_path / "l")
    )
    assert code == 0, text
    lam = json.loads(text[text.index("{") : text.rindex("}") + 1])
    assert (
        lam["lambda"] == 0
        and 0 < lam["scored_positions"] <= lam["train_positions"] + lam["held_positions"]
    )
    assert lam["after"] != from_pgn["after"]
    code, text = run_cli(
        capsys, *fit_args(pgn_file), "--scored-by", "nobody", "--json", "--out", str(tmp_path / "n")
    )
    assert (
        code == 0
        and json.loads(text[text.index("{") : text.rindex("}") + 1])["scored_positions"] == 0
    )
    # The fit's options reach it from the command line.
    fit = fit_args(pgn_file)
    # Nothing held out: the last epoch is kept, so the free terms move
    # whatever the held-out loss of so few games does.
    freeze = ["--freeze", "mobility,tempo", "--l2", "0.001", "--held", "0"]
    code, text = run_cli(capsys, *fit, *freeze, "--out", str(tmp_path / "f"))
    assert code == 0, text
    frozen = json.loads((tmp_path / "f" / "tune.json").read_text())["terms"]
    assert frozen["tempo"][0] == frozen["tempo"][1]
    assert all(a == b for n, (a, b) in frozen.items() if n.endswith(".mobility"))
    assert any(a != b for n, (a, b) in frozen.items() if n.endswith(".value"))
    code, text = run_cli(capsys, *fit, "--anchor", "knight", "--out", str(tmp_path / "a"))
    assert code == 0, text
    anchored = json.loads((tmp_path / "a" / "tune.json").read_text())["terms"]
    assert anchored["knight.value"][1][0] == pytest.approx(anchored["knight.value"][0][0], abs=0.01)


def fit_args(pgn_file: Path) -> list[str]:
    return ["tune", "-v", "chess", "--pgn", str(pgn_file), "--skip", "4", "--epochs", "40"]


def test_scores_are_whites_from_records_and_pgn_and_kept_by_player(tmp_path):
    from fairyforge.tools import match

    # White is a queen up; Black moves first and scores -9.00 (its view).
    fen = "4k3/8/8/8/8/8/8/3QK3 b - - 0 1"
    record = {
        "index": 0,
        "variant": "chess",
        "options": {},
        "fen": fen,
        "white": "strong (a)",
        "black": "weak (b)",
        "result": "1-0",
        "termination": "max_plies",
        "opening_plies": 1,
        "moves": ["e8f7", "d1d3", "f7e7", "e1e2"],
        "times_ms": [5.0, 5.0, 5.0],
        "evals": ["+8.50/6", "-9.00/5", None],
        "clocks_ms": None,
    }
    (game,) = tune.games_of_records([record])
    assert game.scores == (None, 850.0, 900.0, None)
    path = tmp_path / "g.pgn"
    path.write_text(str(match.game_pgn(record)) + "\n", encoding="utf-8")
    (from_pgn,) = tune.games_of_pgn(path)
    assert from_pgn.scores == game.scores and from_pgn.moves == game.moves
    for source in (
        tune.games_of_records([record], "weak"),
        tune.games_of_pgn(path, scored_by="weak"),
    ):
        assert next(iter(source)).scores == (None, None, 900.0, None)
    board = fairyforge.Board("chess", fen)
    assert [p[2] for p in tune.positions(board, game.moves, 1.0, 0, game.scores)] == [
        None,
        850.0,
        900.0,
        None,
    ]
    mate = dict(record, evals=["#3/9", "#-2/9", None])
    assert next(tune.games_of_records([mate])).scores[1:3] == (tune.MATE_CP, tune.MATE_CP)


def analysis_record(**changes) -> dict:
    """An analysis record: White a queen up, Black to move first."""
    position = {"fen": "", "played": None, "best": None, "depth": 5, "nodes": 9, "seconds": 0.1}
    record = {
        "index": 1,
        "variant": "chess",
        "options": {},
        "fen": "4k3/8/8/8/8/8/8/3QK3 b - - 0 1",
        "moves": ["e8f7", "d1d3", "f7e7", "e1e2"],
        "result": "1-0",
        "analyser": "Stockfish 16",
        "positions": [
            # Black's view: -9.00 is White's +9.00; then White's own +8.50,
            # a mate for White, and the last position, after every move.
            dict(position, ply=0, cp=-900, mate=None),
            dict(position, ply=1, cp=850, mate=None),
            dict(position, ply=3, cp=None, mate=2),
            dict(position, ply=4, cp=-870, mate=None),
        ],
    }
    record.update(changes)
    return record


def test_games_of_analysis_give_whites_scores_by_ply():
    (game,) = tune.games_of_analysis([analysis_record()])
    assert (game.variant, game.fen, game.result) == ("chess", analysis_record()["fen"], 1.0)
    assert game.moves == ("e8f7", "d1d3", "f7e7", "e1e2")
    assert game.scores == (900.0, 850.0, None, tune.MATE_CP)
    # A mate for Black, Black to move, is a loss for White.
    black_mates = analysis_record(positions=[dict(analysis_record()["positions"][0], mate=1)])
    assert next(tune.games_of_analysis([black_mates])).scores == (-tune.MATE_CP, None, None, None)
    assert next(tune.games_of_analysis([analysis_record()], "Stockfish")).scores[0] == 900.0
    assert next(tune.games_of_analysis([analysis_record()], "Komodo")).scores == (None,) * 4
    assert list(tune.games_of_analysis([analysis_record(result="*")])) == []
    board = fairyforge.Board("chess", game.fen)
    assert [p[2] for p in tune.positions(board, game.moves, 1.0, 0, game.scores)] == [
        900.0,
        850.0,
        None,
        tune.MATE_CP,
    ]


FOOLS_MATE = """[Event "fool's mate"]
[Result "0-1"]

1. f3 e5 2. g4 Qh4# 0-1

[Event "a draw"]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 1/2-1/2
"""


def test_tune_fits_to_a_uci_engines_analysis(capsys, tmp_path):
    games = tmp_path / "games.pgn"
    games.write_text(FOOLS_MATE)
    scores = tmp_path / "scores.jsonl"
    engine = "uci:" + shlex.join([*FAIRYFORGE, "uci"])
    code, text = run_cli(
        capsys,
        *["analyse", str(games), "--engine", engine, "--engine-option", "Hash=4"],
        *["--nodes", "2000", "--quiet-only", "--skip", "0", "--out", str(scores)],
        "--workers",
        "1",
    )
    assert code == 0, text
    records = tune.read_analysis(scores)
    assert records[0]["analyser"].startswith("fairyforge")
    mate = records[0]["positions"][-1]
    assert (mate["ply"], mate["played"], mate["mate"]) == (3, "d8h4", 1)  # Black mates in 1
    fools, draw = tune.games_of_analysis(records)
    assert (fools.result, draw.result) == (0.0, 0.5)
    assert fools.scores[3] == -tune.MATE_CP and all(s is not None for s in fools.scores)
    out = tmp_path / "fit"
    argv = ["tune", "-v", "chess", "--analysis", str(scores), "--lambda", "0", "--skip", "0"]
    argv += ["--held", "0", "--epochs", "20", "--json", "--out", str(out)]
    code, text = run_cli(capsys, *argv)
    assert code == 0, text
    doc = json.loads(text[text.index("{") : text.rindex("}") + 1])
    quiet = sum(len(r["positions"]) for r in records)
    assert doc["games"] == 2 and doc["train_positions"] == doc["scored_positions"] == quiet
    assert 'variant = "chess"' in (out / "weights.toml").read_text()
    # With a PGN file too, and only the scores of another analyser: none.
    code, text = run_cli(capsys, *argv, "--pgn", str(games), "--scored-by", "Stockfish")
    assert code == 0, text
    doc = json.loads(text[text.index("{") : text.rindex("}") + 1])
    assert doc["games"] == 4 and doc["scored_positions"] == 0


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (None, "--analysis: no file"),
        ("not json\n", "line 1 is not a record of fairyforge analyse"),
        (json.dumps(analysis_record()) + "\n[1, 2]\n", "line 2 is not a record"),
        (json.dumps(analysis_record(positions=[{"ply": "x"}])) + "\n", "line 1 is not"),
        (json.dumps({"index": 1, "white": "a", "moves": []}) + "\n", "line 1 is not"),
    ],
)
def test_tune_refuses_bad_analysis_files(capsys, tmp_path, content, words):
    path = tmp_path / "a.jsonl"
    if content is not None:
        path.write_text(content)
    code, text = run_cli(
        capsys, "tune", "-v", "chess", "--analysis", str(path), "--out", str(tmp_path / "t")
    )
    assert code == 2 and words in text and "Traceback" not in text, text


@pytest.mark.parametrize(
    ("flag", "value", "words"),
    [
        ("--lambda", "1.5", "--lambda"),
        ("--held", "1.5", "--held"),
        ("--skip", "-1", "--skip"),
        ("--rate", "0", "--rate"),
        ("--epochs", "0", "--epochs"),
        ("--games", "5", "--pgn: no file"),
    ],
)
def test_tune_refuses_bad_settings(capsys, tmp_path, flag, value, words):
    code, text = run_cli(
        capsys,
        "tune",
        "-v",
        "chess",
        "--pgn",
        str(tmp_path / "none.pgn"),
        flag,
        value,
        "--out",
        str(tmp_path / "t"),
    )
    assert code == 2 and words in text, text


def test_positions_skip_checks_captures_and_promotions():
    board = fairyforge.Board("chess", "4k3/1P6/8/8/8/8/8/4K2R w K - 0 1")
    moves = ["h1h8", "e8d7", "b7b8q", "d7c6", "e1f2"]
    quiet = list(tune.positions(board, moves, 0.5, 0))
    # Before Rh8+ (quiet), not the position in check, not before b8=Q, the
    # king's move after it, and White's king move.
    assert [fen.split()[0] for fen, _, _ in quiet] == [
        "4k3/1P6/8/8/8/8/8/4K2R",
        "1Q5R/3k4/8/8/8/8/8/4K3",
        "1Q5R/8/2k5/8/8/8/8/4K3",
    ]


TERMS = ["tempo", "doubled", "knight", "pawn", "shock_file", "eval", "value", "mobility", "x"]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(TERMS),
            st.one_of(
                st.integers(-(10**12), 10**12).map(str),
                st.floats(allow_nan=True, allow_infinity=True).map(
                    lambda f: {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(str(f), repr(f))
                ),
                st.text(max_size=8).map(lambda t: '"' + t.replace("\\", "").replace('"', "") + '"'),
                st.just("[1, 2]"),
                st.just("[1]"),
                st.just("{ a = 1 }"),
            ),
        ),
        max_size=5,
    ),
    st.sampled_from(["[eval]", "[eval.knight]", "[eval.queen]", ""]),
)
def test_any_weights_file_reads_or_raises_a_value_error(tmp_path_factory, pairs, header):
    text = 'variant = "chess"\n' + header + "\n" + "".join(f"{k} = {v}\n" for k, v in pairs)
    path = tmp_path_factory.mktemp("w") / "w.toml"
    path.write_text(text, encoding="utf-8")
    try:
        fairyforge.Board("chess").search(depth=1, weights=str(path))
    except fairyforge.InvalidVariantError as e:
        assert "w.toml" in str(e)


def test_fit_keeps_frozen_terms_and_names_unknown_ones():
    board = fairyforge.Board("chess")
    games = [
        tune.Game("chess", {}, None, ("e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"), 1.0),
        tune.Game("chess", {}, None, ("d2d4", "d7d5", "c2c4", "e7e6", "b1c3", "g8f6"), 0.0),
    ]
    train, held = tune.split(games, 0.0, 1, 0)
    t = tune.fit(board, train, held, epochs=30, rate=5.0, frozen=["mobility", "tempo"])
    assert t.terms["tempo"][0] == t.terms["tempo"][1]
    assert all(a == b for n, (a, b) in t.terms.items() if n.endswith(".mobility"))
    assert any(a != b for n, (a, b) in t.terms.items() if n.endswith(".centre"))
    with pytest.raises(fairyforge.InvalidOptionError, match="shock_file.*is not a term of chess"):
        tune.fit(board, train, held, epochs=1, frozen=["shock_file"])
