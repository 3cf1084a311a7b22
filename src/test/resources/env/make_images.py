"""Writes the tiny PNG fixtures used by the image benchmark tests (solid colour squares, no PIL needed)."""
import struct
import sys
import zlib


def png(path, rgb, size=4):
    raw = b"".join(b"\x00" + bytes(rgb) * size for _ in range(size))
    def chunk(tag, data):
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


out = sys.argv[1] if len(sys.argv) > 1 else "images"
for i, rgb in enumerate([(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (0, 255, 255), (255, 0, 255)]):
    png("%s/page%d.png" % (out, i), rgb)
