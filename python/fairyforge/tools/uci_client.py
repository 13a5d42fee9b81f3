"""A small UCI client for matches against external engines.

It speaks only what a referee needs (``uci``, ``setoption``, ``isready``,
``ucinewgame``, ``position``, ``go``, ``stop``, ``quit``) and leaves move
legality to :class:`fairyforge.Board`, so it works for every variant an
engine knows, unlike clients that validate moves with their own chess
rules. The engine's output is read by a thread that stamps every line with
the time it arrived, so the time an engine took is measured when its
``bestmove`` line came, not when the referee got round to reading it.

>>> import shutil
>>> path = shutil.which("stockfish", path="/usr/games:/usr/bin")
>>> if path:
...     with UciEngine(path, {"Hash": "8"}) as engine:
...         reply = engine.go("position startpos moves e2e4", "go depth 3", timeout=10)
...         assert reply.move is not None and reply.depth == 3
"""

from __future__ import annotations

import collections
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

#: Seconds an engine gets to answer ``uci`` and ``isready``.
START_TIMEOUT = 10.0


class EngineError(Exception):
    """An external engine failed."""


class EngineStartError(EngineError, ValueError):
    """An engine that cannot be started, does not speak UCI, or lacks an
    option it was given: a setting to correct, reported before any game."""


class EngineCrashed(EngineError):
    """The engine's process ended, or stopped reading its input."""


class EngineTimeout(EngineError):
    """The engine gave no answer in time."""


@dataclass(frozen=True)
class Option:
    """An option the engine declared: its name as written, type and default."""

    name: str
    type: str
    default: str | None = None
    min: int | None = None
    max: int | None = None


@dataclass(frozen=True)
class Reply:
    """An engine's answer to ``go``: the move text (None for ``bestmove
    (none)`` or a malformed line), seconds from sending ``go`` to the
    ``bestmove`` line, and the last reported depth, score (``"cp 25"``,
    ``"mate -3"``, from the mover's point of view) and node count."""

    move: str | None
    elapsed: float
    depth: int | None = None
    score: str | None = None
    nodes: int | None = None


def parse_option(line: str) -> Option | None:
    """An :class:`Option` from an ``option name ... type ...`` line."""
    words = line.split()
    if len(words) < 5 or words[:2] != ["option", "name"] or "type" not in words[3:]:
        return None
    at = words.index("type", 3)
    fields: dict[str, str] = {}
    key = None
    for word in words[at:]:
        if word in ("type", "default", "min", "max", "var"):
            key = word
            fields.setdefault(key, "")
        elif key is not None:
            fields[key] = f"{fields[key]} {word}".strip()

    def number(text: str | None) -> int | None:
        try:
            return int(text) if text is not None else None
        except ValueError:
            return None

    return Option(
        " ".join(words[2:at]),
        fields.get("type", ""),
        fields.get("default"),
        number(fields.get("min")),
        number(fields.get("max")),
    )


def _info_fields(line: str) -> tuple[int | None, str | None, int | None]:
    """Depth, score and nodes of an ``info`` line of the first MultiPV line."""
    words = line.split()
    depth = nodes = score = None
    for i, word in enumerate(words[:-1]):
        if word == "multipv" and words[i + 1] != "1":
            return None, None, None
        if word == "depth" and words[i + 1].isdigit():
            depth = int(words[i + 1])
        if word == "nodes" and words[i + 1].isdigit():
            nodes = int(words[i + 1])
        if word == "score" and i + 2 < len(words) and words[i + 1] in ("cp", "mate"):
            score = f"{words[i + 1]} {words[i + 2]}"
        if word in ("pv", "string"):
            break
    return depth, score, nodes


class UciEngine:
    """An external UCI engine in a subprocess.

    ``command`` is split like a shell line (a path, or a path and its
    arguments); ``options`` are sent as ``setoption`` in their order (so
    ``VariantPath`` can come before ``UCI_Variant``) and must be options
    the engine declares, checked for type (spin range, check values).
    Raises :class:`EngineStartError` when any of this fails.
    """

    def __init__(
        self,
        command: str | Sequence[str],
        options: Mapping[str, str] | Iterable[tuple[str, str]] = (),
        *,
        timeout: float = START_TIMEOUT,
    ):
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        if not self.command:
            raise EngineStartError("empty engine command")
        self.label = shlex.join(self.command)
        try:
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
            )
        except OSError as e:
            raise EngineStartError(f"engine {self.label!r} cannot be started: {e}") from None
        self._lines: queue.Queue[tuple[float, str | None]] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=10)
        self._readers = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for reader in self._readers:
            reader.start()
        self.name = self.label
        self.options: dict[str, Option] = {}
        try:
            self._handshake(timeout)
            self.configure(dict(options), timeout)
        except EngineError as e:
            self.close()
            if isinstance(e, EngineStartError):
                raise
            raise EngineStartError(
                f"engine {self.label!r} did not start as a UCI engine: {e}"
            ) from None

    def _read_stdout(self) -> None:
        assert self.process.stdout is not None
        try:
            for line in self.process.stdout:
                self._lines.put((time.monotonic(), line.rstrip("\r\n")))
        except (OSError, ValueError):  # closed by close() while reading
            pass
        self._lines.put((time.monotonic(), None))

    def _read_stderr(self) -> None:
        assert self.process.stderr is not None
        try:
            for line in self.process.stderr:
                self._stderr.append(line.rstrip())
        except (OSError, ValueError):
            pass

    def _handshake(self, timeout: float) -> None:
        self.send("uci")
        deadline = time.monotonic() + timeout
        while True:
            _, line = self._next(deadline, "uciok")
            if line == "uciok":
                return
            if line.startswith("id name "):
                self.name = line[len("id name ") :].strip() or self.label
            option = parse_option(line)
            if option is not None:
                self.options[option.name.lower()] = option

    def configure(self, options: Mapping[str, str], timeout: float = START_TIMEOUT) -> None:
        """Send ``setoption`` for each option (in order), then wait until
        the engine is ready."""
        for name, value in options.items():
            option = self.options.get(name.lower())
            if option is None:
                known = ", ".join(sorted(o.name for o in self.options.values())) or "none"
                raise EngineStartError(
                    f"engine {self.name!r} has no option {name!r} (its options: {known})"
                )
            self.send(self._setoption(option, str(value)))
        self.isready(timeout)

    def _setoption(self, option: Option, value: str) -> str:
        bad = f"invalid value {value!r} for option {option.name!r} of engine {self.name!r}"
        if option.type == "button":
            return f"setoption name {option.name}"
        if option.type == "check" and value.lower() not in ("true", "false"):
            raise EngineStartError(f"{bad}: expected true or false")
        if option.type == "spin":
            try:
                number = int(value)
            except ValueError:
                raise EngineStartError(f"{bad}: expected an integer") from None
            low = option.min if option.min is not None else number
            high = option.max if option.max is not None else number
            if not low <= number <= high:
                raise EngineStartError(f"{bad}: expected {low} to {high}")
        return f"setoption name {option.name} value {value}"

    def send(self, line: str) -> None:
        """Write one command line."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineCrashed(self._ended()) from None

    def _ended(self) -> str:
        code = self.process.poll()
        if code is None:
            try:
                code = self.process.wait(0.5)
            except subprocess.TimeoutExpired:
                return f"engine {self.name!r} stopped reading its input"
        self._readers[1].join(0.5)  # the last words on standard error
        tail = "; ".join(self._stderr)
        return f"engine {self.name!r} exited with code {code}" + (f" ({tail})" if tail else "")

    def _next(self, deadline: float, waiting_for: str) -> tuple[float, str]:
        try:
            stamp, line = self._lines.get(timeout=max(deadline - time.monotonic(), 0))
        except queue.Empty:
            raise EngineTimeout(f"engine {self.name!r} sent no {waiting_for} in time") from None
        if line is None:
            raise EngineCrashed(self._ended())
        return stamp, line

    def isready(self, timeout: float = START_TIMEOUT) -> None:
        """``isready``, skipping every line until ``readyok``."""
        self.send("isready")
        deadline = time.monotonic() + timeout
        while self._next(deadline, "readyok")[1] != "readyok":
            pass

    def new_game(self) -> None:
        """``ucinewgame``, then wait until the engine is ready."""
        self.send("ucinewgame")
        self.isready()

    def go(self, position: str, go: str, *, timeout: float) -> Reply:
        """Send a ``position`` and a ``go`` command and wait for ``bestmove``.
        After ``timeout`` seconds the engine is told to stop and
        :class:`EngineTimeout` is raised (the engine is then in an unknown
        state: close it)."""
        self.send(position)
        self.send(go)
        start = time.monotonic()
        deadline = start + timeout
        depth = nodes = score = None
        while True:
            try:
                stamp, line = self._next(deadline, "bestmove")
            except EngineTimeout:
                self.send("stop")
                raise
            if line.startswith("info "):
                d, s, n = _info_fields(line)
                depth, score, nodes = d or depth, s or score, n or nodes
            elif line.startswith("bestmove"):
                words = line.split()
                move = words[1] if len(words) > 1 and words[1] != "(none)" else None
                return Reply(move, stamp - start, depth, score, nodes)

    def close(self, timeout: float = 1.0) -> None:
        """``quit``, then end the process if it does not exit within
        ``timeout`` seconds."""
        if self.process.poll() is None:
            try:
                self.send("quit")
            except EngineCrashed:
                pass
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for reader in self._readers:
            reader.join(1.0)
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass

    def __enter__(self) -> UciEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
