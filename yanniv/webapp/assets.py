"""Content-hashed static URLs without a build step: the browser keeps every script, style and
dictionary for a year and never asks again, yet sees a change the moment it is made.

The client stays plain ES modules importing each other by relative path (`./i18n.js`). At
start `StaticAssets` reads every file of `web/static` and names it by a hash of its bytes
(`js/room.js` → `/static/js/room.<hash>.js`); each page then carries, in `base.html`:

- an import map sending every module of the folder to its hashed URL (one loaded later by
  `import()` too): a relative import resolves to `/static/js/i18n.js`, which the map turns into
  `/static/js/i18n.<hash>.js`, so a changed module changes only its own URL (the modules
  importing it keep theirs, and their hashes);
- a `<link rel="modulepreload">` per module of the page's graph (its `entry_module` and all it
  imports), read from the files' own `import` statements (never a hand-kept list), so the
  browser fetches it all at once instead of discovering the imports level by level;
- the stylesheet and the translation dictionary under hashed URLs too.

A hashed URL is answered from the bytes that were hashed, with
`Cache-Control: public, max-age=31536000, immutable`; a hash that is not the file's current
one is a 404 (never other bytes under that name). The plain paths keep working with
`no-cache` (revalidated by ETag), for a browser without import maps and for tools. A file
edited while the server runs is seen at the next page: each lookup compares the file's size
and modification time with what was hashed and hashes it again when they differ.
"""

from __future__ import annotations

import hashlib
import mimetypes
import os
import re
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from fastapi import HTTPException
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from jinja2 import pass_context
from starlette.types import Scope

#: Hex digits of the content hash in a URL (48 bits: no two versions of a file collide).
HASH_LEN = 12
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"

# The static imports of an ES module: `import … from '…'`, `export … from '…'`, `import '…'`
# (at a line start, so a commented-out import does not count; the browser test checks the
# graph against what Chromium really fetches).
_FROM = re.compile(r"""^[ \t]*(?:import|export)\b[^;'"`]*?\bfrom[ \t]*(['"])(?P<spec>[^'"]+)\1""",
                   re.MULTILINE)
_BARE = re.compile(r"""^[ \t]*import[ \t]*(['"])(?P<spec>[^'"]+)\1""", re.MULTILINE)
_HASHED = re.compile(rf"^(?P<stem>.+)\.(?P<digest>[0-9a-f]{{{HASH_LEN}}})(?P<ext>\.[^./]+)$")


def digest_of(data: bytes) -> str:
    """The hash that names `data` in URLs."""
    return hashlib.sha256(data).hexdigest()[:HASH_LEN]


def hashed_name(path: str, digest: str) -> str:
    """`js/room.js` → `js/room.<digest>.js` (the extension stays last, for its media type)."""
    pure = PurePosixPath(path)
    return str(pure.with_name(f"{pure.stem}.{digest}{pure.suffix}"))


@dataclass(frozen=True)
class Asset:
    """One file of the static folder as it was hashed."""

    path: str  # relative to the folder, with forward slashes: "js/table/hand.js"
    file: str  # its absolute path
    data: bytes
    digest: str
    stamp: tuple[int, int]  # (size, mtime_ns) when read
    imports: tuple[str, ...]  # the paths of the modules it imports (JS only)
    url: str  # its hashed URL


class StaticAssets:
    """The static folder's files by path, each with its hash, its URL and (for a module) its
    imports."""

    def __init__(self, directory: Path, prefix: str = "/static") -> None:
        self.directory = directory.resolve()
        self.prefix = prefix.rstrip("/")
        self._assets: dict[str, Asset] = {}
        for file in sorted(self.directory.rglob("*")):
            if file.is_file():
                self.get(file.relative_to(self.directory).as_posix())

    def get(self, path: str) -> Asset:
        """The asset at `path`, hashed again if the file changed since; KeyError if there is
        no such file in the folder. A known path costs one `stat` (a page looks up ~50)."""
        known = self._assets.get(path)
        if known is not None:
            file = known.file
        else:
            resolved = (self.directory / path).resolve()
            if not resolved.is_relative_to(self.directory) or not resolved.is_file():
                raise KeyError(path)
            file = str(resolved)
        try:
            info = os.stat(file)
        except FileNotFoundError:
            self._assets.pop(path, None)
            raise KeyError(path) from None
        stamp = (info.st_size, info.st_mtime_ns)
        if known is not None and known.stamp == stamp:
            return known
        with open(file, "rb") as handle:
            data = handle.read()
        imports = self._imports_of(path, data) if path.endswith(".js") else ()
        digest = digest_of(data)
        url = f"{self.prefix}/{hashed_name(path, digest)}"
        asset = Asset(path, file, data, digest, stamp, imports, url)
        self._assets[path] = asset
        return asset

    def _imports_of(self, path: str, data: bytes) -> tuple[str, ...]:
        text = data.decode("utf-8")
        found: list[str] = []
        for match in (*_FROM.finditer(text), *_BARE.finditer(text)):
            target = self._resolve(path, match["spec"])
            if target not in found:
                found.append(target)
        return tuple(found)

    def _resolve(self, importer: str, spec: str) -> str:
        """The folder path an import specifier of `importer` names."""
        if spec.startswith(self.prefix + "/"):
            joined = PurePosixPath(spec[len(self.prefix) + 1:])
        elif spec.startswith(("./", "../")):
            joined = PurePosixPath(importer).parent / spec
        else:
            raise ValueError(f"{importer}: import {spec!r} is not relative nor under {self.prefix}")
        parts: list[str] = []
        for part in joined.parts:
            if part == "..":
                if not parts:
                    raise ValueError(f"{importer}: import {spec!r} leaves the static folder")
                parts.pop()
            elif part != ".":
                parts.append(part)
        return "/".join(parts)

    def url(self, path: str) -> str:
        """The hashed URL of `path` ("/static/js/room.<hash>.js")."""
        return self.get(path).url

    def plain_url(self, path: str) -> str:
        """The URL a relative import of `path` resolves to before the import map."""
        return f"{self.prefix}/{path}"

    def modules(self) -> list[str]:
        """The paths of the folder's ES modules: those read at start or imported since."""
        return sorted(path for path in list(self._assets) if path.endswith(".js"))

    def graph(self, entry: str) -> list[str]:
        """Every module `entry` loads, itself first, then its imports depth first."""
        order: list[str] = []
        stack = [entry]
        while stack:
            path = stack.pop()
            if path in order:
                continue
            try:
                asset = self.get(path)
            except KeyError:
                raise ValueError(f"a module imports {path!r}, not in the static folder") from None
            order.append(path)
            stack.extend(reversed(asset.imports))
        return order

    def original(self, hashed: str) -> Asset | None:
        """The asset a hashed path names, if that hash is the file's current one."""
        match = _HASHED.match(hashed)
        if match is None:
            return None
        try:
            asset = self.get(match["stem"] + match["ext"])
        except KeyError:
            return None
        return asset if asset.digest == match["digest"] else None

    def is_stale(self, hashed: str) -> bool:
        """Whether `hashed` names a file of the folder under another hash than its current one."""
        match = _HASHED.match(hashed)
        if match is None or (self.directory / hashed).is_file():
            return False
        try:
            return self.get(match["stem"] + match["ext"]).digest != match["digest"]
        except KeyError:
            return False


class HashedStaticFiles(StaticFiles):
    """`StaticFiles` that answers hashed paths from `StaticAssets` (immutable) and plain ones
    from the folder (`no-cache`: kept, and revalidated by ETag)."""

    def __init__(self, assets: StaticAssets) -> None:
        super().__init__(directory=str(assets.directory))
        self.assets = assets

    async def get_response(self, path: str, scope: Scope) -> Response:
        if scope["method"] in ("GET", "HEAD"):
            name = PurePosixPath(path).as_posix()
            asset = self.assets.original(name)
            if asset is not None:
                return immutable_response(asset.data, asset.path, asset.digest, scope)
            if self.assets.is_stale(name):
                raise HTTPException(status_code=404)  # an old hash: never other bytes under it
        return await super().get_response(path, scope)

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = REVALIDATE
        return response


def immutable_response(data: bytes, name: str, digest: str, scope: Scope) -> Response:
    """`data` under a hashed URL: cached for a year, never revalidated (304 if asked)."""
    etag = f'"{digest}"'
    headers = {"Cache-Control": IMMUTABLE, "ETag": etag}
    asked = dict(scope.get("headers") or []).get(b"if-none-match", b"").decode("latin-1")
    if etag in [tag.strip().removeprefix("W/") for tag in asked.split(",")]:
        return Response(status_code=304, headers=headers)
    media_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
    if media_type.startswith("text/") or media_type == "application/javascript":
        media_type += "; charset=utf-8"
    return Response(data, media_type=media_type, headers=headers)


def _of(ctx: Any) -> StaticAssets:
    assets: StaticAssets = ctx["request"].app.state.static_assets
    return assets


@pass_context
def static_url(ctx: Any, path: str) -> str:
    """Jinja global: the hashed URL of a static file ("css/app.css")."""
    return _of(ctx).url(path)


@pass_context
def module_graph(ctx: Any, entry: str) -> list[str]:
    """Jinja global: the paths of every module the page's `entry` loads (to preload)."""
    return _of(ctx).graph(entry)


@pass_context
def import_map(ctx: Any) -> dict[str, dict[str, str]]:
    """Jinja global: the import map sending each module of the folder to its hashed URL."""
    assets = _of(ctx)
    imports = {}
    for path in assets.modules():
        with suppress(KeyError):  # removed since
            imports[assets.plain_url(path)] = assets.url(path)
    return {"imports": imports}


def install(env: Any) -> None:
    """Add `static_url`, `module_graph` and `import_map` to a Jinja environment."""
    env.globals["static_url"] = static_url
    env.globals["module_graph"] = module_graph
    env.globals["import_map"] = import_map
