"""Fuzz the PGN reader (``fairyforge.pgn``) with atheris, run by ``scripts/fuzz``.

Any bytes, read as UTF-8 (bytes that are not become lone surrogates, as
Python's ``surrogateescape`` gives them), must give games or
:class:`fairyforge.pgn.PgnError`, nothing else, in all three ``on_error``
modes; ``on_error="skip"`` yields exactly the games that ``"raise"`` reads
without error; and every game read writes out to PGN text that reads back
to the same text and final position.

Usage: ``python fuzz/pgn_fuzz.py [libFuzzer flags] [CORPUS_DIR ...]``, e.g.
``-runs=100000 fuzz/target/corpus/pgn fuzz/corpus/pgn``.
"""

from __future__ import annotations

import io
import sys

import atheris

with atheris.instrument_imports():
    import fairyforge.pgn as pgn

# Skipped games are logged as warnings: expected here, and slow.
pgn.LOGGER.disabled = True

#: Games read per input (the reader continues after a bad game).
MAX_GAMES = 16


def _read_all(text: str) -> tuple[list[pgn.Game], bool]:
    """The games ``read_game`` returns without error, reading past bad ones,
    and whether it reached the end within ``MAX_GAMES`` calls."""
    handle = io.StringIO(text)
    games = []
    for _ in range(MAX_GAMES):
        try:
            game = pgn.read_game(handle)
        except pgn.PgnError as e:
            assert str(e).startswith(f"game {e.game}, line {e.line}:"), str(e)
            continue
        if game is None:
            return games, True
        assert not game.errors, game.errors
        games.append(game)
    return games, False


def _check_round_trip(game: pgn.Game) -> None:
    """Written out and read back, a game gives the same text and position."""
    text = pgn.export(game)
    again = pgn.read_game(io.StringIO(text))
    assert again is not None, text
    assert pgn.export(again) == text, text
    assert again.end().board().fen() == game.end().board().fen(), text


def test_one_input(data: bytes) -> None:
    text = data.decode("utf-8", "surrogateescape")
    games, ended = _read_all(text)
    for game in games:
        _check_round_trip(game)
    if ended:
        skipped = list(pgn.iter_games(io.StringIO(text), on_error="skip"))
        assert [pgn.export(g) for g in skipped] == [pgn.export(g) for g in games], text
    handle = io.StringIO(text)
    for _ in range(MAX_GAMES):
        if pgn.read_game(handle, on_error="keep") is None:
            break
    try:
        pgn.read_headers(io.StringIO(text))
    except pgn.PgnError:
        pass


def main() -> None:
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
