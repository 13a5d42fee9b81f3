"""The README's Python and command-line examples run as written."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

from fairyforge.tools import cli

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def test_python_examples_run_and_print_what_the_comments_say():
    code = "\n".join(blocks("python"))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    printed = out.getvalue().splitlines()
    expected = [
        re.sub(r" \(.*\)$", "", line.split("# -> ", 1)[1].strip())
        for line in code.splitlines()
        if "# -> " in line
    ]
    assert len(expected) >= 4
    for want in expected:
        assert any(want in got for got in printed), (want, printed)


def test_cli_examples_run(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    commands = [
        line.split("#")[0].strip()
        for block in blocks("console")
        for line in block.splitlines()
        if line.startswith("fairyforge ")
    ]
    assert len(commands) >= 3
    for command in commands:
        assert cli.main(shlex.split(command)[1:]) == 0, command
    capsys.readouterr()
