"""What the demo's layer drawings share: a soft shadow under each part, gradients and screws.
Every layer is a whole SVG document of its machine's canvas size (or of its own, for a part
placed with an offset)."""


def shadow(blur=3.5, dx=2, dy=4, opacity=0.4):
    return (f'<filter id="shadow" x="-10%" y="-10%" width="130%" height="130%">'
            f'<feGaussianBlur in="SourceAlpha" stdDeviation="{blur}"/><feOffset dx="{dx}" dy="{dy}" result="b"/>'
            f'<feComponentTransfer><feFuncA type="linear" slope="{opacity}"/></feComponentTransfer>'
            f'<feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter>')


def linear(name, *stops, x2=0, y2=1):
    inner = "".join(f'<stop offset="{o}" stop-color="{c}"/>' for o, c in stops)
    return f'<linearGradient id="{name}" x1="0" y1="0" x2="{x2}" y2="{y2}">{inner}</linearGradient>'


def svg(body, defs="", width=800, height=600, shadowed=True, **shadow_options):
    filters = shadow(**shadow_options) if shadowed else ""
    group = f'<g filter="url(#shadow)">{body}</g>' if shadowed else body
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">\n'
            f'<defs>{filters}{defs}</defs>\n{group}\n</svg>\n')


def screw(x, y, r=3.2):
    return (f'<circle cx="{x}" cy="{y}" r="{r}" fill="url(#screw)" stroke="#55595f" stroke-width=".8"/>'
            f'<path d="M{x - r * .6} {y}H{x + r * .6}M{x} {y - r * .6}V{y + r * .6}" stroke="#3a3d42" stroke-width=".9"/>')


SCREW = linear("screw", (0, "#e4e6e9"), (1, "#8d9298"), x2=1)


def write_layers(parts, layers):
    """Writes each part's layer, <part>/<part>.svg, from its drawing function."""
    for slug, draw in layers.items():
        folder = parts / slug
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{slug}.svg").write_text(draw())
    print(f"{len(layers)} layers in {parts}")
