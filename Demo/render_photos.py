#!/usr/bin/env python3
"""Renders the demo catalog's photos from the POV-Ray scenes in Demo/scenes/ into content/.

    python3 Demo/render_photos.py [--width 1200]   (make demo-photos)

Each scene is ray-traced with an area light, for soft shadows, and saved as a JPEG where its
sidecar expects it. The photos are the project's own work, published under CC BY 4.0 as their
sidecars say. The rendered files are committed: neither the preview nor the tests need
POV-Ray.
"""
import argparse
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCENES = ROOT / "Demo/scenes"
PHOTOS = {
    "tower-on-desk": "content/machines/personal-computer/photos/tower-on-desk.jpg",
    "board-closeup": "content/machines/personal-computer/parts/motherboard/photos/board-closeup.jpg",
    "kettle-on-counter": "content/machines/electric-kettle/photos/kettle-on-counter.jpg",
    "fan-on-desk": "content/machines/desk-fan/photos/fan-on-desk.jpg",
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--width", type=int, default=1200)
    arguments = parser.parse_args()
    width, height = arguments.width, arguments.width * 3 // 4
    with tempfile.TemporaryDirectory() as work:
        for scene, target in PHOTOS.items():
            rendered = Path(work) / f"{scene}.png"
            subprocess.run(["povray", f"+I{scene}.pov", f"+O{rendered}", f"+W{width}", f"+H{height}",
                            "+A0.2", "+AM2", "+R3", "+Q9", "-D", "-V"],
                           cwd=SCENES, check=True, capture_output=True)
            destination = ROOT / target
            destination.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run(["vips", "copy", str(rendered), f"{destination}[Q=84,strip]"], check=True)
            print(f"{scene}: {destination.relative_to(ROOT)} ({destination.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
