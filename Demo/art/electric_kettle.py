#!/usr/bin/env python3
"""Draws the demo's electric kettle: one SVG layer per part, 500 x 600, seen from the side.

    python3 Demo/art/electric_kettle.py      (make demo-art)

The body is brushed steel with a slot for the water window, which is clear plastic: through
it shows the water, and with the body taken away, the heating element under the floor. The
switch sits where the handle meets the body, and the limescale filter in the spout.
"""
from pathlib import Path

from svg import write_layers, linear, svg

ROOT = Path(__file__).resolve().parents[2]
PARTS = ROOT / "content/machines/electric-kettle/parts"
W, H = 500, 600
STEEL = ('<linearGradient id="steel" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#8e949b"/>'
         '<stop offset=".18" stop-color="#e9ecef"/><stop offset=".45" stop-color="#b4bac1"/><stop offset=".7" stop-color="#dfe3e7"/>'
         '<stop offset="1" stop-color="#7c828a"/></linearGradient>')
BLACK = linear("black", (0, "#3b3e43"), (1, "#131416"), x2=1, y2=1)


def power_base():
    body = ('<path d="M100 548 Q100 534 120 534 H360 Q380 534 380 548 V566 Q380 578 362 578 H118 Q100 578 100 566 Z" fill="url(#black)"/>'
            '<ellipse cx="240" cy="536" rx="118" ry="6" fill="#4a4e54"/>'
            '<circle cx="240" cy="536" r="14" fill="#8a9099" stroke="#2b2e33"/>'
            '<path d="M380 560 C 420 560, 430 590, 470 588" stroke="#1b1c1f" stroke-width="6" fill="none" stroke-linecap="round"/>'
            '<circle cx="356" cy="556" r="3.5" fill="#66bb6a"/>')
    return svg(body, BLACK, width=W, height=H, blur=5, dx=0, dy=6, opacity=.4)


def heating_element():
    body = ('<rect x="136" y="500" width="208" height="24" rx="6" fill="url(#plate)" stroke="#6b7077"/>'
            '<path d="M150 512 Q165 502 180 512 T210 512 T240 512 T270 512 T300 512 T330 512" fill="none" stroke="#e57373" stroke-width="4" stroke-linecap="round"/>'
            '<rect x="226" y="520" width="28" height="12" rx="3" fill="#5f646b"/>')
    return svg(body, linear("plate", (0, "#c7ccd1"), (1, "#8a9099")), width=W, height=H, blur=2, dx=1, dy=2)


def body():
    outline = "M118 176 L134 530 H346 L362 176 Z"
    window = "M150 236 H176 V466 H150 Z"
    shape = (f'<path d="{outline} {window}" fill-rule="evenodd" fill="url(#steel)" stroke="#5d636a" stroke-width="2"/>'
             f'<path d="M118 176 C 96 168, 74 150, 56 146 C 70 166, 92 196, 120 214 Z" fill="url(#steel)" stroke="#5d636a" stroke-width="2"/>'
             f'<rect x="132" y="506" width="216" height="26" fill="url(#black)"/>'
             f'<path d="M118 176 H362" stroke="#f4f6f8" stroke-width="3"/>'
             f'<path d="M210 200 L214 500 M290 200 L286 500" stroke="#ffffff" stroke-width="2" opacity=".35"/>'
             f'<text x="262" y="470" text-anchor="middle" font-family="sans-serif" font-size="11" font-weight="700" fill="#4a4f56" opacity=".7">1.7 L</text>')
    return svg(shape, STEEL + BLACK, width=W, height=H, blur=4, dx=2, dy=5)


def water_window():
    marks = "".join(f'<path d="M{153} {y} H{165}" stroke="#2e4053" stroke-width="1.5"/>'
                    f'<text x="181" y="{y + 3}" font-family="sans-serif" font-size="8" fill="#2e4053">{label}</text>'
                    for y, label in [(262, "1.7"), (320, "1.2"), (380, "0.8"), (440, "0.5")])
    shape = ('<rect x="148" y="232" width="30" height="238" rx="8" fill="#d6ecfb" fill-opacity=".28" stroke="#5d6d7e" stroke-width="2"/>'
             '<rect x="150" y="350" width="26" height="118" rx="6" fill="#4f9fd8" fill-opacity=".42"/>'
             '<path d="M150 350 H176" stroke="#ffffff" stroke-width="2" opacity=".8"/>'
             '<path d="M154 240 V462" stroke="#ffffff" stroke-width="3" opacity=".45" stroke-linecap="round"/>' + marks)
    return svg(shape, width=W, height=H, shadowed=False)


def handle():
    shape = ('<path d="M360 188 C 440 184, 470 228, 466 330 C 462 420, 430 468, 352 474" fill="none" stroke="url(#black)" stroke-width="34" stroke-linecap="round"/>'
             '<path d="M372 190 C 430 192, 452 232, 448 330" fill="none" stroke="#5a5f66" stroke-width="4" stroke-linecap="round" opacity=".7"/>')
    return svg(shape, BLACK, width=W, height=H, blur=4, dx=3, dy=5)


def lid():
    shape = ('<path d="M122 178 Q240 112 358 178 Z" fill="url(#black)" stroke="#0d0e10" stroke-width="2"/>'
             '<rect x="334" y="168" width="30" height="14" rx="4" fill="#2b2e33"/>'
             '<rect x="216" y="120" width="48" height="18" rx="8" fill="url(#button)" stroke="#0d0e10"/>'
             '<path d="M150 166 Q240 124 330 166" fill="none" stroke="#6b7077" stroke-width="2" opacity=".6"/>')
    return svg(shape, BLACK + linear("button", (0, "#a9aeb4"), (1, "#5d636a")), width=W, height=H, blur=3, dx=2, dy=4)


def switch():
    shape = ('<rect x="352" y="452" width="38" height="30" rx="7" fill="url(#rocker)" stroke="#6d1712" stroke-width="1.5"/>'
             '<path d="M360 460 H382" stroke="#ffffff" stroke-width="2" opacity=".6" stroke-linecap="round"/>'
             '<text x="371" y="476" text-anchor="middle" font-family="sans-serif" font-size="9" font-weight="700" fill="#fde3e0">I/O</text>')
    return svg(shape, linear("rocker", (0, "#e4574a"), (1, "#a3261b")), width=W, height=H, blur=1.5, dx=1, dy=2, opacity=.5)


def limescale_filter():
    mesh = "".join(f'<path d="M{22 + i * 6} 14 L{16 + i * 6} 70" />' for i in range(10))
    mesh += "".join(f'<path d="M14 {18 + j * 7} H{76 - j * 2}" />' for j in range(8))
    shape = ('<clipPath id="cut"><path d="M20 10 L78 22 L70 68 L14 72 Z"/></clipPath>'
             '<path d="M20 10 L78 22 L70 68 L14 72 Z" fill="#eef3f7" fill-opacity=".35"/>'
             f'<g clip-path="url(#cut)" stroke="#5d6d7e" stroke-width="1" fill="none">{mesh}</g>'
             '<path d="M20 10 L78 22 L70 68 L14 72 Z" fill="none" stroke="#44525f" stroke-width="3" stroke-linejoin="round"/>')
    return svg(shape, width=90, height=80, blur=1.5, dx=1, dy=2)


LAYERS = {"power-base": power_base, "heating-element": heating_element, "body": body, "water-window": water_window,
          "handle": handle, "lid": lid, "switch": switch, "limescale-filter": limescale_filter}


def main():
    write_layers(PARTS, LAYERS)


if __name__ == "__main__":
    main()
