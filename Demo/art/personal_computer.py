#!/usr/bin/env python3
"""Draws the demo's personal computer: one SVG layer per part, 800 x 600, seen through the
case's open side with the rear on the left and the front on the right.

    python3 Demo/art/personal_computer.py      (make demo-art)

Parts are drawn where they sit in a real mid tower: the power supply at the top rear, the
board on its tray with the processor under its cooler, the cards in their slots, the drives
in the cage at the front, the cables from the supply to what it feeds, and the glass side
panel over all of it. Every part casts a soft shadow on what lies below it; the glass is
see-through, tinted and lit at one corner. The layers are written into the bundle's part
folders; part.yaml and description.md are written by hand.
"""
from pathlib import Path

from svg import write_layers, SCREW, linear, screw, svg

ROOT = Path(__file__).resolve().parents[2]
PARTS = ROOT / "content/machines/personal-computer/parts"


def case():
    holes = "".join(f'<circle cx="{x}" cy="{y}" r="3" fill="#8e939a" stroke="#50545a"/>'
                    for x, y in [(196, 182), (448, 182), (196, 346), (448, 346), (196, 508), (448, 508)])
    slots = "".join(f'<rect x="160" y="{348 + i * 20}" width="12" height="16" rx="1" fill="url(#slot)" stroke="#3b3e43" stroke-width=".8"/>'
                    f'<rect x="163" y="{351 + i * 20}" width="6" height="10" fill="#2a2d31"/>' for i in range(7))
    grommets = "".join(f'<rect x="466" y="{y}" width="10" height="54" rx="5" fill="#1c1e21" stroke="#0d0e10" stroke-width="2"/>'
                       for y in (190, 290, 420))
    vents = "".join(f'<rect x="{176 + i * 12}" y="38" width="7" height="5" rx="1.5" fill="#1b1d20"/>' for i in range(38))
    feet = "".join(f'<rect x="{x}" y="584" width="46" height="9" rx="3" fill="#161719"/>' for x in (168, 586))
    body = (f'<rect x="140" y="30" width="520" height="556" rx="9" fill="url(#shell)" stroke="#1b1d20" stroke-width="2"/>'
            f'<rect x="158" y="48" width="484" height="520" rx="3" fill="url(#tray)"/>'
            f'<rect x="158" y="48" width="484" height="520" rx="3" fill="none" stroke="#2e3135" stroke-width="2"/>'
            f'{vents}{holes}{slots}{grommets}{feet}'
            f'<path d="M158 48 L642 48" stroke="#aab0b7" stroke-width="1.5" opacity=".6"/>')
    defs = (linear("shell", (0, "#4a4f56"), (.5, "#33373c"), (1, "#24272b"), x2=1, y2=1)
            + linear("tray", (0, "#80868d"), (1, "#5d6268"), x2=.3, y2=1)
            + linear("slot", (0, "#9aa0a7"), (1, "#6c7178"), x2=1, y2=0))
    return svg(body, defs, blur=5, dx=3, dy=6, opacity=.35)


def front_bezel():
    mesh = "".join(f'<circle cx="{666 + (j % 2) * 7 + i * 0}" cy="{120 + j * 8}" r="1.6" fill="#0b0c0d"/>'
                   f'<circle cx="{680 - (j % 2) * 7}" cy="{120 + j * 8}" r="1.6" fill="#0b0c0d"/>' for i in range(1) for j in range(56))
    body = (f'<path d="M656 24 H678 Q690 24 690 36 V580 Q690 592 678 592 H656 Z" fill="url(#bezel)" stroke="#0e0f11" stroke-width="1.5"/>'
            f'{mesh}'
            f'<rect x="662" y="84" width="9" height="5" rx="1" fill="#0a0a0b" stroke="#3b3f45"/>'
            f'<rect x="675" y="84" width="9" height="5" rx="1" fill="#0a0a0b" stroke="#3b3f45"/>'
            f'<circle cx="666" cy="100" r="2.6" fill="#0a0a0b" stroke="#5a5f66"/>'
            f'<circle cx="680" cy="100" r="2.6" fill="#0a0a0b" stroke="#5a5f66"/>'
            f'<path d="M658 28 V588" stroke="#5a5f66" stroke-width="1" opacity=".6"/>')
    return svg(body, linear("bezel", (0, "#2c2f33"), (1, "#141517"), x2=1, y2=0), blur=3, dx=2, dy=3)


def power_button():
    body = ('<circle cx="673" cy="56" r="10" fill="url(#button)" stroke="#0c0d0e" stroke-width="1.5"/>'
            '<circle cx="673" cy="56" r="6.5" fill="none" stroke="#54b4ff" stroke-width="1.6" opacity=".95"/>'
            '<path d="M673 50.5 V56" stroke="#54b4ff" stroke-width="1.6" stroke-linecap="round"/>')
    return svg(body, '<radialGradient id="button" cx=".4" cy=".35" r=".7"><stop offset="0" stop-color="#4a4e54"/>'
               '<stop offset="1" stop-color="#121315"/></radialGradient>', blur=1.5, dx=1, dy=1.5, opacity=.5)


def power_supply():
    vents = "".join(f'<rect x="{176 + i * 9}" y="66" width="4" height="84" rx="2" fill="#16181a"/>' for i in range(6))
    body = (f'<rect x="166" y="56" width="176" height="104" rx="4" fill="url(#psu)" stroke="#101113" stroke-width="1.5"/>'
            f'{vents}'
            f'<rect x="236" y="68" width="94" height="58" rx="2" fill="url(#label)" stroke="#8c8f93" stroke-width=".6"/>'
            f'<text x="244" y="86" font-family="sans-serif" font-size="12" font-weight="700" fill="#1f2226">550 W</text>'
            f'<text x="244" y="99" font-family="sans-serif" font-size="6.5" fill="#3b3f44">AC 230 V 4 A 50 Hz</text>'
            f'<text x="244" y="108" font-family="sans-serif" font-size="6.5" fill="#3b3f44">+12 V 38 A  +5 V 20 A</text>'
            f'<text x="244" y="117" font-family="sans-serif" font-size="6.5" fill="#3b3f44">80 PLUS Bronze</text>'
            f'<rect x="236" y="132" width="94" height="20" rx="2" fill="#22252a"/>'
            + "".join(f'<rect x="{242 + i * 15}" y="137" width="10" height="10" rx="1.5" fill="#0c0d0e" stroke="#4a4e54" stroke-width=".6"/>' for i in range(6))
            + screw(172, 62, 2.6) + screw(336, 62, 2.6) + screw(172, 154, 2.6) + screw(336, 154, 2.6))
    defs = (linear("psu", (0, "#3b3f45"), (1, "#26292d")) + linear("label", (0, "#f4f1e6"), (1, "#dcd8ca")) + SCREW)
    return svg(body, defs)


def motherboard():
    traces = "".join(f'<path d="M{200 + i * 9} 508 V{470 - i * 3} L{214 + i * 9} {456 - i * 3} H{300 + i * 4}" stroke="#3f8f57" stroke-width="1" fill="none" opacity=".7"/>'
                     for i in range(8))
    traces += "".join(f'<path d="M352 {212 + i * 8} H{380 + i * 2} L{388 + i * 2} {204 + i * 8} H394" stroke="#3f8f57" stroke-width="1" fill="none" opacity=".7"/>'
                      for i in range(9))
    dimms = "".join(f'<rect x="{392 + i * 11}" y="184" width="8" height="152" rx="1" fill="{"#1d3f9e" if i % 2 == 0 else "#1a1b1d"}"/>'
                    f'<rect x="{393 + i * 11}" y="180" width="6" height="6" fill="#e8e8e8"/><rect x="{393 + i * 11}" y="334" width="6" height="6" fill="#e8e8e8"/>'
                    for i in range(4))
    vrm = "".join(f'<rect x="{272 + i * 10}" y="190" width="7" height="12" rx="1" fill="#2b2e33" stroke="#14161a" stroke-width=".6"/>' for i in range(8))
    caps = "".join(f'<circle cx="{256}" cy="{220 + i * 14}" r="5" fill="url(#cap)" stroke="#0e0f11" stroke-width=".8"/>' for i in range(5))
    pcie = (f'<rect x="196" y="372" width="228" height="9" rx="1.5" fill="#1a1b1d"/><rect x="196" y="374" width="228" height="5" fill="#0b0b0c"/>'
            f'<rect x="196" y="444" width="78" height="8" rx="1.5" fill="#1a1b1d"/>'
            f'<rect x="196" y="492" width="228" height="9" rx="1.5" fill="#1a1b1d"/>')
    sata = "".join(f'<rect x="446" y="{398 + i * 12}" width="12" height="9" rx="1" fill="#23262b" stroke="#0b0c0d" stroke-width=".6"/>' for i in range(4))
    body = (f'<rect x="184" y="170" width="278" height="352" rx="4" fill="url(#pcb)" stroke="#10321c" stroke-width="2"/>'
            f'{traces}'
            f'<rect x="270" y="208" width="80" height="80" rx="3" fill="#d9d4c3" stroke="#8f8a78" stroke-width="1.2"/>'
            f'<rect x="278" y="216" width="64" height="64" fill="#b9b19a"/>'
            + "".join(f'<circle cx="{282 + (k % 15) * 4.1}" cy="{220 + (k // 15) * 4.1}" r=".9" fill="#9c8a4e"/>' for k in range(225))
            + f'<path d="M352 212 V284" stroke="#c7cbd0" stroke-width="2.4" stroke-linecap="round"/>'
            f'{vrm}{caps}{dimms}{pcie}{sata}'
            f'<rect x="444" y="238" width="14" height="84" rx="1.5" fill="#ece9e1" stroke="#8a877e" stroke-width=".8"/>'
            + "".join(f'<rect x="447" y="{241 + i * 6.6}" width="8" height="4.4" fill="#2c2e31"/>' for i in range(12))
            + f'<rect x="212" y="176" width="30" height="12" rx="1.5" fill="#ece9e1" stroke="#8a877e" stroke-width=".8"/>'
            f'<rect x="330" y="428" width="64" height="50" rx="2" fill="#2a2d31"/>'
            f'<circle cx="424" cy="486" r="14" fill="#171819"/>'
            f'<rect x="190" y="184" width="14" height="150" fill="#3b3f45" opacity=".7"/>'
            f'<text x="300" y="515" font-family="sans-serif" font-size="8" fill="#d8e6da" opacity=".85">TD-Z77 ATX rev 1.1</text>'
            + "".join(f'<circle cx="{x}" cy="{y}" r="4" fill="#c9cdd2" stroke="#7b8086"/>' for x, y in [(196, 182), (448, 182), (196, 346), (448, 346), (196, 508), (448, 508)]))
    defs = (linear("pcb", (0, "#23753f"), (1, "#17532b"), x2=1, y2=1)
            + '<radialGradient id="cap" cx=".4" cy=".4" r=".6"><stop offset="0" stop-color="#8a8f96"/><stop offset="1" stop-color="#2a2d31"/></radialGradient>')
    return svg(body, defs)


def io_shield():
    ports = (''.join(f'<rect x="166" y="{194 + i * 14}" width="12" height="9" rx="1" fill="#111"/>' for i in range(4))
             + '<rect x="165" y="256" width="14" height="12" rx="1" fill="#111"/>'
             + ''.join(f'<circle cx="172" cy="{282 + i * 11}" r="3.6" fill="{c}" stroke="#111"/>'
                       for i, c in enumerate(["#4fc3f7", "#8bc34a", "#f48fb1", "#222"])))
    body = f'<rect x="162" y="184" width="20" height="152" rx="1.5" fill="url(#shield)" stroke="#6f747a" stroke-width=".8"/>{ports}'
    return svg(body, linear("shield", (0, "#d3d6da"), (1, "#9ea3a9"), x2=1, y2=0), blur=2, dx=1, dy=2)


def cpu():
    body = ('<rect x="2" y="2" width="60" height="60" rx="2" fill="#1e6b37"/>'
            '<rect x="9" y="9" width="46" height="46" rx="3" fill="url(#ihs)" stroke="#8c9197" stroke-width=".8"/>'
            '<text x="32" y="27" text-anchor="middle" font-family="sans-serif" font-size="6.5" font-weight="700" fill="#4b5056">TD i5-3570</text>'
            '<text x="32" y="36" text-anchor="middle" font-family="sans-serif" font-size="5" fill="#5c6167">3.40 GHz 4C</text>'
            '<text x="32" y="44" text-anchor="middle" font-family="monospace" font-size="4.5" fill="#6a6f75">L219B512</text>'
            '<path d="M4 60 L4 52 L12 60 Z" fill="#d9b44a"/>')
    return svg(body, linear("ihs", (0, "#eef0f2"), (.5, "#c3c7cc"), (1, "#e3e5e8"), x2=1, y2=1), width=64, height=64,
               blur=1.5, dx=1, dy=1.5)


def cpu_cooler():
    fins = "".join(f'<rect x="262" y="{184 + i * 5.2}" width="100" height="2.6" fill="url(#fin)"/>' for i in range(25))
    pipes = "".join(f'<path d="M{284 + i * 14} 312 V{190}" stroke="url(#copper)" stroke-width="6" stroke-linecap="round" fill="none"/>' for i in range(4))
    body = (f'<rect x="262" y="184" width="100" height="128" fill="#34373c"/>{pipes}{fins}'
            f'<rect x="278" y="304" width="70" height="14" rx="2" fill="url(#copper)" stroke="#7a4a22" stroke-width=".8"/>'
            f'<rect x="234" y="186" width="26" height="124" rx="4" fill="#1b1c1f" stroke="#0a0a0b" stroke-width="1.5"/>'
            + "".join(f'<path d="M238 {196 + i * 12} L256 {202 + i * 12}" stroke="#3b3e43" stroke-width="3" stroke-linecap="round"/>' for i in range(9))
            + '<rect x="240" y="242" width="14" height="16" rx="2" fill="#2a2c30"/>'
            '<rect x="262" y="180" width="100" height="6" rx="2" fill="#2b2d31"/>'
            '<text x="312" y="178" text-anchor="middle" font-family="sans-serif" font-size="7" fill="#3a3d41">ARCTIC FLOW 92</text>')
    defs = (linear("fin", (0, "#e9ecef"), (1, "#a9aeb4"), x2=1, y2=0)
            + linear("copper", (0, "#f0a567"), (.5, "#c57535"), (1, "#8a4e22"), x2=1, y2=0))
    return svg(body, defs, blur=4.5, dx=3, dy=5, opacity=.45)


def ram():
    sticks = ""
    for x in (392, 414):
        sticks += (f'<rect x="{x - 1}" y="186" width="10" height="148" rx="1.5" fill="url(#spreader)" stroke="#5e0e12" stroke-width=".8"/>'
                   + "".join(f'<rect x="{x + 1}" y="{194 + i * 12}" width="6" height="6" fill="#3d0709" opacity=".55"/>' for i in range(11))
                   + f'<rect x="{x - 1}" y="186" width="10" height="8" fill="#2b2c2f"/>')
    return svg(sticks, linear("spreader", (0, "#d8343a"), (1, "#8f1a1f"), x2=1, y2=0), blur=2.5, dx=2, dy=3)


def graphics_card():
    body = ('<rect x="164" y="350" width="10" height="56" fill="url(#bracket)" stroke="#777c82" stroke-width=".8"/>'
            + "".join(f'<rect x="166" y="{356 + i * 8}" width="6" height="4" rx="1" fill="#2a2d31"/>' for i in range(5))
            + '<rect x="172" y="356" width="282" height="44" rx="6" fill="url(#shroud)" stroke="#0d0e10" stroke-width="1.5"/>'
            '<path d="M180 392 H446" stroke="#d23b2f" stroke-width="3"/>'
            '<rect x="172" y="398" width="282" height="6" fill="#1e6b37"/>'
            + "".join(f'<rect x="{200 + i * 12}" y="402" width="7" height="4" fill="#d9b44a"/>' for i in range(16))
            + '<text x="200" y="382" font-family="sans-serif" font-size="13" font-weight="700" fill="#e9eaec" letter-spacing="1">TD 660</text>'
            '<rect x="430" y="360" width="18" height="14" rx="2" fill="#0c0d0e" stroke="#3e4247"/>'
            + "".join(f'<path d="M{300 + i * 12} 362 L{308 + i * 12} 388" stroke="#3a3d42" stroke-width="2"/>' for i in range(10)))
    defs = (linear("shroud", (0, "#3a3e44"), (1, "#17181b")) + linear("bracket", (0, "#dfe2e5"), (1, "#a3a8ae"), x2=1, y2=0))
    return svg(body, defs, blur=4, dx=3, dy=5)


def wifi_card():
    body = ('<rect x="164" y="432" width="10" height="30" fill="url(#bracket)" stroke="#777c82" stroke-width=".8"/>'
            '<circle cx="169" cy="440" r="3" fill="#d9b44a"/><circle cx="169" cy="454" r="3" fill="#d9b44a"/>'
            '<rect x="172" y="436" width="104" height="14" rx="2" fill="#1e6b37" stroke="#10321c"/>'
            '<rect x="206" y="438" width="30" height="10" rx="1" fill="url(#can)"/>'
            + "".join(f'<rect x="{200 + i * 6}" y="449" width="3.5" height="4" fill="#d9b44a"/>' for i in range(10)))
    defs = linear("bracket", (0, "#dfe2e5"), (1, "#a3a8ae"), x2=1, y2=0) + linear("can", (0, "#e7e9ec"), (1, "#a9aeb4"))
    return svg(body, defs, blur=2, dx=1.5, dy=2.5)


def chipset_heatsink():
    fins = "".join(f'<rect x="{332 + i * 6}" y="428" width="3.5" height="50" rx="1" fill="url(#alu)"/>' for i in range(11))
    body = f'<rect x="330" y="440" width="64" height="26" rx="2" fill="#6c7279"/>{fins}'
    return svg(body, linear("alu", (0, "#d5e3f0"), (1, "#7f93a8"), x2=1, y2=0), blur=2, dx=1.5, dy=2.5)


def cmos_battery():
    body = ('<circle cx="424" cy="486" r="12" fill="url(#coin)" stroke="#6e737a" stroke-width="1"/>'
            '<text x="424" y="489" text-anchor="middle" font-family="sans-serif" font-size="6" fill="#4a4e53">CR2032</text>'
            '<path d="M412 486 A12 12 0 0 1 424 474" stroke="#ffffff" stroke-width="1.2" fill="none" opacity=".7"/>')
    return svg(body, '<radialGradient id="coin" cx=".35" cy=".35" r=".75"><stop offset="0" stop-color="#f4f5f7"/>'
               '<stop offset="1" stop-color="#9aa0a6"/></radialGradient>', blur=1.5, dx=1, dy=1.5)


def case_fan():
    cx, cy = 570, 490
    blades = "".join(f'<path d="M{cx} {cy} q 26 -14 44 6 q -20 4 -38 16 z" fill="url(#blade)" transform="rotate({a} {cx} {cy})"/>'
                     for a in range(0, 360, 51))
    body = (f'<rect x="512" y="432" width="116" height="116" rx="10" fill="#1b1c1f" stroke="#0a0a0b" stroke-width="1.5"/>'
            f'<circle cx="{cx}" cy="{cy}" r="54" fill="#0f1012"/>'
            f'{blades}'
            f'<circle cx="{cx}" cy="{cy}" r="15" fill="url(#hub)" stroke="#0a0a0b"/>'
            f'<text x="{cx}" y="{cy + 3}" text-anchor="middle" font-family="sans-serif" font-size="6" fill="#b9bdc2">12 V</text>'
            + "".join(f'<circle cx="{x}" cy="{y}" r="4" fill="#2d2f33" stroke="#45484d"/>' for x, y in [(522, 442), (618, 442), (522, 538), (618, 538)]))
    defs = (linear("blade", (0, "#5a5f66"), (1, "#2b2e33"), x2=1, y2=1)
            + '<radialGradient id="hub" cx=".4" cy=".4" r=".7"><stop offset="0" stop-color="#4c5057"/><stop offset="1" stop-color="#1a1b1e"/></radialGradient>')
    return svg(body, defs, blur=3.5, dx=2, dy=4)


def drive_cage():
    rails = "".join(f'<rect x="482" y="{y}" width="150" height="4" fill="#a8adb3"/>' for y in (106, 152, 198, 238, 300, 364))
    holes = "".join(f'<circle cx="{x}" cy="{y}" r="2.2" fill="#4a4e54"/>' for x in (490, 624) for y in range(80, 400, 22))
    body = (f'<path d="M478 58 H636 V412 H478 Z M486 64 V406 H628 V64 Z" fill-rule="evenodd" fill="url(#cage)" stroke="#5a5f65" stroke-width="1"/>'
            f'{rails}{holes}'
            f'<rect x="486" y="156" width="142" height="40" fill="#1d1f22" opacity=".55"/>'
            f'<rect x="486" y="110" width="142" height="40" fill="#1d1f22" opacity=".55"/>')
    return svg(body, linear("cage", (0, "#c4c8cd"), (1, "#8d9298"), x2=1, y2=1), blur=3, dx=2, dy=3)


def dvd_drive():
    body = ('<rect x="486" y="64" width="150" height="40" rx="2" fill="url(#drive)" stroke="#4f5358" stroke-width="1"/>'
            '<rect x="636" y="62" width="22" height="44" rx="2" fill="#16171a" stroke="#050506"/>'
            '<rect x="640" y="80" width="14" height="3" rx="1.5" fill="#3c3f44"/>'
            '<circle cx="647" cy="96" r="2.4" fill="#2f3236" stroke="#55595f"/>'
            '<rect x="492" y="70" width="58" height="28" rx="1" fill="#f0efe9" stroke="#a9a79f" stroke-width=".6"/>'
            '<text x="496" y="80" font-family="sans-serif" font-size="6.5" font-weight="700" fill="#26292d">DVD±RW 24x</text>'
            '<text x="496" y="89" font-family="sans-serif" font-size="5" fill="#4b4f55">SATA  5 V 1.5 A</text>'
            + "".join(f'<rect x="{560 + i * 5}" y="92" width="3" height="6" fill="#6b7077"/>' for i in range(8))
            + screw(492, 100, 2.2) + screw(626, 100, 2.2))
    return svg(body, linear("drive", (0, "#b8bdc3"), (1, "#80858c"), x2=0, y2=1) + SCREW)


def hard_disk():
    body = ('<rect x="492" y="244" width="136" height="52" rx="3" fill="url(#hdd)" stroke="#4f5358" stroke-width="1"/>'
            '<rect x="500" y="250" width="84" height="40" rx="2" fill="#f4f3ee" stroke="#a9a79f" stroke-width=".6"/>'
            '<text x="505" y="262" font-family="sans-serif" font-size="8" font-weight="700" fill="#1f2327">1 TB</text>'
            '<text x="505" y="272" font-family="sans-serif" font-size="5.5" fill="#4b4f55">7200 RPM  SATA 6 Gb/s</text>'
            '<text x="505" y="281" font-family="monospace" font-size="5" fill="#5a5e64">S/N WX31A92K7745</text>'
            '<rect x="590" y="254" width="30" height="30" rx="2" fill="#1e6b37"/>'
            '<rect x="494" y="258" width="6" height="12" fill="#23262b"/><rect x="494" y="274" width="6" height="16" fill="#23262b"/>'
            + screw(618, 250, 2.2) + screw(618, 290, 2.2))
    return svg(body, linear("hdd", (0, "#c9cdd2"), (1, "#8c9198"), x2=1, y2=1) + SCREW)


def ssd():
    body = ('<rect x="496" y="308" width="124" height="8" rx="1" fill="#9aa0a7"/>'
            '<rect x="504" y="312" width="98" height="28" rx="3" fill="url(#ssd)" stroke="#111" stroke-width="1"/>'
            '<text x="512" y="329" font-family="sans-serif" font-size="8" font-weight="700" fill="#e8e9eb">SSD 240 GB</text>'
            '<rect x="590" y="318" width="8" height="16" rx="1" fill="#d9b44a" opacity=".8"/>')
    return svg(body, linear("ssd", (0, "#3a3e44"), (1, "#1b1d20"), x2=1, y2=1), blur=2.5, dx=2, dy=3)


def sata_cable():
    body = ('<path d="M458 404 C 476 404, 470 330, 486 310 S 488 268, 494 264" stroke="#c62828" stroke-width="7" fill="none" stroke-linecap="round"/>'
            '<path d="M458 404 C 476 404, 470 330, 486 310 S 488 268, 494 264" stroke="#ef5350" stroke-width="2" fill="none" opacity=".6"/>'
            '<rect x="452" y="398" width="12" height="12" rx="1.5" fill="#111"/><rect x="488" y="258" width="10" height="12" rx="1.5" fill="#111"/>')
    return svg(body, blur=2.5, dx=2, dy=3)


def atx_cable():
    wires = "".join(f'<path d="M{318 + i * 2.4} 160 C {320 + i * 2.4} 220, {430 + i * 0.6} 200, {452} {252 + i * 2.8}" '
                    f'stroke="{c}" stroke-width="2.2" fill="none"/>'
                    for i, c in enumerate(["#111", "#d32f2f", "#111", "#fbc02d", "#111", "#ff9800", "#111", "#d32f2f",
                                           "#111", "#fbc02d", "#616161", "#111"]))
    body = (f'{wires}<rect x="446" y="246" width="14" height="70" rx="2" fill="#f4f1e6" stroke="#8a877e" stroke-width=".8"/>'
            f'<rect x="312" y="150" width="36" height="12" rx="2" fill="#1b1c1f"/>'
            f'<path d="M440 252 L446 252 M440 310 L446 310" stroke="#8a877e"/>')
    return svg(body, blur=3, dx=2, dy=4)


def cpu_power_cable():
    wires = "".join(f'<path d="M{214 + i * 3} 160 C {212 + i * 3} 168, {220 + i * 3} 170, {218 + i * 3} 178" stroke="{c}" stroke-width="2.4" fill="none"/>'
                    for i, c in enumerate(["#fbc02d", "#111", "#fbc02d", "#111", "#fbc02d", "#111", "#fbc02d", "#111"]))
    body = f'{wires}<rect x="210" y="174" width="32" height="14" rx="2" fill="#efece4" stroke="#8a877e" stroke-width=".8"/>'
    return svg(body, blur=2, dx=1.5, dy=2.5)


def side_panel():
    """Tempered glass over the whole side: a thin tint, a soft shadow along its edges on the
    parts below, and a reflection across one corner."""
    body = ('<g filter="url(#edge)"><rect x="150" y="40" width="500" height="536" rx="8" fill="none" stroke="#000" stroke-width="10"/></g>'
            '<rect x="150" y="40" width="500" height="536" rx="8" fill="#cfe3f5" fill-opacity=".13" stroke="#1d2024" stroke-width="3"/>'
            '<path d="M150 40 H420 L150 330 Z" fill="url(#glare)"/>'
            '<path d="M560 576 L650 470 V576 Z" fill="url(#glare2)"/>'
            '<rect x="153" y="43" width="494" height="530" rx="6" fill="none" stroke="#ffffff" stroke-opacity=".35" stroke-width="1"/>')
    defs = ('<filter id="edge" x="-5%" y="-5%" width="110%" height="110%"><feGaussianBlur stdDeviation="6"/>'
            '<feComponentTransfer><feFuncA type="linear" slope=".35"/></feComponentTransfer></filter>'
            '<linearGradient id="glare" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#fff" stop-opacity=".28"/>'
            '<stop offset=".55" stop-color="#fff" stop-opacity=".06"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></linearGradient>'
            '<linearGradient id="glare2" x1="1" y1="1" x2="0" y2="0"><stop offset="0" stop-color="#fff" stop-opacity=".2"/>'
            '<stop offset="1" stop-color="#fff" stop-opacity="0"/></linearGradient>')
    return svg(body, defs, shadowed=False)


def thumbscrews():
    body = "".join(
        f'<circle cx="{x}" cy="{y}" r="9" fill="url(#knurl)" stroke="#4e5258" stroke-width="1"/>'
        f'<circle cx="{x}" cy="{y}" r="5" fill="url(#cap)"/>'
        + "".join(f'<path d="M{x} {y - 9} V{y - 7}" stroke="#5d6167" stroke-width="1" transform="rotate({a} {x} {y})"/>' for a in range(0, 360, 30))
        for x, y in [(166, 56), (634, 56), (166, 560), (634, 560)])
    defs = ('<radialGradient id="knurl" cx=".4" cy=".35" r=".75"><stop offset="0" stop-color="#eef0f2"/><stop offset="1" stop-color="#8a8f95"/></radialGradient>'
            '<radialGradient id="cap" cx=".35" cy=".3" r=".8"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#b7bbc0"/></radialGradient>')
    return svg(body, defs, blur=2, dx=1.5, dy=3, opacity=.5)


LAYERS = {
    "case": case, "front-bezel": front_bezel, "power-button": power_button, "power-supply": power_supply,
    "motherboard": motherboard, "io-shield": io_shield, "cpu": cpu, "cpu-cooler": cpu_cooler, "ram": ram,
    "graphics-card": graphics_card, "wifi-card": wifi_card, "chipset-heatsink": chipset_heatsink,
    "cmos-battery": cmos_battery, "case-fan": case_fan, "drive-cage": drive_cage, "dvd-drive": dvd_drive,
    "hard-disk": hard_disk, "ssd": ssd, "sata-cable": sata_cable, "atx-cable": atx_cable,
    "cpu-power-cable": cpu_power_cable, "side-panel": side_panel, "thumbscrews": thumbscrews,
}


def main():
    write_layers(PARTS, LAYERS)


if __name__ == "__main__":
    main()
