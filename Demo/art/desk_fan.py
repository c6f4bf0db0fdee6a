#!/usr/bin/env python3
"""Draws the demo's desk fan: one SVG layer per part, 600 x 700, seen from the front.

    python3 Demo/art/desk_fan.py      (make demo-art)

The blades turn inside the guards (their tips stay 12 px inside the rear guard's rim), the
motor sits behind the spinner on the stand's yoke, and the speed switch is set into the
base's front.
"""
import math
from pathlib import Path

from svg import write_layers, linear, svg

ROOT = Path(__file__).resolve().parents[2]
PARTS = ROOT / "content/machines/desk-fan/parts"
CX, CY = 300, 250
W, H = 600, 700
PLASTIC = linear("plastic", (0, "#ffffff"), (.6, "#e9e9e6"), (1, "#c9cac6"), x2=1, y2=1)
CHROME = linear("chrome", (0, "#f4f6f8"), (.5, "#a9afb6"), (1, "#e1e4e8"), x2=1, y2=1)


def base():
    body = ('<ellipse cx="300" cy="646" rx="158" ry="34" fill="#b9bab6"/>'
            '<ellipse cx="300" cy="636" rx="158" ry="34" fill="url(#plastic)" stroke="#a3a5a1" stroke-width="1.5"/>'
            '<ellipse cx="300" cy="630" rx="120" ry="20" fill="none" stroke="#ffffff" stroke-width="2" opacity=".7"/>'
            '<ellipse cx="300" cy="624" rx="26" ry="8" fill="#cfd0cc"/>')
    return svg(body, PLASTIC, width=W, height=H, blur=6, dx=0, dy=8, opacity=.35)


def stand():
    body = ('<rect x="288" y="352" width="24" height="276" rx="10" fill="url(#plastic)" stroke="#a3a5a1" stroke-width="1.2"/>'
            '<rect x="282" y="470" width="36" height="22" rx="6" fill="url(#chrome)" stroke="#8d9298"/>'
            '<circle cx="300" cy="481" r="5" fill="#6e737a"/>'
            '<path d="M262 332 Q262 362 300 366 Q338 362 338 332" fill="none" stroke="url(#plastic)" stroke-width="16" stroke-linecap="round"/>'
            '<circle cx="262" cy="332" r="9" fill="url(#chrome)" stroke="#8d9298"/><circle cx="338" cy="332" r="9" fill="url(#chrome)" stroke="#8d9298"/>')
    return svg(body, PLASTIC + CHROME, width=W, height=H, blur=3, dx=2, dy=4)


def motor():
    vents = "".join(f'<path d="M{CX - 40 + i * 10} {CY + 44} V{CY + 66}" stroke="#9a9c98" stroke-width="4" stroke-linecap="round"/>' for i in range(9))
    body = (f'<rect x="{CX - 20}" y="{CY + 40}" width="40" height="56" rx="8" fill="url(#plastic)" stroke="#a3a5a1"/>'
            f'<circle cx="{CX}" cy="{CY}" r="62" fill="url(#plastic)" stroke="#a3a5a1" stroke-width="1.5"/>'
            f'<circle cx="{CX}" cy="{CY}" r="46" fill="#d9dad6" stroke="#b8b9b5"/>{vents}'
            f'<rect x="{CX - 5}" y="{CY - 30}" width="10" height="30" fill="#7d828a"/>')
    return svg(body, PLASTIC, width=W, height=H, blur=4, dx=2, dy=5)


def rear_guard():
    spokes = "".join(f'<path d="M{CX + 58 * math.cos(a):.1f} {CY + 58 * math.sin(a):.1f} L{CX + 160 * math.cos(a):.1f} {CY + 160 * math.sin(a):.1f}" />'
                     for a in (i * math.pi / 18 for i in range(36)))
    body = (f'<g stroke="url(#chrome)" stroke-width="2.2" fill="none">{spokes}'
            f'<circle cx="{CX}" cy="{CY}" r="100"/><circle cx="{CX}" cy="{CY}" r="140"/></g>'
            f'<circle cx="{CX}" cy="{CY}" r="162" fill="none" stroke="url(#chrome)" stroke-width="7"/>'
            f'<circle cx="{CX}" cy="{CY}" r="58" fill="none" stroke="url(#chrome)" stroke-width="4"/>')
    return svg(body, CHROME, width=W, height=H, blur=2.5, dx=2, dy=3, opacity=.35)


def blades():
    blade = (f'M{CX} {CY} C {CX + 30} {CY - 40}, {CX + 120} {CY - 70}, {CX + 146} {CY - 22} '
             f'C {CX + 150} {CY + 8}, {CX + 90} {CY + 20}, {CX} {CY} Z')
    shapes = "".join(f'<path d="{blade}" transform="rotate({a} {CX} {CY})" fill="url(#blade)" stroke="#2f6fa3" stroke-width="1.5"/>'
                     for a in (0, 120, 240))
    body = f'<g opacity=".92">{shapes}</g>'
    return svg(body, linear("blade", (0, "#8ec5f0"), (1, "#3a86c8"), x2=1, y2=1), width=W, height=H, blur=3, dx=2, dy=4)


def spinner():
    body = ('<circle cx="30" cy="30" r="25" fill="url(#cap)" stroke="#1b4f7a" stroke-width="2"/>'
            '<circle cx="30" cy="30" r="9" fill="#e8f1f9" stroke="#1b4f7a"/>'
            '<path d="M18 20 A16 16 0 0 1 34 13" stroke="#ffffff" stroke-width="3" fill="none" stroke-linecap="round" opacity=".6"/>')
    return svg(body, '<radialGradient id="cap" cx=".4" cy=".35" r=".7"><stop offset="0" stop-color="#4f95cf"/>'
               '<stop offset="1" stop-color="#1d5c8f"/></radialGradient>', width=60, height=60, blur=1.5, dx=1, dy=2)


def front_guard():
    rings = "".join(f'<circle cx="{CX}" cy="{CY}" r="{r}"/>' for r in (40, 72, 104, 134))
    wires = "".join(f'<path d="M{CX + 40 * math.cos(a):.1f} {CY + 40 * math.sin(a):.1f} Q{CX + 110 * math.cos(a + .35):.1f} {CY + 110 * math.sin(a + .35):.1f} '
                    f'{CX + 164 * math.cos(a + .2):.1f} {CY + 164 * math.sin(a + .2):.1f}"/>' for a in (i * math.pi / 12 for i in range(24)))
    body = (f'<g stroke="url(#chrome)" stroke-width="2" fill="none">{rings}{wires}</g>'
            f'<circle cx="{CX}" cy="{CY}" r="166" fill="none" stroke="url(#chrome)" stroke-width="9"/>'
            f'<circle cx="{CX}" cy="{CY}" r="24" fill="url(#badge)" stroke="#8d9298" stroke-width="1.5"/>'
            f'<text x="{CX}" y="{CY + 4}" text-anchor="middle" font-family="sans-serif" font-size="11" font-weight="700" fill="#2b5d8a">AERO</text>'
            f'<path d="M{CX - 6} {CY + 166} V{CY + 178}" stroke="#8d9298" stroke-width="6" stroke-linecap="round"/>')
    defs = CHROME + ('<radialGradient id="badge" cx=".4" cy=".35" r=".7"><stop offset="0" stop-color="#ffffff"/>'
                     '<stop offset="1" stop-color="#c4c8cd"/></radialGradient>')
    return svg(body, defs, width=W, height=H, blur=3, dx=2, dy=4)


def switch():
    keys = "".join(f'<rect x="{256 + i * 23}" y="{640 - (6 if i == 1 else 0)}" width="20" height="{16 + (0 if i == 1 else 6)}" rx="3" '
                   f'fill="{"#c0392b" if i == 0 else "url(#key)"}" stroke="#8a8c88" stroke-width="1"/>'
                   f'<text x="{266 + i * 23}" y="{652 - (6 if i == 1 else 0)}" text-anchor="middle" font-family="sans-serif" font-size="9" '
                   f'font-weight="700" fill="{"#ffffff" if i == 0 else "#4a4d52"}">{i}</text>' for i in range(4))
    body = f'<rect x="250" y="634" width="100" height="32" rx="6" fill="#8f918d"/>{keys}'
    return svg(body, linear("key", (0, "#ffffff"), (1, "#d3d4d0")), width=W, height=H, blur=1.5, dx=1, dy=2, opacity=.5)


LAYERS = {"base": base, "stand": stand, "motor": motor, "rear-guard": rear_guard, "blades": blades,
          "spinner": spinner, "front-guard": front_guard, "switch": switch}


def main():
    write_layers(PARTS, LAYERS)


if __name__ == "__main__":
    main()
