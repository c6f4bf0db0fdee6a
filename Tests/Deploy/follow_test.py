"""`teardown sync --follow --deploy` as a publisher runs it: `teardown intake` takes comments into
its own inbox folder (no write access to the site needed), the resident sync reads that inbox
over HTTP with its token, watches content/ for hand edits, and deploys each change to
moto_server. Visitors post, the publisher edits a description, and Ctrl-C stops it.

    python3 Tests/Deploy/follow_test.py [--teardown .build/debug/teardown]
"""

import argparse
import gzip
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request

import deploy_test
from deploy_test import BUCKET, Store, free_port, local_files, read


def wait_for(what, condition, seconds=120):
    """Waits for `condition`; `seconds` only bounds a test that fails, the rounds take milliseconds."""
    deadline = time.time() + seconds
    while not condition():
        if time.time() > deadline:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.05)


class FollowTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.store = Store()
        cls.scratch = tempfile.mkdtemp(prefix="teardown-follow-")
        cls.site = os.path.join(cls.scratch, "site")
        shutil.copytree(os.path.join(deploy_test.ROOT, "content"), os.path.join(cls.site, "content"))
        with open(os.path.join(cls.site, "content/site.yaml"), "a") as handle:
            handle.write(f"\ndeploy:\n  to: s3://{BUCKET}/live\n  endpoint: {cls.store.endpoint}\n")
        cls.env = {**os.environ, "AWS_ACCESS_KEY_ID": cls.store.key_id, "AWS_SECRET_ACCESS_KEY": cls.store.secret,
                   "NO_COLOR": "1", "TEARDOWN_PAGEFIND": ""}

    @classmethod
    def tearDownClass(cls):
        cls.store.stop()
        shutil.rmtree(cls.scratch, ignore_errors=True)

    def start(self, command, ready):
        log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)
        process = subprocess.Popen(command, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        self.addCleanup(os.unlink, log.name)
        self.addCleanup(lambda: process.poll() is None and process.kill())
        wait_for(f"'{ready}' from {command[1]}", lambda: ready in read(log.name) or process.poll() is not None, 600)
        self.assertIn(ready, read(log.name))
        return process, log.name

    def page(self, key):
        try:
            body = self.store.s3.get_object(Bucket=BUCKET, Key="live/" + key)["Body"].read()
        except self.store.s3.exceptions.NoSuchKey:
            return ""
        return gzip.decompress(body).decode()

    def test_posts_and_a_hand_edit_reach_the_bucket_and_ctrl_c_stops_cleanly(self):
        inbox = os.path.join(self.scratch, "inbox")
        port = free_port()
        intake, _ = self.start([deploy_test.TEARDOWN, "intake", "--site", self.site, "--inbox", inbox, "--port", str(port),
                                "--rate-limit", "100000"], "Taking submissions on")
        self.addCleanup(lambda: (intake.send_signal(signal.SIGINT), intake.wait(timeout=60)))
        follow, log = self.start([deploy_test.TEARDOWN, "sync", "--site", self.site, "--from", f"http://127.0.0.1:{port}/inbox/",
                                  "--token-file", os.path.join(inbox, ".token"), "--follow", "--deploy", "--interval", "60000"],
                                 "Deployed to")
        self.assertIn("Following http://127.0.0.1", read(log))
        page = "machines/desk-fan/parts/switch/index.html"
        self.assertNotEqual(self.page(page), "", "the first round deploys the site")

        for number in range(3):
            body = json.dumps({"machine": "desk-fan", "part": "switch", "author": "Visitor",
                               "body": f"Posted while the publisher follows, number {number}."}).encode()
            request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/comments", data=body,
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=60) as answer:
                self.assertEqual(answer.status, 201)
        # Listed once a minute (--interval 60000), the posts would take up to a minute: intake
        # answers the sync's held request for its manifest as each is published.
        for number in range(3):
            wait_for(f"comment {number} in the bucket", lambda: f"number {number}." in self.page(page), seconds=30)

        description = os.path.join(self.site, "content/machines/desk-fan/parts/switch/description.md")
        with open(description, "a") as handle:
            handle.write("\nEdited by the publisher while following.\n")
        wait_for("the hand edit in the bucket", lambda: "Edited by the publisher while following." in self.page(page))

        follow.send_signal(signal.SIGINT)
        self.assertEqual(follow.wait(timeout=60), 0, read(log)[-3000:])
        self.assertIn("Stopped: the output is as the last build left it.", read(log))
        self.assertNotIn("error", read(log).lower(), read(log)[-3000:])
        # Nothing half-published: the bucket is the site, and the site is what a full build makes.
        public = os.path.join(self.site, "public")
        self.assertEqual(self.store.contents("live/"), local_files(public))
        full = os.path.join(self.scratch, "full")
        built = subprocess.run([deploy_test.TEARDOWN, "build", "--site", self.site, "--full", "--output", full],
                               capture_output=True, text=True, env=self.env, timeout=600)
        self.assertEqual(built.returncode, 0, built.stderr)
        self.assertEqual(local_files(full), local_files(public))

    def test_with_search_a_comment_is_deployed_before_its_index(self):
        """The page first, the index after: a round that re-indexes search deploys twice, the
        pages between the build's two publishes and the search index after it."""
        site = os.path.join(self.scratch, "search-site")
        shutil.copytree(os.path.join(deploy_test.ROOT, "content"), os.path.join(site, "content"))
        with open(os.path.join(site, "content/site.yaml"), "a") as handle:
            handle.write(f"\ndeploy:\n  to: s3://{BUCKET}/search\n  endpoint: {self.store.endpoint}\n")
        inbox = os.path.join(self.scratch, "search-inbox")
        os.makedirs(inbox)
        env = {key: value for key, value in self.env.items() if key != "TEARDOWN_PAGEFIND"}
        log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)
        self.addCleanup(os.unlink, log.name)
        follow = subprocess.Popen([deploy_test.TEARDOWN, "sync", "--site", site, "--from", inbox, "--follow", "--deploy"],
                                  env=env, stdout=log, stderr=subprocess.STDOUT)
        self.addCleanup(lambda: follow.poll() is None and follow.kill())
        wait_for("the first deploy", lambda: "Deployed to" in read(log.name), 600)
        self.assertIn("pagefind/pagefind-entry.json", self.store.contents("search/"), "the site is built with its index")
        before = read(log.name).count("Deployed to")
        with open(os.path.join(inbox, "quixotic.comment.md"), "w") as handle:
            handle.write("---\nmachine: desk-fan\npart: switch\nauthor: \"Visitor\"\ndate: 2025-03-01\n---\n"
                         "A quixotic comment, deployed before its index.\n")
        wait_for("the comment's round deployed twice", lambda: read(log.name).count("Deployed to") >= before + 2)
        page = gzip.decompress(self.store.s3.get_object(Bucket=BUCKET, Key="search/machines/desk-fan/parts/switch/index.html")
                               ["Body"].read()).decode()
        self.assertIn("A quixotic comment", page)
        follow.send_signal(signal.SIGINT)
        self.assertEqual(follow.wait(timeout=60), 0, read(log.name)[-3000:])
        self.assertEqual(read(log.name).count("Deployed to"), before + 2, "the pages, then the index: " + read(log.name)[-3000:])
        self.assertNotIn("error", read(log.name).lower(), read(log.name)[-3000:])
        self.assertEqual(self.store.contents("search/"), local_files(os.path.join(site, "public")), "the bucket is the site")

    def test_sigterm_stops_it_between_rounds_and_a_second_signal_at_once(self):
        """As `systemctl stop` stops the service: SIGTERM, exit 0, nothing left running."""
        inbox = os.path.join(self.scratch, "folder-inbox")
        os.makedirs(inbox, exist_ok=True)
        follow, log = self.start([deploy_test.TEARDOWN, "sync", "--site", self.site, "--from", inbox, "--follow"],
                                 "Following")
        wait_for("the first round", lambda: "Built" in read(log) or "Up to date" in read(log))
        follow.send_signal(signal.SIGTERM)
        self.assertEqual(follow.wait(timeout=60), 0, read(log)[-3000:])
        self.assertIn("Stopped: the output is as the last build left it.", read(log))
        # Two signals during a round: the second stops it at once, with the status of an interrupted command.
        with open(os.path.join(self.site, "content/machines/desk-fan/parts/switch/description.md"), "a") as handle:
            handle.write("\nEdited before the start, so that the first round builds.\n")
        follow, log = self.start([deploy_test.TEARDOWN, "sync", "--site", self.site, "--from", inbox, "--follow"],
                                 "Following")
        follow.send_signal(signal.SIGINT)
        wait_for("the first signal noted", lambda: "Stopping after the round in flight" in read(log))
        follow.send_signal(signal.SIGINT)
        self.assertIn(follow.wait(timeout=60), (0, 130), read(log)[-3000:])

    def test_the_watch_limit_met_while_following_is_said_and_loses_no_change(self):
        """In a user namespace of its own whose inotify watch limit is what the site takes at the
        start (the kernel's own ENOSPC, as a large site meets it): the part folder moved in next
        meets the limit. The switch to walking is said, and the part is published."""
        if shutil.which("unshare") is None:
            self.skipTest("unshare is not installed")
        site = os.path.join(self.scratch, "limit-site")
        shutil.copytree(self.site, site)
        inbox = os.path.join(self.scratch, "limit-inbox")
        os.makedirs(inbox, exist_ok=True)
        command = [deploy_test.TEARDOWN, "sync", "--site", site, "--from", inbox, "--follow"]
        # How many watches it takes, read from its inotify descriptor (unshare execs it: one process).
        follow, log = self.start(["unshare", "--user", "--map-root-user", *command], "Following")
        wait_for("the first round", lambda: "Built" in read(log) or "Up to date" in read(log))
        watches = 0
        for descriptor in os.listdir(f"/proc/{follow.pid}/fdinfo"):
            with open(f"/proc/{follow.pid}/fdinfo/{descriptor}") as handle:
                watches += sum(1 for line in handle if line.startswith("inotify wd:"))
        self.assertGreater(watches, 10, read(log))
        follow.send_signal(signal.SIGINT)
        self.assertEqual(follow.wait(timeout=60), 0, read(log)[-3000:])
        limited = f"echo {watches} > /proc/sys/user/max_inotify_watches && exec \"$@\""
        follow, log = self.start(["unshare", "--user", "--map-root-user", "sh", "-c", limited, "sh", *command], "Following")
        self.assertIn("published as they come", read(log), "it starts with every folder watched")
        wait_for("the first round", lambda: "Built" in read(log) or "Up to date" in read(log))
        # Made beside the site, then moved in at once: one folder more than the limit.
        part = os.path.join(self.scratch, "dial")
        shutil.copytree(os.path.join(site, "content/machines/desk-fan/parts/switch"), part)
        with open(os.path.join(part, "part.yaml"), "w") as handle:
            handle.write('name: "Timer dial"\nlayer: {image: switch.svg, z: 2}\ntags: [electrical]\n')
        os.rename(part, os.path.join(site, "content/machines/desk-fan/parts/dial"))
        page = os.path.join(site, "public/machines/desk-fan/parts/dial/index.html")
        wait_for("the new part's page", lambda: os.path.exists(page), 60)
        self.assertIn("inotify watch limit is reached", read(log))
        follow.send_signal(signal.SIGINT)
        self.assertEqual(follow.wait(timeout=60), 0, read(log)[-3000:])


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--teardown", default=deploy_test.TEARDOWN)
    options, rest = parser.parse_known_args()
    deploy_test.TEARDOWN = os.path.abspath(options.teardown)
    unittest.main(argv=[sys.argv[0], "-v", *rest])
