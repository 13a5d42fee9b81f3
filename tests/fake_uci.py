"""A deliberately faulty UCI engine for the referee's tests.

``python fake_uci.py MODE AFTER [PIDFILE]``: plays the first legal move
(found with fairyforge) for its first AFTER moves, mixing noise into its
output, then misbehaves by MODE: ``illegal`` (a move that is not legal),
``none`` (``bestmove (none)``), ``crash`` (exits), ``hang`` (never answers),
``late`` (answers 400 ms after ``go``), ``nonewgame`` (exits on
``ucinewgame``), ``good`` (never misbehaves). It
appends its process id to PIDFILE when it starts, so tests can count the
engines a match started. ``setoption name UCI_Variant value V`` picks the
variant.
"""

from __future__ import annotations

import os
import sys
import time

import fairyforge


def main() -> None:
    mode, after = sys.argv[1], int(sys.argv[2])
    if len(sys.argv) > 3:
        with open(sys.argv[3], "a", encoding="utf-8") as handle:
            handle.write(f"{os.getpid()}\n")
    variant = "chess"
    board = fairyforge.Board(variant)
    played = 0

    def say(text: str) -> None:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            say(f"id name fake-{mode}")
            say("option name UCI_Variant type string default chess")
            say("option name Hash type spin default 1 min 1 max 64")
            say("uciok")
        elif words[0] == "isready":
            say("readyok")
        elif words[0] == "ucinewgame" and mode == "nonewgame":
            sys.exit(4)
        elif words[:3] == ["setoption", "name", "UCI_Variant"]:
            variant = words[4]
        elif words[0] == "position":
            moves = words[words.index("moves") + 1 :] if "moves" in words else []
            board = fairyforge.Board(variant)
            for move in moves:
                board.push_uci(move)
        elif words[0] == "go":
            say("info string thinking")
            say("garbage that no client understands")
            say("info depth 1 score cp 12 nodes 1 pv")
            played += 1
            if played <= after or mode == "good":
                say(f"bestmove {next(iter(board.legal_moves)).uci()}")
            elif mode == "illegal":
                candidates = ("a1h8", "h8a1", "e2e5", "a2a6", "e7e3")
                say(f"bestmove {next(m for m in candidates if not board.is_legal(m))}")
            elif mode == "none":
                say("bestmove (none)")
            elif mode == "crash":
                sys.stderr.write("fake engine: crashing on purpose\n")
                sys.exit(3)
            elif mode == "hang":
                time.sleep(60)
            elif mode == "late":
                time.sleep(0.4)
                say(f"bestmove {next(iter(board.legal_moves)).uci()}")
        elif words[0] == "quit":
            return


if __name__ == "__main__":
    main()
