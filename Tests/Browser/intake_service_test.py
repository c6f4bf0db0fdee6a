"""The intake service as a process: a SIGKILL during an upload leaves no partial submission
visible; every submission it acknowledged survives a SIGKILL, whole; memory stays bounded under
many concurrent large uploads; and a bounded wrk load on loopback gets no 5xx, with the rate
limit answering 429.

    python3 Tests/Browser/run.py --teardown .build/debug/teardown intake_service_test
"""
import hashlib
import http.client
import json
import os
import random
import re
import shutil
import select
import socket
import struct
import subprocess
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request
import zlib
from pathlib import Path

from harness import ROOT, IntakeService

COMMENT = {"machine": "desk-fan", "part": "motor", "author": "Kim", "body": "The motor runs warm."}


def noise_png(width, height):
    """A PNG of random pixels: it barely compresses, so its size is about width * height * 3."""
    rows = b"".join(b"\0" + os.urandom(width * 3) for _ in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b""))


class IntakeServiceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = Path(tempfile.mkdtemp(prefix="teardown-intake-service-"))
        cls.site = cls.work / "site"
        shutil.copytree(ROOT / "content", cls.site / "content")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.work, ignore_errors=True)

    def setUp(self):
        self.inbox = self.work / f"inbox-{self._testMethodName}"

    def listed(self):
        return json.loads((self.inbox / "manifest.json").read_text())["submissions"]

    def assertInboxWhole(self):
        """Every listed submission has every file, with the bytes the manifest names."""
        for entry in self.listed():
            for name in entry["files"]:
                data = (self.inbox / name).read_bytes()
                self.assertEqual(hashlib.sha256(data).hexdigest(), entry["sha256"][name], name)

    def test_a_kill_during_an_upload_leaves_nothing_visible(self):
        service = IntakeService(self.site, self.inbox)
        status, _ = service.post("/api/v1/comments", json.dumps(COMMENT))
        self.assertEqual(status, 201)
        before = self.listed()
        # Half of a 6 MB photo, then nothing: the service is killed while it waits for the rest.
        photo = noise_png(1400, 1400)
        with socket.create_connection(("127.0.0.1", service.port)) as client:
            client.sendall(f"POST /api/v1/photos?machine=desk-fan&author=Kim HTTP/1.1\r\nHost: x\r\n"
                           f"Content-Type: image/png\r\nContent-Length: {len(photo)}\r\n\r\n".encode())
            client.sendall(photo[:len(photo) // 2])
            deadline = time.time() + 20
            while not any(path.stat().st_size > 1_000_000 for path in (self.inbox / ".incoming").glob("*/*")):
                self.assertLess(time.time(), deadline, "the upload never reached the disk")
                time.sleep(0.05)
            service.kill()
        partial = [path.name for path in (self.inbox / ".incoming").glob("*/*")]
        self.assertTrue(partial, "the upload was under way")
        self.assertEqual(self.listed(), before, "the manifest never named it")
        self.assertEqual([path.name for path in self.inbox.glob("*.png")], [])

        restarted = IntakeService(self.site, self.inbox)
        restarted.stop()
        self.assertEqual(list((self.inbox / ".incoming").iterdir()), [], "a restart clears what was cut off")
        self.assertEqual(self.listed(), before)
        self.assertInboxWhole()

    def test_every_acknowledged_submission_survives_a_kill(self):
        random.seed(7)
        acknowledged = []
        for round in range(4):
            service = IntakeService(self.site, self.inbox, "--rate-limit", "1000000")
            stop = threading.Event()

            def post():
                while not stop.is_set():
                    body = dict(COMMENT, body=f"Round {round}, comment {random.random()}")
                    try:
                        status, answer = service.post("/api/v1/comments", json.dumps(body))
                    except OSError:
                        return
                    if status == 201:
                        acknowledged.append(json.loads(answer)["id"])
            posters = [threading.Thread(target=post) for _ in range(6)]
            for poster in posters:
                poster.start()
            time.sleep(random.uniform(0.5, 1.5))
            service.kill()
            stop.set()
            for poster in posters:
                poster.join()
            listed = {entry["id"] for entry in self.listed()}
            missing = [id for id in acknowledged if id not in listed]
            self.assertEqual(missing, [], f"round {round}: acknowledged but not in the manifest")
            self.assertInboxWhole()
        self.assertGreater(len(acknowledged), 20)

    def test_memory_stays_bounded_under_many_concurrent_large_uploads(self):
        # Every upload comes from loopback, one address: room for all of them at once.
        service = IntakeService(self.site, self.inbox, "--rate-limit", "1000000", "--connections-per-address", "64")
        photo = noise_png(1600, 1600)   # 7.7 MB
        status, _ = service.post("/api/v1/photos?machine=desk-fan&author=Kim&share_location=true", photo, "image/png")
        self.assertEqual(status, 201)
        baseline = service.memory("RssAnon")
        uploads = 24
        statuses = []

        def upload(index):
            connection = http.client.HTTPConnection("127.0.0.1", service.port, timeout=120)
            share = "true" if index % 2 else "false"
            connection.putrequest("POST", f"/api/v1/photos?machine=desk-fan&author=Kim&share_location={share}")
            connection.putheader("Content-Type", "image/png")
            connection.putheader("Content-Length", str(len(photo)))
            connection.endheaders()
            for start in range(0, len(photo), 256 * 1024):
                connection.send(photo[start:start + 256 * 1024])
                time.sleep(0.01)
            response = connection.getresponse()
            statuses.append(response.status)
            response.read()
            connection.close()
        # The process's own memory: file pages it maps are the page cache, which the kernel
        # takes back at will, so they are sampled apart.
        samples = []
        done = threading.Event()

        def sample():
            while not done.is_set():
                samples.append((service.memory("RssAnon"), service.memory("RssFile")))
                time.sleep(0.02)
        sampler = threading.Thread(target=sample)
        sampler.start()
        threads = [threading.Thread(target=upload, args=(index,)) for index in range(uploads)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        done.set()
        sampler.join()
        service.stop()
        self.assertEqual(statuses, [201] * uploads)
        sent = uploads * len(photo)
        grown = max(anonymous for anonymous, _ in samples) - baseline
        print(f"\n    {uploads} concurrent uploads of {len(photo) / 1e6:.1f} MB ({sent / 1e6:.0f} MB): own memory peaked "
              f"{grown / 1e6:.0f} MB above the {baseline / 1e6:.0f} MB at rest; mapped file pages peaked at "
              f"{max(mapped for _, mapped in samples) / 1e6:.0f} MB", flush=True)
        # Holding the bodies would take all of `sent`; streaming keeps to what a couple of image checks need.
        self.assertLess(grown, sent / 2, "bodies are streamed to disk, and images are checked a few at a time")
        self.assertEqual(len(self.listed()), uploads + 1)
        self.assertInboxWhole()

    def wrk(self, service, seconds):
        result = subprocess.run(["wrk", "-t2", "-c16", f"-d{seconds}s", "--timeout", "10s",
                                 "-s", str(Path(__file__).parent / "intake-load.lua"), service.url + "/api/v1/comments"],
                                capture_output=True, text=True, timeout=seconds + 60)
        self.assertEqual(result.returncode, 0, result.stderr)
        statuses = {int(code): int(count) for code, count in re.findall(r"^status (\d+) (\d+)$", result.stdout, re.M)}
        self.assertNotIn("Socket errors", result.stdout, result.stdout)
        return statuses

    def test_load_gets_no_server_errors_and_the_rate_limit_answers_429(self):
        limited = IntakeService(self.site, self.inbox, "--connections-per-address", "64")   # 10 a minute, the default
        statuses = self.wrk(limited, 3)
        limited.stop()
        self.assertEqual([code for code in statuses if code >= 500], [], statuses)
        self.assertIn(statuses.get(201), (10, 11), statuses)
        self.assertGreater(statuses.get(429, 0), 100, statuses)
        self.assertEqual(set(statuses), {201, 429})
        self.assertEqual(len(self.listed()), statuses[201])

        before = len(self.listed())
        open_service = IntakeService(self.site, self.inbox, "--rate-limit", "100000000", "--connections-per-address", "64")
        statuses = self.wrk(open_service, 5)
        open_service.stop()
        print(f"\n    wrk, 16 connections for 5 s: {statuses}", flush=True)
        self.assertEqual(set(statuses), {201}, statuses)
        # wrk stops counting at the deadline with up to one request per connection still in flight.
        self.assertIn(len(self.listed()) - before - statuses[201], range(0, 17), "every acknowledged post is listed")
        self.assertInboxWhole()

    def test_a_body_over_the_limit_gets_its_413_though_the_client_sends_it_all_first(self):
        # urllib sends the whole body before it reads a byte of the answer. A service that
        # answers early and stops reading leaves it blocked in send until its own timeout.
        site = self.work / "small-photos"
        if not site.exists():
            shutil.copytree(self.site, site)
            settings = site / "content/site.yaml"
            settings.write_text(settings.read_text().replace("limits:\n", "limits:\n  photo_max_bytes: 1000000\n"))
        service = IntakeService(site, self.inbox)
        try:
            for size in (3_000_000, 12_000_000):
                request = urllib.request.Request(service.url + "/api/v1/photos?machine=desk-fan&author=Kim",
                                                 data=noise_png(1000, size // 3000), headers={"Content-Type": "image/png"})
                started = time.time()
                with self.assertRaises(urllib.error.HTTPError) as refused:
                    urllib.request.urlopen(request, timeout=20)
                self.assertEqual(refused.exception.code, 413)
                self.assertLess(time.time() - started, 15, f"{size} bytes: answered, not left to time out")
            with urllib.request.urlopen(service.url + "/health", timeout=5) as response:
                self.assertEqual(response.status, 200)
        finally:
            service.stop()
        self.assertEqual(self.listed() if (self.inbox / "manifest.json").exists() else [], [])

    def test_idle_sockets_and_slow_senders_cannot_take_the_service_off_the_air(self):
        """300 idle sockets from one address under `ulimit -n 256`, a head never finished and a
        body dripped: /health still answers, idle sockets are closed, the drip gets 408 and
        nothing of it is stored."""
        service = IntakeService(self.site, self.inbox, "--idle-timeout", "2", "--body-timeout", "2",
                                "--connections-per-address", "8", open_files=256)
        try:
            def connect(source):
                sock = socket.socket()
                sock.bind((source, 0))
                sock.settimeout(10)
                sock.connect(("127.0.0.1", service.port))
                return sock
            idle = []
            for _ in range(300):
                try:
                    idle.append(connect("127.0.0.2"))
                except OSError:
                    pass
            started = time.time()
            with urllib.request.urlopen(service.url + "/health", timeout=5) as response:
                self.assertEqual(response.status, 200)
            self.assertLess(time.time() - started, 5)

            # A head never finished is idle too: closed after the idle timeout.
            slow_head = connect("127.0.0.3")
            slow_head.sendall(b"POST /api/v1/comments HTTP/1.1\r\nHost: x\r\n")
            self.assertEqual(slow_head.recv(100), b"", "the unfinished head's connection is closed")
            # A body dripped a byte every 0.5 s, never idle long enough to be closed as idle:
            # 408 once the body timeout has passed.
            drip = connect("127.0.0.4")
            drip.sendall(b"POST /api/v1/comments HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 1000\r\n\r\n" + b'{"machine":')
            answer = b""
            for _ in range(20):
                readable, _, _ = select.select([drip], [], [], 0.5)
                if readable:
                    answer = drip.recv(200)
                    break
                drip.send(b" ")
            self.assertIn(b" 408 ", answer)
            # Every idle socket the service took is closed by it, and the rest were refused.
            for sock in idle:
                try:
                    self.assertEqual(sock.recv(100), b"")
                except ConnectionResetError:
                    pass
                sock.close()
            with urllib.request.urlopen(service.url + "/health", timeout=5) as response:
                self.assertEqual(response.status, 200)
            self.assertFalse((self.inbox / "manifest.json").exists() and self.listed(), "nothing of the drip was stored")
            log = Path(service.log.name).read_text()
            self.assertIn("127.0.0.2 holds 8 connections already", log)
        finally:
            service.stop()

    def test_behind_a_proxy_one_clients_stalled_uploads_do_not_lock_out_the_others(self):
        """Behind a proxy every connection comes from the proxy's address: 16 uploads stalled by
        one forwarded client are capped for that client (429 past its limit, at once), and
        another visitor's comment still goes in."""
        service = IntakeService(self.site, self.inbox, "--behind-proxy", "--connections-per-address", "8",
                                "--body-timeout", "20", "--rate-limit", "1000")
        stalled = []
        try:
            for _ in range(16):
                sock = socket.create_connection(("127.0.0.1", service.port), timeout=10)
                sock.sendall(b"POST /api/v1/comments HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.7\r\n"
                             b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
                stalled.append(sock)
            answered = []
            deadline = time.time() + 10
            while len(answered) < 8 and time.time() < deadline:
                readable, _, _ = select.select([s for s in stalled if s not in answered], [], [], 0.5)
                answered += readable
            answers = [sock.recv(200) for sock in answered]
            self.assertEqual(len(answers), 8, "eight of the client's requests are answered at once, the others wait")
            self.assertTrue(all(b" 429 " in answer for answer in answers), answers)
            status, _ = service.post("/api/v1/comments", json.dumps(COMMENT), headers={"X-Forwarded-For": "198.51.100.9"})
            self.assertEqual(status, 201, "another visitor behind the same proxy is let in")
            self.assertIn("203.0.113.7 holds 8 requests already", Path(service.log.name).read_text())
        finally:
            for sock in stalled:
                sock.close()
            service.stop()


if __name__ == "__main__":
    unittest.main()
