"""Checks that a wasm-bindgen module's table exports are intact: every exported table whose name
says it holds JS values (`__wbindgen_externrefs`) must be an `externref` table.

Why: binaryen's wasm-opt up to version 108 (Debian 12's) rewrites that export to point at the
module's funcref table (binaryen issue #4711, fixed in 110; reported again with other rustc
layouts); the page then fails at start-up with "WebAssembly.Table.grow(): failed to grow table".
scripts/wasm.sh runs this on wasm-opt's output and keeps the unoptimised module if it fails.

Usage: python3 scripts/check_wasm.py FILE.wasm   (exit 0 = intact, 1 = corrupted, 2 = unreadable)
"""

import sys

FUNCREF, EXTERNREF = 0x70, 0x6F
JS_VALUE_TABLES = {"__wbindgen_externrefs"}


class Reader:
    def __init__(self, data: bytes, pos: int = 0, end: int | None = None):
        self.data, self.pos, self.end = data, pos, len(data) if end is None else end

    def byte(self) -> int:
        if self.pos >= self.end:
            raise ValueError("unexpected end of section")
        b = self.data[self.pos]
        self.pos += 1
        return b

    def u32(self) -> int:
        result, shift = 0, 0
        while True:
            b = self.byte()
            result |= (b & 0x7F) << shift
            if b < 0x80:
                return result
            shift += 7

    def name(self) -> str:
        n = self.u32()
        s = self.data[self.pos : self.pos + n].decode("utf-8")
        self.pos += n
        return s

    def limits(self) -> None:
        flags = self.byte()
        self.u32()
        if flags & 1:
            self.u32()


def table_exports(data: bytes) -> list[tuple[str, int]]:
    """(export name, element type) of every exported table."""
    if data[:4] != b"\0asm":
        raise ValueError("not a WebAssembly module")
    top = Reader(data, 8)
    tables: list[int] = []  # element types, imported first, in index order
    exports: list[tuple[str, int]] = []
    while top.pos < top.end:
        section, size = top.byte(), top.u32()
        r = Reader(data, top.pos, top.pos + size)
        top.pos += size
        if section == 2:  # imports
            for _ in range(r.u32()):
                r.name(), r.name()
                kind = r.byte()
                if kind == 0:
                    r.u32()
                elif kind == 1:
                    tables.append(r.byte())
                    r.limits()
                elif kind == 2:
                    r.limits()
                elif kind == 3:
                    r.byte(), r.byte()
                elif kind == 4:
                    r.byte(), r.u32()
                else:
                    raise ValueError(f"unknown import kind {kind}")
        elif section == 4:  # tables
            for _ in range(r.u32()):
                ty = r.byte()
                if ty == 0x40:
                    raise ValueError("tables with initialiser expressions are not supported")
                tables.append(ty)
                r.limits()
        elif section == 7:  # exports
            for _ in range(r.u32()):
                name, kind, index = r.name(), r.byte(), r.u32()
                if kind == 1:
                    exports.append((name, index))
    return [(name, tables[i] if i < len(tables) else -1) for name, i in exports]


def main() -> int:
    path = sys.argv[1]
    try:
        with open(path, "rb") as f:
            exported = table_exports(f.read())
    except (OSError, ValueError, UnicodeDecodeError) as e:
        print(f"{path}: cannot check the table exports: {e}")
        return 2
    bad = [(n, t) for n, t in exported if n in JS_VALUE_TABLES and t != EXTERNREF]
    for name, ty in bad:
        kind = {FUNCREF: "funcref"}.get(ty, f"type 0x{ty:02x}")
        print(f"{path}: table export `{name}` points at a {kind} table, not the externref table")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
