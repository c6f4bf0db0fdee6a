#!/usr/bin/env python3
"""Times the resident publisher, `teardown sync --follow --deploy`, as a publisher runs it, beside its targets.

    resident.py --teardown .build/release/teardown [--parts 10000] [--posts 20] [--burst 1000]

It generates a seeded catalog (generate.py, documents shape), builds it on tmpfs without a
search index, deploys it to moto_server on loopback, then starts `teardown intake` (a folder
inbox) and `teardown sync --follow --deploy` reading that inbox over HTTP, and times:

- a comment posted to intake's JSON API until its part page in the bucket holds it, --posts
  times one after the other (median and slowest);
- a part's description edited by hand until its page in the output holds the edit;
- the resident process's memory (VmRSS, and its peak VmHWM) after --burst more posts from
  four posters at once, at rest two seconds after every one of them is in the bucket.

Results go to Benchmarks/results/resident-<date>.md and resident-latest.md, and into
Benchmarks/README.md between the resident markers.
"""

import argparse
import concurrent.futures
import datetime
import gzip
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

import boto3

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 1
sys.path.insert(0, HERE)
from bench import publish, timed, version  # noqa: E402
from deploy import free_port  # noqa: E402


def log(message):
    print(message, flush=True)


def wait_log(path, text, process, seconds=3600):
    deadline = time.time() + seconds
    while time.time() < deadline:
        with open(path) as handle:
            if text in handle.read():
                return
        if process.poll() is not None:
            break
        time.sleep(0.05)
    with open(path) as handle:
        sys.exit(f"never saw '{text}':\n{handle.read()[-3000:]}")


def memory(pid):
    """VmRSS, VmHWM and RssAnon (the heap and stacks, without the binary's pages) of `pid`, in MB."""
    with open(f"/proc/{pid}/status") as handle:
        fields = dict(line.split(":", 1) for line in handle if ":" in line)
    return tuple(int(fields[name].split()[0]) / 1024 for name in ("VmRSS", "VmHWM", "RssAnon"))


def mapped(pid, top=8):
    """The mappings holding the most resident pages of `pid`, as (MB, name): where the RSS that is not the heap is."""
    sizes, name = {}, None
    with open(f"/proc/{pid}/smaps") as handle:
        for line in handle:
            fields = line.split()
            if "-" in fields[0] and len(fields) >= 5:
                name = fields[5] if len(fields) > 5 else "[anonymous]"
            elif fields[0] == "Rss:":
                sizes[name] = sizes.get(name, 0) + int(fields[1]) / 1024
    return sorted(((size, name) for name, size in sizes.items()), reverse=True)[:top]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--teardown", required=True)
    parser.add_argument("--parts", type=int, default=10000)
    parser.add_argument("--posts", type=int, default=20)
    parser.add_argument("--burst", type=int, default=1000)
    args = parser.parse_args()
    teardown = os.path.abspath(args.teardown)
    work = tempfile.mkdtemp(prefix="teardown-resident-bench-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    port = free_port()
    endpoint = f"http://127.0.0.1:{port}"
    processes = [subprocess.Popen(["moto_server", "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    env = {**os.environ, "AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench", "AWS_REGION": "us-east-1",
           "TEARDOWN_PAGEFIND": "", "NO_COLOR": "1"}
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(endpoint + "/moto-api/", timeout=1)
                break
            except Exception:
                time.sleep(0.1)
        s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="bench",
                          aws_secret_access_key="bench")
        s3.create_bucket(Bucket="bench")
        generated = os.path.join(work, "generated")
        log(f"Generating {args.parts:,} parts")
        subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "--parts", str(args.parts), "--out", generated,
                        "--seed", str(SEED), "--shape", "documents"], check=True)
        site = os.path.join(generated, "teardown")
        with open(os.path.join(site, "content/site.yaml"), "a") as handle:
            handle.write(f"\ndeploy:\n  to: s3://bench/live\n  endpoint: {endpoint}\n")
        log("Building and deploying")
        timed([teardown, "build", "--site", site], env=env)
        timed([teardown, "deploy", "--site", site], env=env)

        inbox, intake_port = os.path.join(work, "inbox"), free_port()
        intake_log, follow_log = os.path.join(work, "intake.log"), os.path.join(work, "follow.log")
        with open(intake_log, "w") as handle:
            processes.append(subprocess.Popen([teardown, "intake", "--site", site, "--inbox", inbox, "--port", str(intake_port),
                                               "--rate-limit", "1000000"], env=env, stdout=handle, stderr=subprocess.STDOUT))
        wait_log(intake_log, "Taking submissions on", processes[-1])
        with open(follow_log, "w") as handle:
            follow = subprocess.Popen([teardown, "sync", "--site", site, "--from", f"http://127.0.0.1:{intake_port}/inbox/",
                                       "--token-file", os.path.join(inbox, ".token"), "--follow", "--deploy"],
                                      env=env, stdout=handle, stderr=subprocess.STDOUT)
        processes.append(follow)
        wait_log(follow_log, "Deployed to", follow)
        log("Following")

        machines = os.path.join(site, "content/machines")
        machine = sorted(os.listdir(machines))[0]
        part = sorted(os.listdir(os.path.join(machines, machine, "parts")))[0]
        key = f"live/machines/{machine}/parts/{part}/index.html"

        def in_bucket(text):
            try:
                body = s3.get_object(Bucket="bench", Key=key)["Body"].read()
            except s3.exceptions.NoSuchKey:
                return False
            return text in gzip.decompress(body).decode()

        def post(text):
            body = json.dumps({"machine": machine, "part": part, "author": "Bench", "body": text}).encode()
            request = urllib.request.Request(f"http://127.0.0.1:{intake_port}/api/v1/comments", data=body,
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=60) as answer:
                answer.read()

        posted = []
        for number in range(args.posts):
            text = f"Posted for the resident bench, number {number}."
            started = time.monotonic()
            post(text)
            while not in_bucket(text):
                time.sleep(0.005)
            posted.append(time.monotonic() - started)
            log(f"  post {number + 1}: in the bucket after {posted[-1] * 1000:.0f} ms")
            time.sleep(0.3)

        edited = []
        description = os.path.join(machines, machine, "parts", part, "description.md")
        page = os.path.join(site, "public", "machines", machine, "parts", part, "index.html")
        for number in range(5):
            text = f"Edited by hand for the resident bench, number {number}."
            started = time.monotonic()
            with open(description, "a") as handle:
                handle.write(f"\n{text}\n")
            while True:
                with open(page) as handle:
                    if text in handle.read():
                        break
                time.sleep(0.002)
            edited.append(time.monotonic() - started)
            log(f"  hand edit {number + 1}: in the output after {edited[-1] * 1000:.0f} ms")
            time.sleep(0.5)

        log(f"Posting {args.burst:,} comments from four posters at once")
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            list(pool.map(lambda number: post(f"Burst comment number {number}."), range(args.burst)))
        # Comments are paginated: the burst is in once the rounds accepted every post and deployed.
        wanted = args.posts + args.burst
        deadline = time.time() + 3600
        while True:
            with open(follow_log) as handle:
                text = handle.read()
            accepted = sum(int(count) for count in re.findall(r": (\d+) accepted", text))
            if accepted >= wanted and text.rstrip().splitlines()[-1].startswith("Deployed"):
                break
            if time.time() > deadline or follow.poll() is not None:
                sys.exit(f"the burst never reached the bucket ({accepted} of {wanted} accepted):\n{text[-3000:]}")
            time.sleep(0.2)
        # At rest: the round that printed "Deployed" gives its free pages back as it ends.
        time.sleep(2)
        rss, peak, anonymous = memory(follow.pid)
        log(f"  after the burst: {rss:.0f} MB resident ({anonymous:.0f} MB anonymous), {peak:.0f} MB at its peak")
        for size, name in mapped(follow.pid):
            log(f"    {size:6.1f} MB  {os.path.basename(name) if name.startswith('/') else name}")
        follow.send_signal(signal.SIGINT)
        follow.wait(timeout=120)
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                process.send_signal(signal.SIGINT)
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
    median_post, slowest = statistics.median(posted), max(posted)
    median_edit = statistics.median(edited)
    rows = [
        "| Measure | Teardown | Target | Met |",
        "|---|---|---|---|",
        f"| A comment posted to intake until its page is in the moto bucket, median of {args.posts} | "
        f"{median_post * 1000:.0f} ms | at most 400 ms | {'yes' if median_post <= 0.4 else 'no'} |",
        f"| The same, slowest of {args.posts} | {slowest * 1000:.0f} ms | at most 800 ms | {'yes' if slowest <= 0.8 else 'no'} |",
        f"| A description edited by hand until its page is in the output, median of 5 | {median_edit * 1000:.0f} ms | "
        f"at most 300 ms | {'yes' if median_edit <= 0.3 else 'no'} |",
        f"| Memory after {args.burst:,} more posts (resident, of it anonymous; peak) | {rss:.0f} MB, {anonymous:.0f} MB; "
        f"{peak:.0f} MB | at most 80 MB | "
        f"{'yes' if rss <= 80 else 'no'} |",
    ]
    text = (f"# Resident publisher benchmark, {datetime.datetime.now():%Y-%m-%d %H:%M}\n\n"
            f"- Catalog: Benchmarks/generate.py --shape documents, {args.parts:,} parts, seed {SEED}, no search index, on tmpfs.\n"
            f"- `teardown sync --follow --deploy` reading `teardown intake`'s inbox over HTTP (a request intake holds"
            f" until a submission is published), deploying to moto_server on loopback.\n"
            f"- {version([teardown, '--version'])}; {platform.node()}, {os.cpu_count()} cores.\n\n" + "\n".join(rows) + "\n")
    publish(text, (f"resident-{datetime.datetime.now():%Y-%m-%d-%H%M}.md", "resident-latest.md"), "resident",
            "\n".join(rows) + "\n")
    log(text)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
