#!/usr/bin/env python3
"""Times Teardown's image stage against vipsthumbnail and checks the photo targets.

    images.py --teardown .build/release/teardown [--photos 50] [--memory-photos 200] [--cached-photos 1000]

1. Throughput: the same large JPEGs (12 megapixels each) made into the same files by
   Teardown (a cold build of a site holding only those photos) and by vipsthumbnail run once
   per width and format under `xargs -P$(nproc)`: WebP and JPEG at each of site.yaml's default
   widths, and the full-size upright original without metadata. Both use one libvips thread
   per image and one image per core.
2. Peak memory of a cold build with --memory-photos photos of 12 megapixels.
3. The image stage of a rebuild after a new comment, with --cached-photos photos, none
   changed: the build reports how long it spent on images.

Results go to Benchmarks/results/images-<date>.md and images-latest.md, and into Benchmarks/README.md
between the images markers. Needs `vips` and `vipsthumbnail` (Debian libvips-tools).
"""

import argparse
import datetime
import os
import re
import shutil
import subprocess
import sys
import time

from bench import HERE, ROOT, log, publish, timed, version

WIDTHS = [320, 640, 1280, 2048]
QUALITY = 80
ORIGINAL_QUALITY = 90


def make_photos(folder, count, width, height):
    """`count` distinct JPEGs: crops at different offsets of one blurred-noise picture, which
    compresses like a photo rather than like a flat colour."""
    os.makedirs(folder, exist_ok=True)
    base = os.path.join(folder, "base.v")
    noise = os.path.join(folder, "noise.v")
    subprocess.run(["vips", "gaussnoise", noise, str(width + count), str(height), "--sigma", "60"], check=True)
    banded = os.path.join(folder, "banded.v")
    subprocess.run(["vips", "bandjoin", f"{noise} {noise} {noise}", banded], check=True)
    subprocess.run(["vips", "gaussblur", banded, base, "1.5"], check=True)
    paths = []
    for index in range(count):
        path = os.path.join(folder, f"photo-{index:04d}.jpg")
        subprocess.run(["vips", "crop", base, f"{path}[Q=90]", str(index), "0", str(width), str(height)], check=True)
        paths.append(path)
    for temporary in (noise, banded, base):
        os.unlink(temporary)
    return paths


def make_site(folder, photos, link=True):
    """A site with one machine, one part and every photo in that part's photos/ folder."""
    part = os.path.join(folder, "content", "machines", "camera", "parts", "body")
    os.makedirs(os.path.join(part, "photos"))
    with open(os.path.join(folder, "content", "machines", "camera", "machine.yaml"), "w") as handle:
        handle.write('name: "Camera"\ncanvas: {width: 100, height: 100}\n')
    with open(os.path.join(part, "part.yaml"), "w") as handle:
        handle.write('name: "Body"\nlayer: {image: body.svg}\n')
    with open(os.path.join(part, "body.svg"), "w") as handle:
        handle.write('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">'
                     '<rect x="10" y="10" width="80" height="80" fill="#888"/></svg>\n')
    for photo in photos:
        target = os.path.join(part, "photos", os.path.basename(photo))
        (os.link if link else shutil.copy)(photo, target)
    return folder


def vipsthumbnail_commands(photos, output):
    commands = []
    for photo in photos:
        stem = os.path.splitext(os.path.basename(photo))[0]
        for width in WIDTHS:
            for suffix, options in (("webp", f"Q={QUALITY},strip"), ("jpg", f"Q={QUALITY},strip,optimize_coding")):
                commands.append(f'vipsthumbnail "{photo}" --size {width} -o "{output}/{stem}-{width}.{suffix}[{options}]"')
        # The full-size original, upright and without metadata, as Teardown publishes it.
        commands.append(f'vips autorot "{photo}" "{output}/{stem}.jpg[Q={ORIGINAL_QUALITY},strip,optimize_coding]"')
    return commands


def throughput(teardown, work, count, runs):
    photos = make_photos(os.path.join(work, "large"), count, 4000, 3000)
    results = {"teardown": [], "vipsthumbnail": []}
    commands = vipsthumbnail_commands(photos, "OUT")
    for run in range(runs):
        for tool in (("teardown", "vipsthumbnail") if run % 2 == 0 else ("vipsthumbnail", "teardown")):
            if tool == "teardown":
                site = make_site(os.path.join(work, f"site-{run}"), photos)
                wall, peak, _ = timed([teardown, "build", "--site", site])
            else:
                output = os.path.join(work, f"thumbs-{run}")
                os.makedirs(output)
                script = "\n".join(command.replace("OUT", output) for command in commands) + "\n"
                wall, peak, _ = timed(["env", "VIPS_CONCURRENCY=1", "xargs", "-d", "\n", f"-P{os.cpu_count()}",
                                       "-I{}", "sh", "-c", "{}"], cwd=work, stdin=script)
            results[tool].append(wall)
            log(f"  {tool}: {count} photos in {wall:.2f} s")
    return results


def memory(teardown, work, count):
    photos = make_photos(os.path.join(work, "memory"), count, 4000, 3000)
    site = make_site(os.path.join(work, "memory-site"), photos)
    wall, peak, _ = timed([teardown, "build", "--site", site])
    log(f"  {count} photos of 12 MP: {wall:.1f} s, peak {peak:.0f} MB")
    return wall, peak


def cached(teardown, work, count):
    photos = make_photos(os.path.join(work, "small"), count, 800, 600)
    site = make_site(os.path.join(work, "cached-site"), photos)
    timed([teardown, "build", "--site", site])
    comments = os.path.join(site, "content", "machines", "camera", "parts", "body", "comments")
    os.makedirs(comments)
    with open(os.path.join(comments, "new.md"), "w") as handle:
        handle.write("---\nauthor: Ada\ndate: 2024-06-01\n---\nA new comment.\n")
    wall, _, output = timed([teardown, "build", "--site", site])
    match = re.search(r"images from the cache in (\d+) ms", output)
    if not match:
        sys.exit(f"the rebuild did not report its image time:\n{output}")
    log(f"  {count} unchanged photos: images {match.group(1)} ms, whole rebuild {wall * 1000:.0f} ms")
    return int(match.group(1)), wall


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teardown", required=True)
    parser.add_argument("--photos", type=int, default=50)
    parser.add_argument("--memory-photos", type=int, default=200)
    parser.add_argument("--cached-photos", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--work", default=os.path.join(HERE, "work-images"))
    arguments = parser.parse_args()
    teardown = os.path.abspath(arguments.teardown)
    for tool in ("vips", "vipsthumbnail"):
        if shutil.which(tool) is None:
            sys.exit(f"{tool} is missing: install libvips-tools (make bench does)")
    if os.path.exists(arguments.work):
        shutil.rmtree(arguments.work)
    os.makedirs(arguments.work)
    try:
        log(f"Throughput: {arguments.photos} photos of 12 MP, {arguments.runs} runs")
        speed = throughput(teardown, arguments.work, arguments.photos, arguments.runs)
        log(f"Memory: {arguments.memory_photos} photos")
        memory_wall, peak = memory(teardown, arguments.work, arguments.memory_photos)
        log(f"Rebuild: {arguments.cached_photos} photos")
        cached_ms, cached_wall = cached(teardown, arguments.work, arguments.cached_photos)
    finally:
        shutil.rmtree(arguments.work, ignore_errors=True)

    median = lambda values: sorted(values)[len(values) // 2]
    ours, theirs = median(speed["teardown"]), median(speed["vipsthumbnail"])
    ratio = theirs / ours
    def verdict(ok):
        return "met" if ok else "not met"
    stamp = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    table = (
        f"| Measure | Teardown | Target | |\n|---|---|---|---|\n"
        f"| {arguments.photos} photos of 12 MP into {len(WIDTHS)} widths x WebP+JPEG + original "
        f"(median of {arguments.runs}) | {ours:.2f} s, {ratio:.2f}x vipsthumbnail's throughput "
        f"(vipsthumbnail {theirs:.2f} s) | at least 0.90x | {verdict(ratio >= 0.9)} |\n"
        f"| Peak memory, {arguments.memory_photos} photos of 12 MP | {peak:.0f} MB ({memory_wall:.0f} s) "
        f"| under 400 MB | {verdict(peak < 400)} |\n"
        f"| Image stage of a rebuild, {arguments.cached_photos} unchanged photos | {cached_ms} ms "
        f"(whole rebuild {cached_wall * 1000:.0f} ms) | under 50 ms | {verdict(cached_ms < 50)} |\n"
    )
    header = (f"Measured {stamp} on {os.cpu_count()} cores, {version(['uname', '-r'])}; "
              f"{version([teardown, '--version'])}; {version(['vips', '--version'])}.\n\n")
    text = "# Image benchmark\n\n" + header + table
    publish(text, (f"images-{datetime.datetime.now().strftime('%Y-%m-%d-%H%M')}.md", "images-latest.md"), "images",
            header + table)
    log(text)


if __name__ == "__main__":
    main()
