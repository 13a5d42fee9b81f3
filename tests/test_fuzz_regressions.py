"""Inputs the fuzz targets (fuzz/, scripts/fuzz) found to break the Python
layer, kept as tests: each failed before its fix."""

from __future__ import annotations

import gc
import io
import weakref

import pytest

from fairyforge import pgn


def test_a_carriage_return_inside_a_tag_value_is_a_pgn_error():
    # From fuzz/pgn_fuzz.py: a lone "\r" in a tag value (a handle that does
    # not translate newlines, such as StringIO) raised InvalidOptionError
    # from Headers, past on_error="skip".
    text = '[White "1\r0"]\n\n1. e4 *\n\n[Event "next"]\n\n1. d4 *\n'
    with pytest.raises(pgn.PgnError, match=r"game 1, line 1: .*tag White"):
        pgn.read_game(io.StringIO(text))
    games = list(pgn.iter_games(io.StringIO(text), on_error="skip"))
    assert [g.mainline_moves()[0].uci() for g in games] == ["d2d4"]


def test_a_handle_read_from_is_not_kept_alive():
    # From fuzz/pgn_fuzz.py (out of memory after 200000 inputs): the reading
    # state kept under each handle as a weak key held the handle strongly,
    # so every handle given to read_game, and the last game read from it,
    # stayed in memory for good.
    handle = io.StringIO("1. e4 *\n\n1. d4 *\n")
    assert pgn.read_game(handle) is not None
    ref = weakref.ref(handle)
    del handle
    gc.collect()
    assert ref() is None
