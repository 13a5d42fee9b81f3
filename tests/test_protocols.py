"""Raw-protocol tests of ``fairyforge uci`` and ``fairyforge xboard`` as
subprocesses, for every variant: handshakes, legal moves, ``stop`` during
``go infinite``, garbage, illegal moves, 300-move positions, variant
switches, and the end of the input."""

from __future__ import annotations

import random
import time

import pytest
from peers import FAIRYFORGE, Process

import fairyforge

VARIANTS = ["chess", "shocking", "burden", "evolution"]
XBOARD_NAMES = {v: v for v in VARIANTS} | {"chess": "normal"}


def random_game(variant: str, plies: int, seed: int) -> fairyforge.Board:
    """A seeded random game that avoids ending while it can."""
    rng = random.Random(seed)
    board = fairyforge.Board(variant)
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves or board.is_shocked():
            break
        rng.shuffle(moves)
        for m in moves:
            board.push(m)
            if board.legal_moves and not board.is_shocked():
                break
            board.pop()
        else:
            board.push(moves[0])
    return board


def uci(variant: str = "chess") -> Process:
    p = Process([*FAIRYFORGE, "uci"])
    p.send("uci")
    p.expect("uciok", timeout=10)
    p.send(f"setoption name UCI_Variant value {variant}")
    p.send("ucinewgame")
    p.send("isready")
    assert not [line for line in p.expect("readyok") if "error" in line]
    return p


def bestmove(lines: list[str]) -> str:
    assert lines[-1].startswith("bestmove "), lines
    return lines[-1].split()[1]


def fen_of(p: Process) -> str:
    p.send("d")
    lines = p.expect("Key: ")
    return next(line[5:] for line in lines if line.startswith("Fen: "))


def test_uci_handshake() -> None:
    p = Process([*FAIRYFORGE, "uci"])
    p.send("uci")
    lines = p.expect("uciok", timeout=10)
    assert lines[0] == f"id name fairyforge {fairyforge.__version__}"
    (combo,) = [line for line in lines if line.startswith("option name UCI_Variant ")]
    listed = combo.split(" var ")[1:]
    assert combo.startswith("option name UCI_Variant type combo default chess var chess ")
    # The shipped variants (this process may have loaded more).
    assert listed[:5] == [*fairyforge.BUILTIN_VARIANTS, "capablanca"]
    assert set(listed) <= set(fairyforge.variant_names())
    assert "option name VariantPath type string default <empty>" in lines
    assert "option name cycle type combo default none var none var pawn var knight" in lines
    p.send("isready")
    assert p.expect("readyok") == ["readyok"]
    assert p.close() == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_uci_plays_legal_moves(variant: str) -> None:
    p = uci(variant)
    board = random_game(variant, 6, 3)
    moves = " ".join(m.uci() for m in board.move_stack)
    p.send(f"position startpos moves {moves}")
    for go in ["go depth 3", "go movetime 50", "go wtime 500 btime 500 winc 10 binc 10"]:
        p.send(go)
        lines = p.expect("bestmove")
        assert any(line.startswith("info depth") and " pv " in line for line in lines), lines
        assert board.is_legal(bestmove(lines)), (variant, go, lines[-1], board.fen())
    assert p.close() == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_uci_stop_during_go_infinite(variant: str) -> None:
    p = uci(variant)
    p.send("position startpos")
    p.send("go infinite")
    early = p.drain(0.3)
    assert any(line.startswith("info depth") for line in early), early
    assert not any(line.startswith("bestmove") for line in early)
    p.send("isready")
    p.expect("readyok", timeout=1)
    sent = p.send("stop")
    lines, at = p.until(lambda line: line.startswith("bestmove"), timeout=2)
    assert at - sent < 0.05, f"bestmove {1000 * (at - sent):.1f} ms after stop"
    assert fairyforge.Board(variant).is_legal(bestmove(lines))
    assert p.close() == 0


def test_uci_garbage_and_illegal_moves() -> None:
    p = uci("burden")
    for garbage in [
        "xyzzy",
        "position startpos moves a4b5 a4a5",
        "position fen 9/9/9 w - - 0 1",
        "setoption name royal value emperor",
        "setoption name Hash value -1",
        "go depth many movetime 50",
    ]:
        p.send(garbage)
        p.send("isready")
        lines = p.expect("readyok")
        errors = [line for line in lines if line.startswith("info string error: ")]
        assert errors, (garbage, lines)
        if garbage.startswith("position startpos"):
            assert "a4a5" in errors[0] and "move 2" in errors[0], errors
        if garbage.startswith("go"):
            p.expect("bestmove")
    p.send("\x00\x01\x02 \x7f")
    p.send("isready")
    p.expect("readyok")
    board = fairyforge.Board("burden")
    board.push("a4b5")
    assert fen_of(p) == board.fen()
    p.send("go depth 2")
    assert board.is_legal(bestmove(p.expect("bestmove")))
    assert p.close() == 0


def evaluation(p: Process, position: str) -> str:
    p.send(f"position {position}")
    p.send("eval")
    (line,) = p.expect("Final evaluation")
    return line


def test_uci_eval_prints_the_static_evaluation(tmp_path) -> None:
    p = uci()
    # White's view: after 1.e4 and in its mirror image the scores are
    # opposite, to the centipawn.
    after_e4 = evaluation(p, "startpos moves e2e4")
    mirror = evaluation(p, "fen rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    assert after_e4.startswith("Final evaluation ") and after_e4.endswith(" (white side)"), after_e4
    assert float(after_e4.split()[2]) == -float(mirror.split()[2]) != 0
    assert evaluation(p, "startpos moves e2e4 f7f6 d1h5") == "Final evaluation: none (in check)"
    # Under EvalFile: a knight worth 1000 centipawns more, 10.00 pawns more.
    up = "fen 4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1"
    scores = []
    for value in (600, 1600):
        path = tmp_path / f"knight{value}.toml"
        path.write_text(f'variant = "chess"\n[eval.knight]\nvalue = {value}\n')
        p.send(f"setoption name EvalFile value {path}")
        scores.append(float(evaluation(p, up).split()[2]))
    assert round(scores[1] - scores[0], 2) == 10.0, scores
    assert p.close() == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_uci_position_with_300_moves(variant: str) -> None:
    board = next(
        b for b in (random_game(variant, 300, s) for s in range(50)) if len(b.move_stack) == 300
    )
    p = uci(variant)
    p.send("position startpos moves " + " ".join(m.uci() for m in board.move_stack))
    assert fen_of(p) == board.fen()
    p.send("go depth 2")
    move = bestmove(p.expect("bestmove"))
    if board.is_shocked() or not board.legal_moves:
        assert move == "(none)"
    else:
        assert board.is_legal(move), (move, board.fen())
    assert p.close() == 0


def test_uci_ucinewgame_between_variants() -> None:
    p = uci("chess")
    for variant in ["shocking", "evolution", "burden", "chess", "shocking"]:
        p.send(f"setoption name UCI_Variant value {variant}")
        p.send("ucinewgame")
        board = random_game(variant, 4, 1)
        p.send("position startpos moves " + " ".join(m.uci() for m in board.move_stack))
        assert fen_of(p) == board.fen()
        p.send("go depth 2")
        assert board.is_legal(bestmove(p.expect("bestmove")))
    assert p.close() == 0


def test_uci_end_of_input_ends_the_process() -> None:
    p = uci("shocking")
    p.send("go infinite")
    p.expect("info depth")
    start = time.monotonic()
    assert p.close(command=None, timeout=2) == 0
    assert time.monotonic() - start < 1


def xboard(variant: str) -> Process:
    p = Process([*FAIRYFORGE, "xboard"])
    p.send("xboard")
    p.send("protover 2")
    p.expect("feature done=1", timeout=10)
    p.send("new")
    p.send(f"variant {XBOARD_NAMES[variant]}")
    p.send("ping 1")
    p.expect("pong 1")
    return p


def engine_move(board: fairyforge.Board, text: str) -> None:
    """Play an XBoard move (maybe with an evolution letter) on ``board``."""
    move = text if board.is_legal(text) else text[:-1]
    assert board.is_legal(move), (text, board.fen())
    board.push(move)


def test_xboard_features_and_setup() -> None:
    p = Process([*FAIRYFORGE, "xboard"])
    p.send("xboard")
    p.send("protover 2")
    lines = p.expect("feature done=1", timeout=10)
    for feature in ["setboard=1", "usermove=1", "ping=1", "sigint=0", "san=0", "memory=1", "smp=1"]:
        assert feature in lines[0], lines[0]
    assert 'variants="normal,shocking,burden,evolution,capablanca,' in lines[0]
    p.send("new")
    p.send("variant shocking")
    setup = p.expect("setup")[-1]
    assert setup.endswith("8x8+0_fairy " + fairyforge.Board("shocking").fen()), setup
    assert p.close() == 0


@pytest.mark.parametrize("variant", VARIANTS)
def test_xboard_plays_against_random_replies(variant: str) -> None:
    p = xboard(variant)
    board = fairyforge.Board(variant)
    rng = random.Random(5)
    p.send("sd 2")
    p.send("go")
    for _ in range(4):
        engine_move(board, p.expect("move ")[-1].split()[1])
        if board.is_game_over(claim_draw=True):
            break
        reply = rng.choice(list(board.legal_moves))
        board.push(reply)
        p.send(f"usermove {reply.uci()}")
        if board.is_game_over(claim_draw=True):
            break
    p.send("force")
    p.send("usermove a1a1")
    assert p.expect("Illegal move")[-1] == "Illegal move (not legal in this position): a1a1"
    p.send("nonsense here")
    assert p.expect("Error")[-1] == "Error (unknown command): nonsense here"
    assert p.close() == 0


def test_xboard_move_now_and_quit_while_thinking() -> None:
    p = xboard("shocking")
    p.send("st 60")
    p.send("go")
    time.sleep(0.2)
    sent = p.send("?")
    lines, at = p.until(lambda line: line.startswith("move "), timeout=2)
    assert at - sent < 0.05
    engine_move(fairyforge.Board("shocking"), lines[-1].split()[1])
    p.send("usermove e7e6")  # not a move of the Network: refused
    assert p.expect("Illegal move")[-1].endswith(": e7e6")
    p.send("go")
    time.sleep(0.1)
    start = time.monotonic()
    assert p.close(timeout=2) == 0
    assert time.monotonic() - start < 1
