"""`teardown deploy` against a real S3-compatible server: moto_server on a free loopback port,
with signature checking on, so a request libcurl signs wrongly fails as it would on AWS.
Every check reads the bucket through the S3 API (boto3), not through Teardown's own view.

    python3 Tests/Deploy/deploy_test.py [--teardown .build/debug/teardown]
"""

import argparse
import functools
import glob
import gzip
import hashlib
import http.client
import http.server
import json
import os
import random
import re
import shutil
import signal
import socket
import threading
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request

import boto3

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TEARDOWN = os.path.join(ROOT, ".build/debug/teardown")
BUCKET = "catalog"
TYPES = {"html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
         "json": "application/json", "xml": "application/xml", "svg": "image/svg+xml", "webp": "image/webp",
         "jpg": "image/jpeg", "png": "image/png", "zip": "application/zip", "txt": "text/plain; charset=utf-8"}
# Stored gzip-compressed, with Content-Encoding: gzip.
TEXT = {"html", "css", "js", "mjs", "json", "xml", "atom", "txt", "svg"}


def is_text(name):
    return "." in name.rsplit("/", 1)[-1] and name.rsplit(".", 1)[-1].lower() in TEXT


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Store:
    """moto_server with its authentication on: the first requests (unsigned) make a user with
    keys, and from then on every request must carry a valid SigV4 signature."""

    def __init__(self):
        self.port = free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(["moto_server", "-p", str(self.port)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        env={**os.environ, "INITIAL_NO_AUTH_ACTION_COUNT": "3"})
        for _ in range(100):
            try:
                urllib.request.urlopen(self.endpoint + "/moto-api/", timeout=1)
                break
            except Exception:
                time.sleep(0.1)
        iam = boto3.client("iam", endpoint_url=self.endpoint, region_name="us-east-1",
                           aws_access_key_id="setup", aws_secret_access_key="setup")
        iam.create_user(UserName="deployer")
        iam.put_user_policy(UserName="deployer", PolicyName="all", PolicyDocument=json.dumps(
            {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}))
        key = iam.create_access_key(UserName="deployer")["AccessKey"]
        self.key_id, self.secret = key["AccessKeyId"], key["SecretAccessKey"]
        self.s3 = boto3.client("s3", endpoint_url=self.endpoint, region_name="us-east-1",
                               aws_access_key_id=self.key_id, aws_secret_access_key=self.secret)
        self.s3.create_bucket(Bucket=BUCKET)

    def objects(self, prefix):
        """name (without the prefix) -> (size, ETag), hidden objects left out."""
        found = {}
        # The whole bucket, filtered here: moto checks the signature of a query holding %2F
        # (as boto3 encodes a "/" in a prefix) differently from how boto3 made it.
        for page in self.s3.get_paginator("list_objects_v2").paginate(Bucket=BUCKET):
            for item in page.get("Contents", []):
                if not item["Key"].startswith(prefix):
                    continue
                name = item["Key"][len(prefix):]
                if not name.startswith("."):
                    found[name] = (item["Size"], item["ETag"].strip('"'))
        return found

    def contents(self, prefix):
        """name -> (size, MD5) of each object's content as a browser gets it: downloaded, and
        decompressed when stored with Content-Encoding: gzip."""
        found = {}
        for name in self.objects(prefix):
            got = self.s3.get_object(Bucket=BUCKET, Key=prefix + name)
            body = got["Body"].read()
            if got.get("ContentEncoding") == "gzip":
                body = gzip.decompress(body)
            found[name] = (len(body), hashlib.md5(body).hexdigest())
        return found

    def stop(self):
        self.process.kill()
        self.process.wait()


def read(path):
    with open(path) as handle:
        return handle.read()


def local_files(folder):
    """name -> (size, MD5) for every visible file of a built site."""
    found = {}
    for base, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if not name.startswith(".")]
        for name in files:
            if name.startswith("."):
                continue
            path = os.path.join(base, name)
            with open(path, "rb") as handle:
                data = handle.read()
            found[os.path.relpath(path, folder)] = (len(data), hashlib.md5(data).hexdigest())
    return found


class FlakyProxy:
    """Stands between Teardown and the store and answers 503 to the first upload of every
    object, as a store under load does now and then; everything else passes through as it
    came, Host header and all, so the signatures still hold. With `flaky` off it refuses
    nothing and only notes each request: its method, path and the bytes each way. With `hold`,
    it holds the first upload of an object whose path holds it until `release` is set, and sets
    `holding` meanwhile."""

    def __init__(self, target_port, flaky=True, hold=None):
        refused = set()
        self.refusals = 0
        self.requests = []
        self.holding, self.release = threading.Event(), threading.Event()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *arguments):
                pass

            def relay(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0) or 0))
                if hold and self.command == "PUT" and f"/{hold}" in self.path and "/." not in self.path \
                        and not proxy.holding.is_set():
                    proxy.holding.set()
                    proxy.release.wait(120)
                if flaky and self.command == "PUT" and self.path not in refused:
                    refused.add(self.path)
                    proxy.refusals += 1
                    self.send_response(503)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                upstream = http.client.HTTPConnection("127.0.0.1", target_port, timeout=60)
                upstream.request(self.command, self.path, body=body, headers=dict(self.headers))
                answer = upstream.getresponse()
                data = answer.read()
                self.send_response(answer.status)
                for name, value in answer.getheaders():
                    if name.lower() not in ("content-length", "transfer-encoding", "connection"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                upstream.close()
                proxy.requests.append((self.command, urllib.parse.unquote(self.path), len(body), len(data)))

            do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = relay

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.release.set()
        self.server.shutdown()


def waiting_for_lock(pid):
    """Whether process `pid` waits for a file lock (a blocked request in /proc/locks)."""
    with open("/proc/locks") as handle:
        return any("->" in line and f" {pid} " in line for line in handle)


class DeployTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.store = Store()
        cls.scratch = tempfile.mkdtemp(prefix="teardown-deploy-")
        cls.site = os.path.join(cls.scratch, "site")
        os.makedirs(cls.site)
        shutil.copytree(os.path.join(ROOT, "content"), os.path.join(cls.site, "content"))
        cls.build()

    @classmethod
    def tearDownClass(cls):
        cls.store.stop()
        shutil.rmtree(cls.scratch, ignore_errors=True)

    @classmethod
    def build(cls):
        result = subprocess.run([TEARDOWN, "build", "--site", cls.site], capture_output=True, text=True,
                                env={**os.environ, "TEARDOWN_PAGEFIND": os.environ.get("TEARDOWN_PAGEFIND", "")})
        assert result.returncode == 0, result.stderr

    def deploy_command(self, prefix, *extra, key_id=None, endpoint=None, output=None):
        env = {**os.environ, "AWS_ACCESS_KEY_ID": key_id or self.store.key_id,
               "AWS_SECRET_ACCESS_KEY": self.store.secret, "HOME": self.scratch}
        command = [TEARDOWN, "deploy", "--site", self.site, "--to", f"s3://{BUCKET}/{prefix}",
                   "--endpoint", endpoint or self.store.endpoint, *extra]
        if output:
            command += ["--output", output]
        return command, env

    def deploy(self, prefix, *extra, key_id=None, endpoint=None, output=None):
        command, env = self.deploy_command(prefix, *extra, key_id=key_id, endpoint=endpoint, output=output)
        return subprocess.run(command, capture_output=True, text=True, env=env, timeout=300)

    def counts(self, result):
        found = re.search(r"(\d+) new, (\d+) replaced .*?(\d+) to delete, (\d+) unchanged", result.stdout)
        self.assertIsNotNone(found, result.stdout + result.stderr)
        return tuple(int(value) for value in found.groups())

    def public(self):
        return os.path.join(self.site, "public")

    def bucket_submit(self, bucket, name, body):
        """A comment on the desk fan's switch, put into a bucket inbox as intake writes one."""
        comment = (f"---\nmachine: desk-fan\npart: switch\nauthor: \"Tester\"\ndate: 2025-03-01\n---\n{body}\n").encode()
        self.store.s3.put_object(Bucket=bucket, Key=f"{name}.comment.md", Body=comment)
        manifest = {"version": 1, "submissions": [{"id": name, "files": [f"{name}.comment.md"],
                                                   "sha256": {f"{name}.comment.md": hashlib.sha256(comment).hexdigest()}}]}
        self.store.s3.put_object(Bucket=bucket, Key=f"{name}.manifest.json", Body=json.dumps(manifest).encode())

    def bucket_sync(self, bucket):
        """`teardown sync` from the bucket inbox, built as the other tests build the site (no search index)."""
        env = {**os.environ, "AWS_ACCESS_KEY_ID": self.store.key_id, "AWS_SECRET_ACCESS_KEY": self.store.secret,
               "NO_COLOR": "1", "TEARDOWN_PAGEFIND": os.environ.get("TEARDOWN_PAGEFIND", "")}
        result = subprocess.run([TEARDOWN, "sync", "--site", self.site, "--from", f"s3://{bucket}",
                                 "--endpoint", self.store.endpoint], capture_output=True, text=True, env=env, timeout=300)
        self.assertEqual(result.returncode, 0, result.stdout[-3000:] + result.stderr[-3000:])
        return result.stdout

    def test_1_first_deploy_sets_types_and_caching_and_a_second_uploads_nothing(self):
        first = self.deploy("first")
        self.assertEqual(first.returncode, 0, first.stderr)
        self.assertEqual(self.store.contents("first/"), local_files(self.public()), "the bucket equals public/")
        for name in self.store.objects("first/"):
            head = self.store.s3.head_object(Bucket=BUCKET, Key="first/" + name)
            extension = name.rsplit(".", 1)[-1]
            if extension in TYPES:
                self.assertEqual(head["ContentType"], TYPES[extension], name)
            # The comments' downloads change with every comment, as pages do.
            page = extension in ("html", "xml", "json", "txt") or name.startswith("downloads/comments/")
            expected = "public, max-age=60" if page else "public, max-age=3600"
            if extension in ("pf_fragment", "pf_index", "pf_meta"):
                expected = "public, max-age=31536000, immutable"
            self.assertEqual(head["CacheControl"], expected, name)
            # Text goes up compressed, a quarter of its size; images, downloads and Pagefind's
            # own compressed files as they are.
            self.assertEqual(head.get("ContentEncoding"), "gzip" if is_text(name) else None, name)
        stored, local = self.store.objects("first/"), local_files(self.public())
        text = [name for name in local if is_text(name)]
        self.assertGreater(len(text), 100)
        self.assertLess(sum(stored[name][0] for name in text), sum(local[name][0] for name in text) / 2.5)
        second = self.deploy("first")
        self.assertEqual(second.returncode, 0, second.stderr)
        new, replaced, deleted, unchanged = self.counts(second)
        self.assertEqual((new, replaced, deleted), (0, 0, 0), second.stdout)
        self.assertEqual(unchanged, len(local_files(self.public())))

    def test_2_a_synced_comment_uploads_only_what_it_changed(self):
        self.assertEqual(self.deploy("comment").returncode, 0)
        before = local_files(self.public())
        comments = os.path.join(self.site, "content/machines/desk-fan/parts/switch/comments")
        with open(os.path.join(comments, "deploy-test.md"), "w") as handle:
            handle.write('---\nauthor: "Lin"\ndate: 2025-01-02\n---\nThe switch clicks twice since I cleaned it.\n')
        self.build()
        after = local_files(self.public())
        changed = {name for name in after if before.get(name) != after[name]}
        proxy = FlakyProxy(self.store.port, flaky=False)
        try:
            result = self.deploy("comment", endpoint=proxy.endpoint)
        finally:
            proxy.stop()
        self.assertEqual(result.returncode, 0, result.stderr)
        new, replaced, _, _ = self.counts(result)
        self.assertEqual(new + replaced, len(changed), f"uploaded what changed: {sorted(changed)}")
        self.assertLess(len(changed), 40, "a comment changes a handful of outputs, not the site")
        self.assertEqual(self.store.contents("comment/"), after)
        # The manifest is read and written where the comment changed it: the index, and at most
        # the shard of each changed file each way; no object of it holds a line for every file.
        manifest = [(method, path, sent, received) for method, path, sent, received in proxy.requests
                    if "/comment/.teardown-deploy" in path]
        shards = [request for request in manifest if "/.teardown-deploy.d/" in request[1]]
        self.assertLessEqual(len([r for r in shards if r[0] == "GET"]), len(changed), manifest)
        self.assertLessEqual(len([r for r in shards if r[0] == "PUT"]), len(changed), manifest)
        self.assertEqual(len(manifest) - len(shards), 2, f"the index read once and written once: {manifest}")
        whole = sum(65 + len(str(size)) + 1 + len(name) + 1 for name, (size, _) in after.items())
        self.assertTrue(all(max(sent, received) < whole / 4 for _, _, sent, received in manifest),
                        f"a manifest object as large as the site's listing ({whole} bytes): {manifest}")
        self.assertFalse(any("list-type" in request[1] for request in proxy.requests), "the bucket is not listed")
        os.remove(os.path.join(comments, "deploy-test.md"))
        self.build()

    def test_3_a_removed_page_is_deleted_and_max_deletes_holds(self):
        self.assertEqual(self.deploy("removed").returncode, 0)
        page = os.path.join(self.site, "content/manual/outputs.md")
        summary = os.path.join(self.site, "content/manual/SUMMARY.md")
        with open(page) as first, open(summary) as second:
            saved = (first.read(), second.read())
        os.remove(page)
        with open(summary, "w") as handle:
            handle.write("".join(line for line in saved[1].splitlines(True) if "outputs.md" not in line))
        try:
            self.build()
            refused = self.deploy("removed", "--max-deletes", "0")
            self.assertEqual(refused.returncode, 0, refused.stderr)
            self.assertIn("none was deleted", refused.stderr)
            self.assertIn("manual/outputs/index.html", self.store.objects("removed/"), "--max-deletes 0 deletes nothing")
            done = self.deploy("removed")
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertNotIn("manual/outputs/index.html", self.store.objects("removed/"))
            self.assertEqual(self.store.contents("removed/"), local_files(self.public()))
        finally:
            with open(page, "w") as handle:
                handle.write(saved[0])
            with open(summary, "w") as handle:
                handle.write(saved[1])
            self.build()

    def test_4_a_dry_run_prints_the_plan_and_touches_nothing(self):
        result = self.deploy("dry", "--dry-run")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("upload   index.html", result.stdout)
        self.assertIn("nothing was changed", result.stdout)
        self.assertEqual(self.store.objects("dry/"), {})
        self.assertFalse(any(item["Key"].startswith("dry/")
                             for item in self.store.s3.list_objects_v2(Bucket=BUCKET).get("Contents", [])))

    def test_5_a_deploy_killed_at_random_moments_is_finished_by_the_next(self):
        seed = int(os.environ.get("TEARDOWN_KILL_SEED", random.randrange(1 << 30)))
        print(f"\nkill seed {seed} (TEARDOWN_KILL_SEED replays it)", file=sys.stderr)
        chance = random.Random(seed)
        env = {**os.environ, "AWS_ACCESS_KEY_ID": self.store.key_id, "AWS_SECRET_ACCESS_KEY": self.store.secret}
        # Ctrl-C as a person stops it, and SIGKILL as a machine going down does, in turn.
        for attempt in range(4):
            process = subprocess.Popen([TEARDOWN, "deploy", "--site", self.site, "--to", f"s3://{BUCKET}/killed",
                                        "--endpoint", self.store.endpoint], env=env,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(chance.uniform(0.05, 1.5))
            process.send_signal(signal.SIGINT if attempt % 2 == 0 else signal.SIGKILL)
            process.wait()
        finished = self.deploy("killed")
        self.assertEqual(finished.returncode, 0, finished.stderr)
        self.assertEqual(self.store.contents("killed/"), local_files(self.public()), f"seed {seed}")

    def test_6_wrong_keys_and_a_dead_endpoint_fail_clearly_and_delete_nothing(self):
        self.assertEqual(self.deploy("guarded").returncode, 0)
        before = self.store.objects("guarded/")
        wrong = self.deploy("guarded", "--max-deletes", "1000", key_id="AKIAWRONGWRONGWRONG1")
        self.assertEqual(wrong.returncode, 1)
        self.assertIn(f"error: {self.store.endpoint} refused the credentials", wrong.stderr)
        self.assertNotIn(self.store.secret, wrong.stderr + wrong.stdout, "credentials are never printed")
        dead = f"http://127.0.0.1:{free_port()}"
        unreachable = self.deploy("guarded", endpoint=dead)
        self.assertEqual(unreachable.returncode, 1)
        self.assertIn(f"error: cannot reach {dead}", unreachable.stderr)
        self.assertEqual(self.store.objects("guarded/"), before)

    def test_71_a_folder_no_build_writes_is_compared_whole_each_time(self):
        folder = os.path.join(self.scratch, "by-hand")
        os.makedirs(folder, exist_ok=True)
        page = os.path.join(folder, "index.html")
        with open(page, "w") as handle:
            handle.write("<!doctype html><title>One</title>")
        self.assertEqual(self.deploy("by-hand", output=folder).returncode, 0)
        with open(page, "w") as handle:
            handle.write("<!doctype html><title>Two, edited by hand</title>")
        again = self.deploy("by-hand", output=folder)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertEqual(self.counts(again)[:2], (0, 1), "the edit is sent")
        self.assertEqual(self.store.contents("by-hand/"), local_files(folder))

    def test_7_an_object_over_64_mb_goes_up_in_parts(self):
        folder = os.path.join(self.scratch, "large")
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, "index.html"), "w") as handle:
            handle.write("<!doctype html><title>Large</title>")
        data = random.Random(7).randbytes(70 << 20)
        with open(os.path.join(folder, "video.bin"), "wb") as handle:
            handle.write(data)
        result = self.deploy("large", output=folder)
        self.assertEqual(result.returncode, 0, result.stderr)
        body = self.store.s3.get_object(Bucket=BUCKET, Key="large/video.bin")["Body"].read()
        self.assertEqual(hashlib.sha256(body).hexdigest(), hashlib.sha256(data).hexdigest())
        self.assertIn("-", self.store.s3.head_object(Bucket=BUCKET, Key="large/video.bin")["ETag"], "a multipart ETag")

    def test_8_sync_deploy_syncs_builds_and_deploys_to_the_bucket_in_site_yaml(self):
        settings = os.path.join(self.site, "content/site.yaml")
        with open(settings) as handle:
            saved = handle.read()
        inbox = os.path.join(self.scratch, "inbox")
        os.makedirs(inbox, exist_ok=True)
        with open(os.path.join(inbox, "cron1.comment.md"), "w") as handle:
            handle.write("---\nmachine: desk-fan\npart: switch\nauthor: Cron\ndate: 2025-02-03\n---\n"
                         "Synced and deployed in one line.\n")
        try:
            with open(settings, "a") as handle:
                handle.write(f"\ndeploy:\n  to: s3://{BUCKET}/cron\n  endpoint: {self.store.endpoint}\n"
                             "  cache_control:\n    pages: no-cache\n")
            env = {**os.environ, "AWS_ACCESS_KEY_ID": self.store.key_id, "AWS_SECRET_ACCESS_KEY": self.store.secret}
            result = subprocess.run([TEARDOWN, "sync", "--site", self.site, "--from", inbox, "--deploy"],
                                    capture_output=True, text=True, env=env, timeout=300)
            self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
            self.assertIn("Deployed to s3://catalog/cron/", result.stdout)
            self.assertEqual(self.store.contents("cron/"), local_files(self.public()))
            page = self.store.s3.get_object(Bucket=BUCKET, Key="cron/machines/desk-fan/parts/switch/index.html")
            self.assertIn("Synced and deployed in one line.", gzip.decompress(page["Body"].read()).decode())
            self.assertEqual(page["CacheControl"], "no-cache", "site.yaml's cache_control is used")
        finally:
            with open(settings, "w") as handle:
                handle.write(saved)
            for base, _, files in os.walk(os.path.join(self.site, "content")):
                for name in files:
                    if name.startswith("cron1"):
                        os.remove(os.path.join(base, name))
            self.build()

    def start_intake(self, inbox, env, *extra):
        port = free_port()
        log = tempfile.NamedTemporaryFile("w+", suffix=".log", delete=False)
        process = subprocess.Popen([TEARDOWN, "intake", "--site", self.site, "--inbox", inbox,
                                    "--endpoint", self.store.endpoint, "--port", str(port), *extra],
                                   env=env, stdout=log, stderr=subprocess.STDOUT)
        for _ in range(600):
            if "Taking submissions on" in read(log.name) or process.poll() is not None:
                break
            time.sleep(0.1)
        self.assertIn("Taking submissions on", read(log.name))
        return process, port, log

    def test_91_moderation_works_on_a_bucket_inbox(self):
        self.store.s3.create_bucket(Bucket="moderated")
        env = {**os.environ, "AWS_ACCESS_KEY_ID": self.store.key_id, "AWS_SECRET_ACCESS_KEY": self.store.secret,
               "NO_COLOR": "1"}
        settings = os.path.join(self.site, "content/site.yaml")
        saved = read(settings)
        with open(settings, "a") as handle:
            handle.write("\nmoderation: true\n")
        process, port, log = self.start_intake("s3://moderated", env)
        try:
            ids = []
            for words in ("Held, then approved.", "Held, then rejected."):
                request = urllib.request.Request(
                    f"http://127.0.0.1:{port}/api/v1/comments", headers={"Content-Type": "application/json"},
                    data=json.dumps({"machine": "desk-fan", "author": "Mod", "body": words}).encode())
                with urllib.request.urlopen(request, timeout=60) as answer:
                    reply = json.loads(answer.read())
                self.assertEqual(reply["status"], "held")
                ids.append(reply["id"])
        finally:
            process.send_signal(signal.SIGINT)
            process.wait(timeout=20)
            os.unlink(log.name)
            with open(settings, "w") as handle:
                handle.write(saved)
        moderate = [TEARDOWN, "moderate", "--inbox", "s3://moderated", "--endpoint", self.store.endpoint]
        sync = [TEARDOWN, "sync", "--site", self.site, "--from", "s3://moderated", "--endpoint", self.store.endpoint]
        listed = subprocess.run(moderate + ["list"], capture_output=True, text=True, env=env)
        self.assertEqual(listed.returncode, 0, listed.stderr)
        self.assertIn("Held, then approved.", listed.stdout)
        self.assertIn("2 waiting", listed.stdout)
        before = subprocess.run(sync, capture_output=True, text=True, env=env, timeout=300)
        self.assertIn("0 accepted", before.stdout, "held submissions are not synced")
        self.assertEqual(subprocess.run(moderate + ["approve", ids[0]], capture_output=True, env=env).returncode, 0)
        self.assertEqual(subprocess.run(moderate + ["reject", ids[1]], capture_output=True, env=env).returncode, 0)
        self.assertIn("Nothing is waiting", subprocess.run(moderate + ["list"], capture_output=True, text=True, env=env).stdout)
        after = subprocess.run(sync, capture_output=True, text=True, env=env, timeout=300)
        self.assertEqual(after.returncode, 0, after.stderr)
        self.assertIn("1 accepted, 0 rejected", after.stdout)
        keys = [item["Key"] for item in self.store.s3.list_objects_v2(Bucket="moderated").get("Contents", [])]
        self.assertFalse(any(ids[1] in key for key in keys), "a rejected submission leaves nothing")
        pruned = subprocess.run(moderate + ["prune", "--before", "2999-01-01"], capture_output=True, text=True, env=env)
        self.assertIn("Pruned 1 submission", pruned.stdout, pruned.stderr)
        self.assertEqual(self.store.s3.list_objects_v2(Bucket="moderated").get("KeyCount"), 0)
        for base, _, files in os.walk(os.path.join(self.site, "content")):
            for name in files:
                if ids[0] in name:
                    os.remove(os.path.join(base, name))

    def test_9_two_intakes_share_one_bucket_inbox_and_sync_files_each_comment_once(self):
        self.store.s3.create_bucket(Bucket="inbox")
        env = {**os.environ, "AWS_ACCESS_KEY_ID": self.store.key_id, "AWS_SECRET_ACCESS_KEY": self.store.secret,
               "NO_COLOR": "1"}
        services = []
        try:
            for _ in range(2):
                services.append(self.start_intake("s3://inbox", env, "--rate-limit", "100000"))
                self.assertIn("Sync reads s3://inbox/", read(services[-1][2].name))
            # The service's own /inbox/ does not pass for the bucket with an empty manifest.
            token = read(os.path.join(self.site, f".teardown-cache/intake/127.0.0.1-{services[0][1]}/.token")).strip()
            request = urllib.request.Request(f"http://127.0.0.1:{services[0][1]}/inbox/manifest.json",
                                             headers={"Authorization": f"Bearer {token}"})
            with self.assertRaises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=10)
            self.assertEqual(refused.exception.code, 404)
            self.assertIn("kept in s3://inbox/", refused.exception.read().decode())
            acknowledged, failures = [], []

            def post(numbers):
                for number in numbers:
                    port = services[number % 2][1]
                    body = json.dumps({"machine": "desk-fan", "part": "switch", "author": f"Poster {number % 7}",
                                       "body": f"Comment number {number}: the switch still works."}).encode()
                    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/comments", data=body,
                                                     headers={"Content-Type": "application/json"})
                    try:
                        with urllib.request.urlopen(request, timeout=60) as answer:
                            acknowledged.append(json.loads(answer.read())["id"])
                    except Exception as error:  # noqa: BLE001 - every failure is reported below
                        failures.append(f"{number}: {error}")

            # Alternately to the two services; four posters at once for the second half.
            post(range(500))
            posters = [threading.Thread(target=post, args=(range(500 + start, 1000, 4),)) for start in range(4)]
            for poster in posters:
                poster.start()
            for poster in posters:
                poster.join()
            self.assertEqual(failures, [])
            self.assertEqual(len(set(acknowledged)), 1000)
            manifests = [item["Key"] for page in self.store.s3.get_paginator("list_objects_v2").paginate(Bucket="inbox")
                         for item in page.get("Contents", []) if item["Key"].endswith(".manifest.json")]
            self.assertEqual(len(manifests), 1000, "one manifest object per acknowledged submission")
            sync = [TEARDOWN, "sync", "--site", self.site, "--from", "s3://inbox", "--endpoint", self.store.endpoint]
            first = subprocess.run(sync, capture_output=True, text=True, env=env, timeout=900)
            self.assertEqual(first.returncode, 0, first.stdout[-3000:] + first.stderr[-3000:])
            self.assertIn("1000 accepted, 0 rejected", first.stdout)
            second = subprocess.run(sync, capture_output=True, text=True, env=env, timeout=900)
            self.assertEqual(second.returncode, 0, second.stderr[-3000:])
            self.assertIn("0 accepted, 0 rejected", second.stdout)
        finally:
            for process, _, log in services:
                process.send_signal(signal.SIGINT)
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()
                os.unlink(log.name)

    def test_10_server_errors_are_retried(self):
        proxy = FlakyProxy(self.store.port)
        try:
            result = self.deploy("flaky", endpoint=proxy.endpoint)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertGreater(proxy.refusals, 100, "every upload met a 503 first")
            self.assertEqual(self.store.contents("flaky/"), local_files(self.public()))
        finally:
            proxy.stop()

    def test_11_a_one_object_manifest_is_read_and_one_naming_keys_outside_the_site_is_not_trusted(self):
        self.assertEqual(self.deploy("legacy").returncode, 0)
        files = {}
        for base, folders, names in os.walk(self.public()):
            folders[:] = [name for name in folders if not name.startswith(".")]
            for name in names:
                if not name.startswith("."):
                    path = os.path.join(base, name)
                    with open(path, "rb") as handle:
                        data = handle.read()
                    files[os.path.relpath(path, self.public())] = (hashlib.sha256(data).hexdigest(), len(data))

        def keys(prefix):
            # The whole bucket, filtered here, as `Store.objects` does: moto checks a prefix with a "/" apart.
            return [item["Key"] for page in self.store.s3.get_paginator("list_objects_v2").paginate(Bucket=BUCKET)
                    for item in page.get("Contents", []) if item["Key"].startswith(prefix)]

        def put_manifest(extra=""):
            for key in keys("legacy/.teardown-deploy"):
                self.store.s3.delete_object(Bucket=BUCKET, Key=key)
            lines = "".join(f"{digest} {size} {name}\n" for name, (digest, size) in sorted(files.items()))
            self.store.s3.put_object(Bucket=BUCKET, Key="legacy/.teardown-deploy",
                                     Body=("teardown-deploy 1\n" + lines + extra).encode())

        # The one-object manifest of earlier versions: read as it is, then replaced by shards.
        # It lists what it stored uncompressed: text is put back compressed, the rest is kept.
        put_manifest()
        result = self.deploy("legacy")
        self.assertEqual(result.returncode, 0, result.stderr)
        text = len([name for name in files if is_text(name)])
        self.assertEqual(self.counts(result), (0, text, 0, len(files) - text), result.stdout)
        index = self.store.s3.get_object(Bucket=BUCKET, Key="legacy/.teardown-deploy")["Body"].read().decode()
        self.assertTrue(index.startswith("teardown-deploy 2\n"), index[:80])
        shards = len(keys("legacy/.teardown-deploy.d/"))
        self.assertEqual(shards, len(index.splitlines()) - 1, "a shard for each line of the index")

        # A manifest naming keys outside the prefix is damaged: the bucket is listed, and
        # nothing outside the prefix is deleted.
        self.store.s3.put_object(Bucket=BUCKET, Key="victim.txt", Body=b"not the site's")
        zeros = "0" * 64
        put_manifest(f"{zeros} 3 ../victim.txt\n{zeros} 3 /victim.txt\n")
        result = self.deploy("legacy")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(self.counts(result)[2], 0, result.stdout)
        self.assertEqual(self.store.s3.get_object(Bucket=BUCKET, Key="victim.txt")["Body"].read(), b"not the site's")
        self.assertEqual(self.store.contents("legacy/"), local_files(self.public()))

    def test_13_verify_puts_back_what_was_deleted_or_changed_behind_deploys_back(self):
        self.assertEqual(self.deploy("verified").returncode, 0)
        self.store.s3.delete_object(Bucket=BUCKET, Key="verified/index.html")
        self.store.s3.put_object(Bucket=BUCKET, Key="verified/search/index.html", Body=b"defaced")
        trusting = self.deploy("verified")
        self.assertEqual(trusting.returncode, 0, trusting.stderr)
        self.assertEqual(self.counts(trusting)[:2], (0, 0), "the manifest says all is there: " + trusting.stdout)
        verified = self.deploy("verified", "--verify")
        self.assertEqual(verified.returncode, 0, verified.stderr)
        self.assertEqual(self.counts(verified)[:2], (1, 1), verified.stdout)
        self.assertEqual(self.store.contents("verified/"), local_files(self.public()))
        # And the manifest it wrote is trusted again.
        self.assertEqual(self.counts(self.deploy("verified"))[:3], (0, 0, 0))

    def test_14_compress_false_in_site_yaml_stores_text_as_it_is_and_switching_uploads_the_text_again(self):
        self.assertEqual(self.deploy("plain").returncode, 0)
        settings = os.path.join(self.site, "content/site.yaml")
        with open(settings) as handle:
            saved = handle.read()
        local = local_files(self.public())
        text = len([name for name in local if is_text(name)])
        try:
            with open(settings, "a") as handle:
                handle.write("\ndeploy:\n  compress: false\n")
            plain = self.deploy("plain")
            self.assertEqual(plain.returncode, 0, plain.stderr)
            self.assertEqual(self.counts(plain), (0, text, 0, len(local) - text), plain.stdout)
            self.assertEqual(self.store.objects("plain/"), local, "stored byte for byte: sizes and ETags are the files'")
            head = self.store.s3.head_object(Bucket=BUCKET, Key="plain/index.html")
            self.assertIsNone(head.get("ContentEncoding"))
        finally:
            with open(settings, "w") as handle:
                handle.write(saved)
        again = self.deploy("plain")
        self.assertEqual(self.counts(again), (0, text, 0, len(local) - text), again.stdout)
        self.assertEqual(self.store.contents("plain/"), local)

    def test_15_a_build_during_a_deploy_waits_and_a_taken_down_comment_never_stays_in_the_bucket(self):
        comments = os.path.join(self.site, "content/machines/desk-fan/parts/switch/comments")

        def comment(name, text):
            with open(os.path.join(comments, name), "w") as handle:
                handle.write(f'---\nauthor: "Lin"\ndate: 2025-01-03\n---\n{text}\n')

        # The bucket one change behind the site, so that the next deploy has pages to send.
        comment("race-old.md", "An older remark.")
        self.build()
        self.assertEqual(self.deploy("race").returncode, 0)
        os.remove(os.path.join(comments, "race-old.md"))
        self.build()
        proxy = FlakyProxy(self.store.port, flaky=False, hold="race/")
        try:
            command, env = self.deploy_command("race", endpoint=proxy.endpoint)
            deploy = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            self.assertTrue(proxy.holding.wait(120), "the deploy sent nothing")
            # A comment filed and built while the deploy is sending the pages it scanned.
            comment("race.md", "A remark taken down later.")
            build = subprocess.Popen([TEARDOWN, "build", "--site", self.site], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env={**os.environ, "TEARDOWN_PAGEFIND": ""})
            for _ in range(1200):
                if build.poll() is not None or waiting_for_lock(build.pid):
                    break
                time.sleep(0.05)
            self.assertIsNone(build.poll(), "the build swapped the site while the deploy was sending it")
            proxy.release.set()
            out, err = deploy.communicate(timeout=300)
            self.assertEqual(deploy.returncode, 0, err)
            _, build_err = build.communicate(timeout=300)
            self.assertEqual(build.returncode, 0, build_err)
        finally:
            proxy.stop()
        # Taken down: the page is as the deploy sent it, and the next deploy finds the bucket right.
        os.remove(os.path.join(comments, "race.md"))
        self.build()
        self.assertEqual(self.deploy("race").returncode, 0)
        self.assertEqual(self.store.contents("race/"), local_files(self.public()))

    def test_12_a_future_dated_or_damaged_manifest_in_a_bucket_inbox_hides_no_other_submission(self):
        self.store.s3.create_bucket(Bucket="hostile")
        submit = functools.partial(self.bucket_submit, "hostile")
        sync = functools.partial(self.bucket_sync, "hostile")

        now = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
        # A fast clock's submission, and one manifest that is not a manifest at all.
        submit("20991231-235959-fastclock", "Sent from the future.")
        self.store.s3.put_object(Bucket="hostile", Key=f"{now}-bomb.manifest.json", Body=b"{not json")
        first = sync()
        self.assertIn("1 accepted, 1 rejected", first)
        self.assertIn(f"the manifest {now}-bomb.manifest.json cannot be read", first)
        # Sent after the future one was seen: still listed and filed.
        time.sleep(1.1)
        submit(time.strftime("%Y%m%d-%H%M%S", time.gmtime()) + "-ontime", "Sent on time.")
        second = sync()
        self.assertIn("1 accepted", second)
        comments = os.path.join(self.site, "content/machines/desk-fan/parts/switch/comments")
        filed = [os.path.join(comments, name) for name in os.listdir(comments)
                 if "Sent on time." in read(os.path.join(comments, name)) or "Sent from the future." in read(os.path.join(comments, name))]
        self.assertEqual(len(filed), 2)
        # The site as the other tests expect it.
        for path in filed:
            os.remove(path)
        shutil.rmtree(os.path.join(self.site, "content/.quarantine"), ignore_errors=True)
        self.build()

    def test_16_a_manifest_that_lands_late_in_a_bucket_inbox_is_filed_by_the_hourly_whole_listing(self):
        self.store.s3.create_bucket(Bucket="late")
        submit = functools.partial(self.bucket_submit, "late")
        sync = functools.partial(self.bucket_sync, "late")

        def stamp(seconds_ago):
            return time.strftime("%Y%m%d-%H%M%S", time.gmtime(time.time() - seconds_ago))

        submit(stamp(0) + "-first", "Sent first.")
        self.assertIn("1 accepted", sync())
        # Named two hours before it reached the store (an intake whose uploads were retried for
        # that long, or whose clock is behind): the next listing starts after it.
        submit(stamp(2 * 3600) + "-late", "Landed late.")
        self.assertIn("0 accepted", sync())
        # An hour on, as the sync's own state sees it: the whole listing reads what the store
        # wrote since the last one, and files the late submission.
        for path in glob.glob(os.path.join(self.site, ".teardown-cache/sync/bucket-*")):
            with open(path) as handle:
                state = json.load(handle)
            state["sweptAt"] = state.get("sweptAt", time.time()) - 3601
            with open(path, "w") as handle:
                json.dump(state, handle)
        self.assertIn("1 accepted", sync())
        self.assertIn("0 accepted", sync(), "filed once")
        comments = os.path.join(self.site, "content/machines/desk-fan/parts/switch/comments")
        filed = [os.path.join(comments, name) for name in os.listdir(comments)
                 if read(os.path.join(comments, name)).rstrip().endswith(("Sent first.", "Landed late."))]
        self.assertEqual(len(filed), 2)
        for path in filed:
            os.remove(path)
        self.build()

    def test_17_a_sync_whose_search_index_fails_after_its_pages_are_published_still_deploys_them(self):
        site = os.path.join(self.scratch, "searched")
        shutil.copytree(os.path.join(ROOT, "content"), os.path.join(site, "content"))
        with open(os.path.join(site, "content/site.yaml"), "a") as handle:
            handle.write(f"\ndeploy:\n  to: s3://{BUCKET}/searched\n  endpoint: {self.store.endpoint}\n")
        env = {name: value for name, value in os.environ.items() if name != "TEARDOWN_PAGEFIND"}
        first = subprocess.run([TEARDOWN, "build", "--site", site], capture_output=True, text=True, env=env, timeout=600)
        self.assertEqual(first.returncode, 0, first.stderr)
        remembered = os.path.join(site, ".teardown-cache/pagefind-location")
        real = read(remembered) if os.path.exists(remembered) else shutil.which("pagefind") or shutil.which("pagefind_extended")
        self.assertTrue(real, "Pagefind is installed")
        # Pagefind itself, refusing to index while the file `fail` is there (a full disk, a crash).
        wrapper, fail = os.path.join(self.scratch, "pagefind"), os.path.join(self.scratch, "fail")
        with open(wrapper, "w") as handle:
            handle.write(f"#!/bin/sh\nif [ -e '{fail}' ]; then echo 'the index was refused' >&2; exit 3; fi\nexec '{real}' \"$@\"\n")
        os.chmod(wrapper, 0o755)
        env = {**env, "TEARDOWN_PAGEFIND": wrapper, "AWS_ACCESS_KEY_ID": self.store.key_id,
               "AWS_SECRET_ACCESS_KEY": self.store.secret, "NO_COLOR": "1"}
        inbox = os.path.join(self.scratch, "searched-inbox")
        os.makedirs(inbox)
        with open(os.path.join(inbox, "indexless.comment.md"), "w") as handle:
            handle.write("---\nmachine: desk-fan\npart: switch\nauthor: Cron\ndate: 2025-02-03\n---\nPublished before its index.\n")
        open(fail, "w").close()
        try:
            result = subprocess.run([TEARDOWN, "sync", "--site", site, "--from", inbox, "--deploy"],
                                    capture_output=True, text=True, env=env, timeout=600)
        finally:
            os.remove(fail)
        self.assertNotEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("its pages were published", result.stderr)
        self.assertNotIn("the output was not changed", result.stderr)
        self.assertIn("Deployed to s3://catalog/searched/", result.stdout, result.stdout + result.stderr)
        page = self.store.s3.get_object(Bucket=BUCKET, Key="searched/machines/desk-fan/parts/switch/index.html")
        self.assertIn("Published before its index.", gzip.decompress(page["Body"].read()).decode())
        self.assertEqual(self.store.contents("searched/"), local_files(os.path.join(site, "public")))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--teardown", default=TEARDOWN)
    options, rest = parser.parse_known_args()
    TEARDOWN = os.path.abspath(options.teardown)
    unittest.main(argv=[sys.argv[0], "-v", *rest])
