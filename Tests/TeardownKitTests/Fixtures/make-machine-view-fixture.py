#!/usr/bin/env python3
"""Writes the machine view fixture's images (standard library only).

The committed files are what the tests read; run this only to change them. The machine is
400 x 300: a plate at the bottom, a core above it, and on top a frame whose middle is a
transparent hole through which the core shows. The hole's left edge (x = 150) falls inside
one cell of the build's coarse hit mask, so a click at x = 151 tells a pixel-accurate hit
test (the core) from a cell-accurate one (the frame).
"""
import os
import struct
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
MACHINE = os.path.join(HERE, "sites", "machine-view", "content", "machines", "press")
WIDTH, HEIGHT = 400, 300


def png(path, width, height, pixel):
    """An RGBA PNG whose pixel (x, y) is pixel(x, y) -> (r, g, b, a)."""
    rows = b"".join(b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    with open(path, "wb") as handle:
        handle.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9))
                     + chunk(b"IEND", b""))


def inside(x, y, left, top, right, bottom):
    return left <= x < right and top <= y < bottom


def layer(name, colour, shape):
    os.makedirs(os.path.join(MACHINE, "parts", name), exist_ok=True)
    png(os.path.join(MACHINE, "parts", name, f"{name}.png"), WIDTH, HEIGHT,
        lambda x, y: colour + (255,) if shape(x, y) else (0, 0, 0, 0))


layer("plate", (90, 96, 104), lambda x, y: inside(x, y, 20, 220, 380, 280))
layer("core", (214, 140, 40), lambda x, y: inside(x, y, 120, 60, 280, 190))
layer("frame", (40, 90, 160), lambda x, y: inside(x, y, 100, 40, 300, 210) and not inside(x, y, 150, 80, 250, 170))
os.makedirs(os.path.join(MACHINE, "parts", "core", "photos"), exist_ok=True)
png(os.path.join(MACHINE, "parts", "core", "photos", "bench.png"), 160, 120,
    lambda x, y: (200, 60, 40, 255) if x < 80 else (240, 220, 200, 255))
