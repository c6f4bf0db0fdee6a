"""What apps, feed readers and link previews get from a served site: catalog.json against its
published JSON Schema, the downloads it lists, the Atom feed's links, and a shared link's image.

    python3 Tests/Browser/run.py --teardown .build/debug/teardown outputs_test
"""
import copy
import hashlib
import json
import unittest
import urllib.request
import xml.etree.ElementTree as ElementTree

import jsonschema

from harness import SiteTestCase

ATOM = "{http://www.w3.org/2005/Atom}"


def fetch(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.read()


class OutputsTest(SiteTestCase):
    fixture = "machine-view"
    ready_path = "catalog.json"

    def catalog(self):
        return json.loads(fetch(self.base + "catalog.json")), json.loads(fetch(self.base + "catalog.schema.json"))

    def test_catalog_is_valid_against_its_schema(self):
        catalog, schema = self.catalog()
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
        self.assertEqual([error.message for error in validator.iter_errors(catalog)], [])
        self.assertEqual(catalog["$schema"], self.base + "catalog.schema.json")
        # The schema is strict enough to catch what an app would trip on.
        broken = copy.deepcopy(catalog)
        del broken["machines"][0]["download"]["sha256"]
        broken["machines"][0]["partCount"] = "3"
        messages = [error.message for error in validator.iter_errors(broken)]
        self.assertEqual(len(messages), 2, messages)

    def test_an_app_downloads_each_bundle_and_checks_it(self):
        catalog, _ = self.catalog()
        self.assertEqual([machine["slug"] for machine in catalog["machines"]], ["press"])
        for machine in catalog["machines"]:
            data = fetch(machine["download"]["url"])
            self.assertEqual(len(data), machine["download"]["size"])
            self.assertEqual(hashlib.sha256(data).hexdigest(), machine["download"]["sha256"])
            self.assertEqual(data[:4], b"PK\x03\x04")
            self.assertIn(b'"Press"', fetch(machine["data"]))

    def test_feed_entries_link_to_their_comments(self):
        feed = ElementTree.fromstring(fetch(self.base + "feed.xml"))
        entries = feed.findall(ATOM + "entry")
        self.assertEqual(len(entries), 2)
        for entry in entries:
            link = entry.find(ATOM + "link").get("href")
            page, anchor = link.split("#")
            self.assertIn(f'id="{anchor}"'.encode(), fetch(page), link)
        self.browser.get(entries[0].find(ATOM + "link").get("href"))
        self.assertTrue(self.browser.execute_script(
            "return document.getElementById(location.hash.slice(1)).closest('.entry') !== null"))

    def test_a_shared_link_previews_with_an_image_of_the_size_it_claims(self):
        self.browser.get(self.base + "machines/press/parts/core/")
        meta = self.browser.execute_script("""
            const get = name => document.querySelector(`meta[property="${name}"], meta[name="${name}"]`)?.content;
            return {image: get('og:image'), width: get('og:image:width'), height: get('og:image:height'),
                    title: get('og:title'), card: get('twitter:card'), url: get('og:url')};
        """)
        self.assertEqual(meta["card"], "summary_large_image")
        self.assertEqual(meta["url"], self.base + "machines/press/parts/core/")
        self.assertTrue(meta["title"].startswith("Core"))
        self.browser.get(meta["image"])
        size = self.browser.execute_script("const i = document.images[0]; return [i.naturalWidth, i.naturalHeight];")
        self.assertEqual(size, [int(meta["width"]), int(meta["height"])])


if __name__ == "__main__":
    unittest.main()
