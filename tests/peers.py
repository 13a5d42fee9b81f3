"""Helpers for the tests that talk to engine processes: a line-based
protocol client with deadlines, and where to find a current Fairy-Stockfish
(``FAIRYFORGE_FSF``, then ``.peers/fairy-stockfish`` as ``scripts/peers``
builds it), so that the tests against it skip cleanly where it is missing."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import fairyforge

ROOT = Path(__file__).resolve().parent.parent
FSF_INI = ROOT / "tests" / "data" / "fairy-stockfish.ini"
FAIRYFORGE = [sys.executable, "-m", "fairyforge"]


def fairy_stockfish() -> str | None:
    """Path of a current Fairy-Stockfish binary, or None."""
    candidates = [os.environ.get("FAIRYFORGE_FSF", ""), str(ROOT / ".peers" / "fairy-stockfish")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    return None


class Process:
    """An engine process spoken to line by line; a reader thread timestamps
    every output line as it arrives."""

    def __init__(self, argv: list[str]) -> None:
        self.proc = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
            cwd=ROOT,
        )
        self.lines: queue.Queue[tuple[float, str | None]] = queue.Queue()
        self.log: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put((time.monotonic(), line.rstrip("\r\n")))
        self.lines.put((time.monotonic(), None))

    def send(self, line: str) -> float:
        """Send one line; the time it was sent."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return time.monotonic()

    def until(self, done: Callable[[str], bool], timeout: float = 20.0) -> tuple[list[str], float]:
        """Lines up to the first for which ``done`` holds, and its arrival
        time; AssertionError after ``timeout`` seconds or at the end of the
        output."""
        deadline = time.monotonic() + timeout
        got: list[str] = []
        while True:
            try:
                at, line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no expected line within {timeout} s; got {got}") from None
            if line is None:
                raise AssertionError(f"the process ended; got {got}")
            self.log.append(line)
            got.append(line)
            if done(line):
                return got, at

    def expect(self, prefix: str, timeout: float = 20.0) -> list[str]:
        """Lines up to the first starting with ``prefix``."""
        return self.until(lambda line: line.startswith(prefix), timeout)[0]

    def drain(self, seconds: float) -> list[str]:
        """Whatever arrives within ``seconds``."""
        deadline = time.monotonic() + seconds
        got: list[str] = []
        while (left := deadline - time.monotonic()) > 0:
            try:
                _, line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            self.log.append(line)
            got.append(line)
        return got

    def close(self, command: str | None = "quit", timeout: float = 5.0) -> int:
        """Send ``command`` (if any), close the input and wait for the exit
        code; the process is killed if it does not end in time."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            if command:
                self.send(command)
            self.proc.stdin.close()
            return self.proc.wait(timeout=timeout)
        except (subprocess.TimeoutExpired, BrokenPipeError):
            self.proc.kill()
            self.proc.wait()
            raise
        finally:
            self.reader.join(timeout=5)
            self.proc.stdout.close()


def black_took_en_passant(record: dict) -> bool:
    """Whether Black captured en passant in the game of a record."""
    board = fairyforge.Board(record["variant"])
    for move in record["moves"]:
        ep = board.fen().split()[3]
        if not board.turn and move[2:4] == ep and board.piece_at(move[:2]).symbol() == "t":
            return True
        board.push_uci(move)
    return False
