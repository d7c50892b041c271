"""Writes tests/golden/rgb_3x2.png: a 3-wide, 2-high 8-bit RGB PNG built here with zlib and struct (not by
kerascpp or its decoder), holding the pixels (r, g, b) = (10*x + 100*y, 7*x + 1, 255 - 40*x - 90*y).
Run with /usr/bin/python3."""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def main():
    w, h = 3, 2
    rows = b""
    for y in range(h):
        rows += b"\x00" + bytes(v for x in range(w) for v in (10 * x + 100 * y, 7 * x + 1, 255 - 40 * x - 90 * y))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")
    with open(os.path.join(HERE, "rgb_3x2.png"), "wb") as f:
        f.write(png)


if __name__ == "__main__":
    main()
