#!/usr/bin/env python3
"""How large a full-text first answer of Teardown's own would be, read from a built site.

    first_answer_size.py --site OUTPUT [--files 256,1024]

A measurement for a design not built (docs/ARCHITECTURE.md, "Search on a phone: what is
next"). It reads the pages the default theme gives Pagefind (inside `data-pagefind-body`,
outside `data-pagefind-ignore`), splits their text into words as the names' files do (runs
of two or more ASCII letters and digits, lowercased), and counts the postings (word, page).
It then sizes files that give, for each word, how many pages hold it, the best ten by
weighted count (`data-pagefind-weight`) with their titles and addresses, and for a word on
at most RARE pages every page's number, so that a query's words can be intersected; words
are filed by FNV-1a hash into a fixed number of files. Sizes are gzip level 6, as
`teardown deploy` stores text. Prints the counts and the files' sizes.
"""

import argparse
import collections
import gzip
import html.parser
import json
import os
import re

TOP = 10
RARE = 50
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
WORD = re.compile(r"[a-z0-9]{2,}")


class IndexedText(html.parser.HTMLParser):
    """The text of a page that Pagefind indexes, with each run's weight, and its title."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.open = []  # (tag, in body, ignored, weight)
        self.runs = []
        self.title = None

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        _, body, ignored, weight = self.open[-1] if self.open else ("", False, False, 1)
        meta = attributes.get("data-pagefind-meta") or ""
        if meta.startswith("title:"):
            self.title = meta[len("title:"):]
        if tag not in VOID:
            self.open.append((tag, body or "data-pagefind-body" in attributes,
                              ignored or "data-pagefind-ignore" in attributes,
                              int(attributes.get("data-pagefind-weight", weight))))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        while self.open and self.open.pop()[0] != tag:
            pass

    def handle_data(self, data):
        if self.open and self.open[-1][1] and not self.open[-1][2]:
            self.runs.append((data, self.open[-1][3]))
            if self.open[-1][0] == "h1" and self.title is None:
                self.title = data.strip()


def fnv1a(word):
    value = 0x811C9DC5
    for byte in word.encode():
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return value


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", required=True)
    parser.add_argument("--files", default="256,1024,4096")
    arguments = parser.parse_args()
    pages, postings = [], collections.defaultdict(dict)
    for folder, _, names in os.walk(arguments.site):
        path = os.path.relpath(folder, arguments.site)
        if "index.html" not in names or path.split(os.sep)[0] in ("pagefind", "search"):
            continue
        with open(os.path.join(folder, "index.html"), encoding="utf-8") as file:
            text = file.read()
        if "data-pagefind-body" not in text:
            continue
        page = IndexedText()
        page.feed(text)
        if not page.runs:
            continue
        number = len(pages)
        pages.append((page.title or path, "/" + path + "/"))
        for run, weight in page.runs:
            for word in WORD.findall(run.lower()):
                postings[word][number] = postings[word].get(number, 0) + weight
    counts = sorted(len(held) for held in postings.values())
    print(f"{len(pages)} pages, {len(postings)} words, {sum(counts)} postings")
    print(f"pages a word is on: median {counts[len(counts) // 2]}, 90th percentile {counts[int(len(counts) * .9)]}, "
          f"99th {counts[int(len(counts) * .99)]}, most {counts[-1]}")
    rare = sum(1 for count in counts if count <= RARE)
    print(f"words on at most {RARE} pages: {rare} ({rare / len(counts):.0%})")

    def entry(word):
        held = postings[word]
        ranked = sorted(held, key=lambda number: -held[number])
        made = {"word": word, "count": len(held), "best": [list(pages[number]) for number in ranked[:TOP]]}
        if len(held) <= RARE:
            made["pages"] = ranked
        return made

    entries = {word: json.dumps(entry(word), separators=(",", ":")) for word in postings}
    print(f"every word's entry: {sum(map(len, entries.values())) / 1e6:.1f} MB before compression")
    for count in map(int, arguments.files.split(",")):
        files = collections.defaultdict(list)
        for word, text in entries.items():
            files[fnv1a(word) % count].append(text)
        sizes = sorted(len(gzip.compress(("[" + ",".join(texts) + "]").encode(), 6)) for texts in files.values())
        print(f"{count} files: {sum(sizes) / 1e6:.2f} MB compressed; a file's median {sizes[len(sizes) // 2] / 1e3:.1f} KB, "
              f"90th percentile {sizes[int(len(sizes) * .9)] / 1e3:.1f} KB, largest {sizes[-1] / 1e3:.1f} KB")


if __name__ == "__main__":
    main()
