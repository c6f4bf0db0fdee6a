#!/usr/bin/env python3
"""Writes a seeded catalog twice: as a Teardown site and as an equivalent Hugo site.

Both sites get the same text: every part page has the same Markdown description and the same
community comments, every machine page the same description and parts list, so the two
generators parse and render the same Markdown into pages of comparable shape. The same seed,
size and shape always give byte-identical sites.

Two shapes:
- `synthetic`: 30-70 parts per machine, descriptions of 2-4 short paragraphs with a list or a
  heading now and then, in uniform sentences.
- `documents`: 100 parts per machine, each description a document of 1 to 8 KB (sizes spread
  evenly on a log scale) of the kinds a repair manual holds: sections and subsections,
  paragraphs of varied length, nested and ordered lists, task lists, fenced code in several
  languages, tables, block quotes, links, images, emphasis and strike-through. Their variety
  is what the synthetic shape's uniform sentences hide from a renderer.

    generate.py --parts 10000 --out work/10000 [--seed 1] [--shape synthetic|documents]
"""

import argparse
import os
import random
import shutil

# Words of the kind a teardown catalog is written in; sentences are drawn from them.
WORDS = """
bearing bracket cable capacitor casing chassis clip coil connector cover diode drive fan
filter flange gasket gear grille heatsink hinge housing insulator jumper latch lever motor
mount nut panel pin plate plug pulley rail relay resistor rotor screw seal sensor shaft
shield socket spring stator switch terminal thermostat tray valve washer winding wire
aluminium brass copper steel plastic rubber nylon ceramic glass silicone
loose tight worn clean dusty bent cracked noisy quiet warm cold bright dim heavy light
small large thin thick short long narrow wide smooth rough soft hard
holds turns cools heats seals guides carries drives protects connects grounds supports
slides presses locks releases measures switches filters stores spins clamps
the a one each this that every its their of to in on under over behind beside through
with without from into and or but so then because while when after before
usually often rarely always sometimes carefully gently firmly quickly slowly
""".split()

NAMES = ["Ada", "Linus", "Grace", "Alan", "Edsger", "Barbara", "Ken", "Dennis", "Margaret",
         "Radia", "Hedy", "Frances", "Niklaus", "Donald", "Sophie", "Tim", "Katherine", "Bjarne"]
UNITS = [("Length", "mm", 5, 600), ("Mass", "kg", 1, 40), ("Power", "W", 1, 900),
         ("Voltage", "V", 3, 240), ("Speed", "rpm", 300, 7200), ("Capacity", "GB", 1, 4000)]
TAGS = ["electrical", "mechanical", "cooling", "storage", "power", "body", "fastener", "sensor"]


def sentence(rng, low=6, high=16):
    words = [rng.choice(WORDS) for _ in range(rng.randint(low, high))]
    # Inline Markdown appears in real descriptions: emphasis, code and links.
    roll = rng.random()
    if roll < 0.15:
        i = rng.randrange(len(words))
        words[i] = f"**{words[i]}**"
    elif roll < 0.25:
        i = rng.randrange(len(words))
        words[i] = f"`{words[i]}`"
    elif roll < 0.32:
        i = rng.randrange(len(words))
        words[i] = f"[{words[i]}](https://example.org/{words[i]})"
    text = " ".join(words)
    return text[0].upper() + text[1:] + "."


def description(rng):
    """A designer's description: 120-300 words in paragraphs, sometimes a list or heading."""
    blocks = []
    for _ in range(rng.randint(2, 4)):
        blocks.append(" ".join(sentence(rng) for _ in range(rng.randint(2, 5))))
    if rng.random() < 0.5:
        blocks.insert(1, "\n".join(f"- {sentence(rng, 3, 7)}" for _ in range(rng.randint(2, 5))))
    if rng.random() < 0.3:
        blocks.insert(rng.randint(1, len(blocks)), "## " + sentence(rng, 2, 4).rstrip("."))
    return "\n\n".join(blocks) + "\n"


def paragraph(rng, low, high):
    return " ".join(sentence(rng) for _ in range(rng.randint(low, high)))


def nested_list(rng, depth=0, ordered=False):
    lines = []
    for number in range(1, rng.randint(2, 5) + 1):
        marker = f"{number}." if ordered else rng.choice(["-", "*"])
        lines.append("   " * depth + f"{marker} {sentence(rng, 3, 10)}")
        if depth < 2 and rng.random() < 0.3:
            lines.extend(nested_list(rng, depth + 1, ordered=rng.random() < 0.3))
    return lines


CODE = {
    "sh": lambda rng: [f"$ {rng.choice(['make', 'sudo systemctl restart', 'cat', 'dmesg | grep', 'lsusb -v'])} "
                       f"{rng.choice(WORDS)}-{rng.randint(1, 9)}" for _ in range(rng.randint(2, 8))],
    "yaml": lambda rng: [f"{rng.choice(WORDS)}: {rng.choice([rng.randint(1, 999), repr(rng.choice(WORDS))])}"
                         for _ in range(rng.randint(3, 10))],
    "c": lambda rng: ["static int " + rng.choice(WORDS) + "_read(int pin) {"]
                     + [f"    if (pin == {rng.randint(0, 40)}) return {rng.choice(WORDS).upper()}_{rng.randint(0, 9)};"
                        for _ in range(rng.randint(2, 6))] + ["    return -1;", "}"],
    "": lambda rng: [f"{rng.choice(WORDS):<12}{rng.randint(0, 9999):>6} {rng.choice(['ok', 'worn', 'replace'])}"
                     for _ in range(rng.randint(3, 9))],
}


def table(rng):
    columns = rng.randint(2, 5)
    header = ["Part", "Value", "Torque", "Note", "Tool"][:columns]
    rows = [f"| {' | '.join(header)} |", "|" + "|".join(rng.choice([" --- ", ":---", "---:", ":---:"]) for _ in header) + "|"]
    for _ in range(rng.randint(2, 12)):
        cells = [rng.choice(WORDS), f"{rng.randint(1, 900)} {rng.choice(['mm', 'Nm', 'V', 'g'])}",
                 f"{rng.randint(1, 40)} Nm", sentence(rng, 2, 6).rstrip("."), f"`{rng.choice(WORDS)}`"][:columns]
        rows.append(f"| {' | '.join(cells)} |")
    return "\n".join(rows)


def document(rng):
    """A repair-manual document of 1 to 8 KB: sections of varied Markdown until it is long enough."""
    target = int(1024 * 8 ** rng.random())
    blocks = [paragraph(rng, 1, 4)]
    size = len(blocks[0])
    while size < target:
        roll = rng.random()
        if roll < 0.12:
            block = ("## " if rng.random() < 0.6 else "### ") + sentence(rng, 2, 5).rstrip(".")
        elif roll < 0.40:
            block = paragraph(rng, 1, 6)
        elif roll < 0.52:
            block = "\n".join(nested_list(rng, ordered=rng.random() < 0.4))
        elif roll < 0.57:
            block = "\n".join(f"- [{rng.choice([' ', 'x'])}] {sentence(rng, 3, 8)}" for _ in range(rng.randint(2, 6)))
        elif roll < 0.68:
            language = rng.choice(list(CODE))
            block = f"```{language}\n" + "\n".join(CODE[language](rng)) + "\n```"
        elif roll < 0.77:
            block = table(rng)
        elif roll < 0.84:
            block = "> " + sentence(rng) + ("\n>\n> " + sentence(rng) if rng.random() < 0.5 else "")
        elif roll < 0.90:
            word = rng.choice(WORDS)
            block = f"![The {word} from above](https://example.org/images/{word}-{rng.randint(1, 99)}.jpg)\n\n" + sentence(rng)
        elif roll < 0.95:
            block = f"~~{sentence(rng, 3, 6).rstrip('.')}~~ " + sentence(rng) + f" See <https://example.org/{rng.choice(WORDS)}>."
        else:
            block = "---\n\n" + paragraph(rng, 1, 3)
        blocks.append(block)
        size += len(block) + 2
    return "\n\n".join(blocks) + "\n"


def comment(rng):
    """A community comment: under the 200-character limit, one or two sentences."""
    text = sentence(rng, 4, 12)
    if rng.random() < 0.4:
        text += " " + sentence(rng, 3, 8)
    return text[:190].rstrip() + ("" if text.endswith(".") else ".")


def slug(rng, taken, prefix):
    while True:
        name = f"{rng.choice(WORDS)}-{rng.choice(WORDS)}"
        if name not in taken and name.isascii() and name.replace("-", "").isalpha():
            taken.add(name)
            return f"{prefix}{name}" if prefix else name


def layer_svg(rng, width, height, z):
    x, y = rng.randrange(width // 2), rng.randrange(height // 2)
    w, h = rng.randint(20, width // 2), rng.randint(20, height // 2)
    colour = f"#{rng.randrange(0x1000000):06x}"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}"><rect x="{x}" y="{y}" width="{w}" height="{h}" '
            f'rx="6" fill="{colour}" data-z="{z}"/></svg>\n')


def yaml_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def generate(parts_total, seed, shape="synthetic"):
    """The catalog as data: machines with parts, descriptions, specs and comments."""
    rng = random.Random(seed)
    describe = document if shape == "documents" else description
    machines, taken, left = [], set(), parts_total
    while left > 0:
        count = min(left, 100 if shape == "documents" else rng.randint(30, 70))
        left -= count
        machine_slug = slug(rng, taken, "")
        part_slugs = set()
        parts = []
        for z in range(count):
            part_slug = slug(rng, part_slugs, "")
            parts.append({
                "slug": part_slug,
                "name": part_slug.replace("-", " ").capitalize(),
                "z": z,
                "specs": {label: f"{rng.randint(low, high)} {unit}"
                          for label, unit, low, high in rng.sample(UNITS, rng.randint(1, 4))},
                "tags": rng.sample(TAGS, rng.randint(1, 3)),
                "description": describe(rng),
                # At most one discussion page per part, so both generators write one page per part.
                "comments": [(rng.choice(NAMES), f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}", comment(rng))
                             for _ in range(rng.randint(0, 5))],
                "svg_seed": rng.randrange(1 << 30),
            })
        machines.append({
            "slug": machine_slug,
            "name": machine_slug.replace("-", " ").title(),
            "summary": sentence(rng, 6, 12),
            "description": describe(rng),
            "tags": rng.sample(TAGS, 2),
            "parts": parts,
            "comments": [(rng.choice(NAMES), f"2024-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}", comment(rng))
                         for _ in range(rng.randint(0, 5))],
        })
    return machines


def write_teardown(root, machines):
    write(f"{root}/content/site.yaml", 'title: "Benchmark catalog"\nbase_url: "http://127.0.0.1:8080/"\n')
    for machine in machines:
        folder = f"{root}/content/machines/{machine['slug']}"
        write(f"{folder}/machine.yaml",
              f"name: {yaml_string(machine['name'])}\nsummary: {yaml_string(machine['summary'])}\n"
              f"canvas: {{width: 800, height: 600}}\ntags: [{', '.join(machine['tags'])}]\n"
              f"designer: \"Grace\"\nlicense: \"CC BY 4.0\"\nupdated: 2024-07-25\n")
        write(f"{folder}/description.md", machine["description"])
        write_comments(f"{folder}/comments", machine["comments"])
        for part in machine["parts"]:
            part_folder = f"{folder}/parts/{part['slug']}"
            specs = "".join(f"  {label}: {yaml_string(value)}\n" for label, value in part["specs"].items())
            write(f"{part_folder}/part.yaml",
                  f"name: {yaml_string(part['name'])}\nlayer: {{image: layer.svg, z: {part['z']}}}\n"
                  f"specs:\n{specs}tags: [{', '.join(part['tags'])}]\n")
            write(f"{part_folder}/description.md", part["description"])
            write(f"{part_folder}/layer.svg", layer_svg(random.Random(part["svg_seed"]), 800, 600, part["z"]))
            write_comments(f"{part_folder}/comments", part["comments"])


def write_comments(folder, comments):
    for number, (author, date, body) in enumerate(comments, 1):
        write(f"{folder}/c{number:02d}.md", f"---\nauthor: {yaml_string(author)}\ndate: {date}\n---\n{body}\n")


def hugo_discussion(comments):
    """The comments as the same Markdown bodies, under the heading both sites give them."""
    if not comments:
        return ""
    return "\n## Discussion\n\n" + "".join(f"**{author}** ({date})\n\n{body}\n\n" for author, date, body in comments)


def write_hugo(root, machines):
    write(f"{root}/hugo.toml",
          'baseURL = "http://127.0.0.1:8080/"\ntitle = "Benchmark catalog"\n'
          'disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT"]\n'
          '[markup.goldmark.renderer]\nunsafe = false\n'
          # Teardown writes code blocks as they are; Hugo would otherwise colour them with Chroma.
          '[markup.highlight]\ncodeFences = false\n')
    layouts = os.path.join(os.path.dirname(os.path.abspath(__file__)), "hugo-layouts")
    shutil.copytree(layouts, f"{root}/layouts", dirs_exist_ok=True)
    write(f"{root}/content/_index.md", "---\ntitle: Benchmark catalog\n---\n")
    for machine in machines:
        folder = f"{root}/content/machines/{machine['slug']}"
        write(f"{folder}/_index.md",
              f"---\ntitle: {yaml_string(machine['name'])}\nsummary: {yaml_string(machine['summary'])}\n"
              f"params:\n  partcount: {len(machine['parts'])}\n---\n"
              f"{machine['description']}{hugo_discussion(machine['comments'])}")
        for part in machine["parts"]:
            part_folder = f"{folder}/{part['slug']}"
            specs = "".join(f"    {label}: {yaml_string(value)}\n" for label, value in part["specs"].items())
            write(f"{part_folder}/index.md",
                  f"---\ntitle: {yaml_string(part['name'])}\nweight: {part['z'] + 1}\n"
                  f"params:\n  specs:\n{specs}---\n{part['description']}{hugo_discussion(part['comments'])}")
            write(f"{part_folder}/layer.svg", layer_svg(random.Random(part["svg_seed"]), 800, 600, part["z"]))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", type=int, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shape", choices=["synthetic", "documents"], default="synthetic")
    args = parser.parse_args()
    machines = generate(args.parts, args.seed, args.shape)
    shutil.rmtree(args.out, ignore_errors=True)
    write_teardown(f"{args.out}/teardown", machines)
    write_hugo(f"{args.out}/hugo", machines)
    print(f"{args.out}: {len(machines)} machines, {args.parts} parts, {args.shape} shape")


if __name__ == "__main__":
    main()
