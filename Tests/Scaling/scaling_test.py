#!/usr/bin/env python3
"""What one comment and one part moved to another tag cost, counted in processes of their own at
1,000 and at 10,000 parts.

    python3 Tests/Scaling/scaling_test.py [--teardown .build/debug/teardown]

Generates two catalogs with Benchmarks/generate.py (documents shape: machines of 100 parts
each, so both sizes differ only in how many machines they hold), builds each, syncs one
comment into each (the first sync after a build), and then runs `teardown sync` of one more
comment as a publisher runs it, in a new process with TEARDOWN_COUNTS set, and compares what
the two runs touched: heads decoded, rows of the snapshot, the manifest, the bundles and the
image index read, pages and copies planned, parts read, images keyed, rows written...

A count that follows the change is the same at both sizes (at most 1.2 times). The counts that
still follow the catalog are listed in GROWING with the step that visits every machine; the
test checks that each of them does grow (ten times the machines, at least three times the
count), so a counter that counts nothing cannot pass, and one that stops growing must leave
the list. The published manifest's rows are read for the outputs planned (FOLLOWS_PLAN): at
most as many as the plan lists, a small share of the site. One head and one image row are
decoded, the commented machine's, and the summaries read are bounded by a page of the catalog
(BOUNDED_BY_PAGES). Then a part is moved to a tag of its own by hand and built: no other
machine's head or image row is decoded, and what still grows is listed in MOVE_GROWING. A full
build at both sizes shows that the other counters count too: what it reads of every machine
grows with the catalog.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TEARDOWN = os.path.join(ROOT, ".build", "debug", "teardown")
SIZES = (1_000, 10_000)
ENV = {**os.environ, "TEARDOWN_PAGEFIND": "", "NO_COLOR": "1"}

# Counts that still grow with the catalog in a one-comment sync, and the step that visits it.
# Per-machine state read by key takes each off (docs/ARCHITECTURE.md, "The model it is moving to").
GROWING = {
    "teardown.snapshot_bytes_read": "the walk reads the whole stored input snapshot",
    "teardown.bundle_rows_read": "the fingerprint reads every bundle's row of unit digests",
    "teardown.unit_machines_read": "the fingerprint looks up a unit key of every stored machine, to find those gone",
    "teardown.image_rows_read": "the image step reads every bundle's summary row of the image index",
    "teardown.site_pages_planned": "the plan lists every page of the catalog, tag and A-Z lists",
}

# Counts bounded by what one page of the catalog and the site's feed show, whatever the size of
# the catalog: a comment renders again the catalog page its machine's card is on, whose cards
# are drawn from their machines' briefs and summaries (`MachineSummary`: name, counts, cover and
# composed image), and the feed's items of the other machines are kept (`FeedEntries`). Of the
# heads and image rows, only the commented machine's are decoded, for its own pages.
LIST_PAGE = 50  # site.yaml's list_page_size, by default
BOUNDED_BY_PAGES = {
    "teardown.heads_decoded": 1,
    "teardown.image_rows_fetched": 1,
    "teardown.summaries_read": LIST_PAGE,
}

# Counts of a part moved to another tag that still grow with the catalog, and why. The other
# machines' part entries on the two tags' pages come from their summaries (`MachineSummary`),
# read by slug: no head and no image row of theirs is decoded.
MOVE_GROWING = {
    "teardown.summaries_read": "the site index is made again from every machine's summary",
    "teardown.unit_rows_read": "every page of a changed tag list has its unit compared",
    "teardown.site_pages_planned": "the plan lists every page of the catalog, tag and A-Z lists",
}

# Counts that follow what the plan lists, and so the site pages it plans (site_pages_planned,
# in GROWING): the published rows of the planned pages and copies are read by path, no others.
FOLLOWS_PLAN = ("teardown.manifest_rows_read",)

# Counts a full build makes for every machine: each grows with the catalog there.
COUNTED_BY_FULL_BUILD = ("teardown.parts_read", "teardown.machines_digested", "teardown.images_keyed",
                         "teardown.images_looked_up", "teardown.image_rows_written", "teardown.input_rows_written",
                         "teardown.pages_planned", "teardown.copies_planned", "teardown.machines_planned",
                         "teardown.bundles_zipped")


def run(command, counts=None):
    env = dict(ENV)
    if counts:
        env["TEARDOWN_COUNTS"] = counts
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}")
    return result.stdout


class Catalog:
    def __init__(self, parts, root):
        self.parts = parts
        generated = os.path.join(root, f"generated-{parts}")
        subprocess.run([sys.executable, os.path.join(ROOT, "Benchmarks", "generate.py"), "--parts", str(parts),
                        "--out", generated, "--seed", "1", "--shape", "documents"], check=True, capture_output=True)
        self.site = os.path.join(generated, "teardown")
        self.root = root
        self.synced = 0
        machines = os.path.join(self.site, "content", "machines")
        self.machine = sorted(os.listdir(machines))[0]
        self.part = sorted(os.listdir(os.path.join(machines, self.machine, "parts")))[0]

    def counted(self, command, name):
        path = os.path.join(self.root, f"counts-{self.parts}-{name}.json")
        output = run(command + ["--site", self.site], counts=path)
        with open(path) as handle:
            return json.load(handle), output

    def sync_one_comment(self, counted):
        """Files one comment on the first machine's first part, as a folder inbox holds it."""
        self.synced += 1
        inbox = os.path.join(self.root, f"inbox-{self.parts}-{self.synced}")
        os.makedirs(inbox)
        with open(os.path.join(inbox, f"scaling-{self.synced}.comment.md"), "w") as handle:
            handle.write(f"---\nmachine: {self.machine}\npart: {self.part}\nauthor: \"Scaling\"\n"
                         f"date: 2025-03-0{self.synced}\n---\nComment number {self.synced}.\n")
        counts, output = self.counted([TEARDOWN, "sync", "--from", inbox], f"sync-{self.synced}")
        if "1 accepted" not in output:
            raise AssertionError(f"the comment was not accepted:\n{output}")
        return counts if counted else None


    def move_part_tag(self):
        """Moves the first machine's first part to a tag of its own, by hand as a designer does, and builds."""
        path = os.path.join(self.site, "content", "machines", self.machine, "parts", self.part, "part.yaml")
        with open(path) as handle:
            lines = handle.read().splitlines()
        moved = [line if not line.startswith("tags:") else "tags: [moved]" for line in lines]
        if moved == lines:
            raise AssertionError(f"no tags line in {path}")
        with open(path, "w") as handle:
            handle.write("\n".join(moved) + "\n")
        counts, _ = self.counted([TEARDOWN, "build"], "move")
        return counts


class ScalingTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.scratch = tempfile.mkdtemp(prefix="teardown-scaling-")
        cls.catalogs = [Catalog(parts, cls.scratch) for parts in SIZES]
        cls.full = {}
        for catalog in cls.catalogs:
            cls.full[catalog.parts], _ = catalog.counted([TEARDOWN, "build", "--full"], "full")
        # Out of the racy window, the catalog is as a publisher's is between syncs.
        time.sleep(2.2)
        for catalog in cls.catalogs:
            catalog.sync_one_comment(counted=False)
        time.sleep(2.2)
        cls.sync = {catalog.parts: catalog.sync_one_comment(counted=True) for catalog in cls.catalogs}
        cls.move = {catalog.parts: catalog.move_part_tag() for catalog in cls.catalogs}
        small, large = SIZES
        print("\ncount: one-comment sync at 1,000 / 10,000 parts; tag move; full build", file=sys.stderr)
        for name in sorted(cls.sync[small]):
            print(f"  {name}: {cls.sync[small][name]} / {cls.sync[large][name]}; "
                  f"{cls.move[small].get(name, 0)} / {cls.move[large].get(name, 0)}; "
                  f"{cls.full[small][name]} / {cls.full[large][name]}", file=sys.stderr)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def test_a_comment_costs_the_same_at_both_sizes(self):
        small, large = (self.sync[size] for size in SIZES)
        for name in sorted(small):
            if name in GROWING or name in FOLLOWS_PLAN or name in BOUNDED_BY_PAGES:
                continue
            with self.subTest(name):
                self.assertLessEqual(large[name], max(small[name] * 1.2, small[name] + 1),
                                     f"{name}: {small[name]} at 1,000 parts, {large[name]} at 10,000")

    def test_what_still_follows_the_catalog_grows_with_it(self):
        small, large = (self.sync[size] for size in SIZES)
        for name, why in GROWING.items():
            with self.subTest(name):
                self.assertGreater(small[name], 0, f"{name} counts nothing ({why})")
                self.assertGreaterEqual(large[name], small[name] * 3,
                                        f"{name} no longer grows with the catalog: take it off GROWING ({why})")

    def test_what_pages_show_is_bounded_by_them(self):
        for size in SIZES:
            counts = self.sync[size]
            for name, bound in BOUNDED_BY_PAGES.items():
                with self.subTest(f"{name} at {size}"):
                    self.assertGreater(counts[name], 0, f"{name} counts nothing")
                    self.assertLessEqual(counts[name], bound, counts)

    def test_the_published_manifest_is_read_for_what_is_planned(self):
        for size in SIZES:
            counts, full = self.sync[size], self.full[size]
            with self.subTest(size):
                planned = (counts["teardown.pages_planned"] + counts["teardown.copies_planned"]
                           + counts["teardown.site_pages_planned"])
                self.assertGreater(counts["teardown.manifest_rows_read"], 0, counts)
                self.assertLessEqual(counts["teardown.manifest_rows_read"], planned, counts)
                # A full build plans every output: at 10,000 parts the rows a sync reads are a small share of them.
                everything = full["teardown.pages_planned"] + full["teardown.copies_planned"] + full["teardown.site_pages_planned"]
                if size == SIZES[-1]:
                    self.assertLess(counts["teardown.manifest_rows_read"] * 10, everything, (counts, full))

    def test_every_counter_counts_where_a_step_visits_every_machine(self):
        small, large = (self.full[size] for size in SIZES)
        for name in COUNTED_BY_FULL_BUILD:
            with self.subTest(name):
                self.assertGreater(small[name], 0, f"{name} counts nothing in a full build")
                self.assertGreaterEqual(large[name], small[name] * 3, f"{name}: {small[name]} and {large[name]}")

    def test_one_comment_reads_and_writes_its_own_machine(self):
        for size in SIZES:
            counts = self.sync[size]
            with self.subTest(size):
                # The build reads the commented part from its files. The review takes the machine
                # from the content cache: the sync before filed into it, and kept it once it had
                # settled, as this one does (`SiteBuilder.settle`).
                self.assertEqual(counts["teardown.parts_read"], 1, counts)
                self.assertEqual(counts["teardown.bundles_settled"], 1, counts)
                self.assertEqual(counts["teardown.machines_digested"], 1, counts)
                self.assertEqual(counts["teardown.image_rows_written"], 1, counts)
                # The review finds the part in the machine's head; no text is read from the content cache.
                self.assertEqual(counts["teardown.texts_read"], 0, counts)
                self.assertEqual(counts["teardown.input_walks"], 0, counts)
                # The other machines' outputs are carried by the counts the store keeps.
                self.assertEqual(counts["teardown.machines_planned"], 1, counts)
                self.assertEqual(counts.get("teardown.whole_plans", 0), 0, counts)
                # The stored snapshot is read whole for the check, but only the rows that differ
                # (and those of no bundle) are kept: at 10,000 parts a small share of what was read.
                self.assertGreater(counts["teardown.snapshot_bytes_kept"], 0, counts)
                if size == SIZES[-1]:
                    self.assertLess(counts["teardown.snapshot_bytes_kept"] * 20, counts["teardown.snapshot_bytes_read"], counts)

    def test_a_part_moved_to_another_tag_reads_no_other_machine_whole(self):
        for size in SIZES:
            counts = self.move[size]
            with self.subTest(size):
                self.assertEqual(counts["teardown.machines_planned"], 1, counts)
                # The moved machine's head, for its own pages; its image row, for its images.
                self.assertLessEqual(counts.get("teardown.heads_decoded", 0), 1, counts)
                self.assertLessEqual(counts.get("teardown.image_rows_decoded", 0), 1, counts)
                self.assertEqual(counts.get("teardown.summaries_made", 0), 1, counts)
        small, large = (self.move[size] for size in SIZES)
        for name in sorted(small):
            if name in MOVE_GROWING or name in GROWING or name in FOLLOWS_PLAN:
                continue
            with self.subTest(name):
                self.assertLessEqual(large.get(name, 0), max(small[name] * 1.2, small[name] + 1),
                                     f"{name}: {small[name]} at 1,000 parts, {large.get(name, 0)} at 10,000")
        for name, why in MOVE_GROWING.items():
            with self.subTest(name):
                self.assertGreater(small.get(name, 0), 0, f"{name} counts nothing ({why})")
                # More than the same-size rule allows, not three times: the moved machine's own
                # rows are a large share of these.
                self.assertGreater(large.get(name, 0), max(small[name] * 1.2, small[name] + 1),
                                   f"{name} no longer grows with the catalog: take it off MOVE_GROWING ({why})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--teardown", default=TEARDOWN)
    arguments, rest = parser.parse_known_args()
    TEARDOWN = os.path.abspath(arguments.teardown)
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
