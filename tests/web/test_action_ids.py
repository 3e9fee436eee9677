"""The browser client's action ids (web/static/js/socket.js) are 128 random bits, not a
counter a second tab or a reload would restart: with `crypto.randomUUID` (secure contexts)
and without it (plain http), run by Node on the module itself."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

SOCKET_JS = Path(__file__).resolve().parents[2] / "web" / "static" / "js" / "socket.js"

SCRIPT = """
const { newActionId } = await import(process.argv[1]);
const withUuid = Array.from({ length: 2000 }, () => newActionId());
Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
const withoutUuid = Array.from({ length: 2000 }, () => newActionId());
console.log(JSON.stringify({ withUuid, withoutUuid }));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_action_ids_are_random_128_bits() -> None:
    out = subprocess.run(
        ["node", "--input-type=module", "-e", SCRIPT, SOCKET_JS.as_uri()],
        capture_output=True, text=True, check=True, timeout=60,
    )
    ids = json.loads(out.stdout)
    for kind in ("withUuid", "withoutUuid"):
        values = ids[kind]
        assert all(re.fullmatch(r"[0-9a-f]{32}", v) for v in values), values[:3]
        assert len(set(values)) == len(values)
    # Two "tabs" (the two runs) share no id; hex digits are spread (not a counter).
    assert not set(ids["withUuid"]) & set(ids["withoutUuid"])
    digits = "".join(ids["withoutUuid"])
    assert min(digits.count(d) for d in "0123456789abcdef") > len(digits) / 32
