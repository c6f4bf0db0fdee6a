#!/usr/bin/env python3
"""Times `teardown deploy` against `aws s3 sync` (PyPI awscli) on the same built catalog and
the same local S3-compatible server (moto_server on loopback), beside the targets.

    deploy.py --teardown .build/release/teardown [--parts 10000] [--runs 3]

It generates a seeded catalog (generate.py), builds it once on tmpfs with its search index,
then, for each run, uploads the whole site to a fresh prefix with each tool, 8 requests at
once (awscli's max_concurrent_requests set to 8), and reads objects per second. Then it
files one new comment, builds, and times `teardown deploy` to the prefix the first deploy
wrote, and a comment posted to `teardown intake` until `teardown sync --deploy` has it in the
bucket. Medians. Results go to Benchmarks/results/deploy-<date>.md and deploy-latest.md, and
into Benchmarks/README.md between the deploy markers.
"""

import argparse
import datetime
import json
import os
import platform
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SEED = 1
sys.path.insert(0, HERE)
from bench import publish, timed, version  # noqa: E402


def log(message):
    print(message, flush=True)


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def intake_to_bucket(teardown, site, work, env, runs):
    """Seconds from a comment posted to `teardown intake` (its JSON API, a folder inbox) until
    `teardown sync --deploy` has it in the bucket, once per run."""
    inbox, port = os.path.join(work, "inbox"), free_port()
    log_path = os.path.join(work, "intake.log")
    with open(log_path, "w") as log_file:
        service = subprocess.Popen([teardown, "intake", "--site", site, "--inbox", inbox, "--port", str(port)],
                                   env=env, stdout=log_file, stderr=subprocess.STDOUT)
    try:
        for _ in range(600):
            with open(log_path) as handle:
                if "Taking submissions on" in handle.read() or service.poll() is not None:
                    break
            time.sleep(0.1)
        machine = sorted(os.listdir(os.path.join(site, "content/machines")))[0]
        seconds = []
        for run in range(runs):
            started = time.monotonic()
            request = urllib.request.Request(f"http://127.0.0.1:{port}/api/v1/comments",
                                             headers={"Content-Type": "application/json"},
                                             data=json.dumps({"machine": machine, "author": "Bench",
                                                              "body": f"Posted for the bench, number {run}."}).encode())
            with urllib.request.urlopen(request, timeout=60) as answer:
                answer.read()
            result = subprocess.run([teardown, "sync", "--site", site, "--from", inbox, "--deploy"], env=env,
                                    capture_output=True, text=True)
            seconds.append(time.monotonic() - started)
            if result.returncode != 0 or "1 accepted" not in result.stdout:
                raise SystemExit(f"sync --deploy: {result.stdout}{result.stderr}")
            log(f"  posted to intake, in the bucket after {seconds[-1]:.3f} s")
        return seconds
    finally:
        service.send_signal(signal.SIGINT)
        service.wait(timeout=20)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--teardown", required=True)
    parser.add_argument("--parts", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    teardown = os.path.abspath(args.teardown)
    work = tempfile.mkdtemp(prefix="teardown-deploy-bench-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    port = free_port()
    endpoint = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(["moto_server", "-p", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(endpoint + "/moto-api/", timeout=1)
                break
            except Exception:
                time.sleep(0.1)
        config = os.path.join(work, "aws-config")
        with open(config, "w") as handle:
            handle.write("[default]\nregion = us-east-1\ns3 =\n  max_concurrent_requests = 8\n")
        env = {**os.environ, "AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench", "AWS_CONFIG_FILE": config,
               "AWS_SHARED_CREDENTIALS_FILE": os.path.join(work, "none"), "AWS_REGION": "us-east-1"}
        aws = [sys.executable, "-m", "awscli"]
        subprocess.run(aws + ["s3", "mb", "s3://bench", "--endpoint-url", endpoint], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        generated = os.path.join(work, "generated")
        log(f"Generating {args.parts:,} parts")
        subprocess.run([sys.executable, os.path.join(HERE, "generate.py"), "--parts", str(args.parts), "--out", generated,
                        "--seed", str(SEED)], check=True)
        site = os.path.join(generated, "teardown")
        # Where `teardown sync --deploy` sends the site, set before the first build: site.yaml is
        # part of every page's inputs.
        with open(os.path.join(site, "content/site.yaml"), "a") as handle:
            handle.write(f"\ndeploy:\n  to: s3://bench/teardown-0\n  endpoint: {endpoint}\n")
        log("Building")
        timed([teardown, "build", "--site", site])
        public = os.path.join(site, "public")
        objects = sum(len(files) for _, _, files in os.walk(public))
        size = sum(os.path.getsize(os.path.join(base, name)) for base, _, files in os.walk(public) for name in files)
        first, sync = [], []
        for run in range(args.runs):
            log(f"  run {run + 1}: teardown deploy")
            seconds, _, output = timed([teardown, "deploy", "--site", site, "--to", f"s3://bench/teardown-{run}",
                                        "--endpoint", endpoint, "--concurrency", "8"], env=env)
            first.append(seconds)
            log(f"    {seconds:.2f} s; aws s3 sync")
            seconds, _, _ = timed(aws + ["s3", "sync", public, f"s3://bench/aws-{run}", "--endpoint-url", endpoint,
                                         "--only-show-errors"], env=env)
            sync.append(seconds)
            log(f"    {seconds:.2f} s")
        after = []
        comments = next(os.path.join(base, name) for base, folders, _ in os.walk(os.path.join(site, "content/machines"))
                        for name in folders if name == "comments")
        for run in range(args.runs):
            with open(os.path.join(comments, f"bench-{run}.md"), "w") as handle:
                handle.write(f'---\nauthor: "Bench"\ndate: 2025-03-0{run + 1}\n---\nOne more comment, number {run}.\n')
            timed([teardown, "build", "--site", site])
            seconds, _, output = timed([teardown, "deploy", "--site", site, "--to", "s3://bench/teardown-0",
                                        "--endpoint", endpoint], env=env)
            after.append(seconds)
            log(f"  after one comment: {seconds:.3f} s ({output.strip().splitlines()[-1]})")
        posted = intake_to_bucket(teardown, site, work, env, args.runs)
    finally:
        server.kill()
        server.wait()
    teardown_rate, aws_rate = objects / statistics.median(first), objects / statistics.median(sync)
    rows = [
        "| Measure | Teardown | aws s3 sync | Ratio | Target | Met |",
        "|---|---|---|---|---|---|",
        f"| First deploy, {objects:,} objects ({size / 1e6:.0f} MB), 8 connections | {statistics.median(first):.2f} s, "
        f"{teardown_rate:.0f} objects/s | {statistics.median(sync):.2f} s, {aws_rate:.0f} objects/s | "
        f"{teardown_rate / aws_rate:.2f}x | at least 1.0x | {'yes' if teardown_rate >= aws_rate else 'no'} |",
        f"| Deploy after one new comment | {statistics.median(after):.3f} s | | | under 1 s | "
        f"{'yes' if statistics.median(after) < 1 else 'no'} |",
        f"| A comment posted to `teardown intake`, then `teardown sync --deploy` (with search) | "
        f"{statistics.median(posted):.3f} s | | | under 1 s | {'yes' if statistics.median(posted) < 1 else 'no'} |",
    ]
    text = (f"# Deploy benchmark, {datetime.datetime.now():%Y-%m-%d %H:%M}\n\n"
            f"- Catalog: Benchmarks/generate.py, {args.parts:,} parts, seed {SEED}, built with its search index, on tmpfs.\n"
            f"- Store: moto_server on loopback (one process for both tools). Medians of {args.runs} runs.\n"
            f"- {version([teardown, '--version'])}; {version(aws + ['--version'])}; {platform.node()}, "
            f"{os.cpu_count()} cores.\n\n" + "\n".join(rows) + "\n")
    publish(text, (f"deploy-{datetime.datetime.now():%Y-%m-%d-%H%M}.md", "deploy-latest.md"), "deploy",
            "\n".join(rows) + "\n")
    log(text)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
