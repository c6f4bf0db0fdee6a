#!/usr/bin/env python3
"""Writes the photo fixture site's images (needs Pillow: pip install pillow).

The committed files are what the tests read; run this only to change them.
Each orientation-N.jpg stores its pixels so that applying EXIF orientation N gives the same
upright 60 x 40 picture: red in the top-left corner, blue elsewhere. Every JPEG carries
metadata that must never be published: a GPS position, camera make and model, a serial
number, a maker note and the date taken.
"""
import io
import os
import zlib
import struct
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
SITE = os.path.join(HERE, "sites", "photos", "content", "machines", "camera")
PHOTOS = os.path.join(SITE, "parts", "body", "photos")

# The inverse of what PIL.ImageOps.exif_transpose does for each orientation: flips and
# transposes undo themselves; 6 (turned by exif_transpose with ROTATE_270) and 8 (ROTATE_90)
# undo each other.
UNDO = {2: Image.FLIP_LEFT_RIGHT, 3: Image.ROTATE_180, 4: Image.FLIP_TOP_BOTTOM, 5: Image.TRANSPOSE,
        6: Image.ROTATE_90, 7: Image.TRANSVERSE, 8: Image.ROTATE_270}


def upright():
    image = Image.new("RGB", (60, 40), (0, 0, 255))
    image.paste((255, 0, 0), (0, 0, 20, 20))
    return image


def secrets(orientation):
    exif = Image.Exif()
    exif[0x0112] = orientation
    exif[0x010F] = "TeardownCam"
    exif[0x0110] = "TC-1 Mark II"
    ifd = exif.get_ifd(0x8769)
    ifd[0x9003] = "2024:05:17 14:03:22"
    ifd[0x927C] = b"MAKERNOTE-SECRET"
    ifd[0xA431] = "SERIAL-123456"
    gps = exif.get_ifd(0x8825)
    gps[1] = "N"
    gps[2] = (48.0, 51.0, 30.24)
    gps[3] = "E"
    gps[4] = (2.0, 17.0, 40.2)
    return exif


def stored(orientation):
    image = upright()
    # The stored pixels are the upright picture with the orientation's transform undone.
    inverse = UNDO.get(orientation)
    return image.transpose(inverse) if inverse is not None else image


def main():
    os.makedirs(PHOTOS, exist_ok=True)
    for orientation in range(1, 9):
        stored(orientation).save(os.path.join(PHOTOS, f"orientation-{orientation}.jpg"), quality=95,
                                 exif=secrets(orientation))
    # A larger photo, with consent to show where it was taken.
    big = Image.new("RGB", (800, 600), (40, 120, 40))
    big.paste((200, 200, 40), (100, 100, 400, 300))
    big.save(os.path.join(PHOTOS, "workbench.jpg"), quality=90, exif=secrets(1))
    big.save(os.path.join(PHOTOS, "webp-source.webp"), quality=90, exif=secrets(1).tobytes())

    # Bad input: each must be skipped with a warning.
    open(os.path.join(PHOTOS, "empty.jpg"), "wb").close()
    buffer = io.BytesIO()
    noisy = Image.effect_noise((400, 300), 60).convert("RGB")
    noisy.save(buffer, "JPEG", quality=90)
    data = buffer.getvalue()
    with open(os.path.join(PHOTOS, "truncated.jpg"), "wb") as f:
        f.write(data[: len(data) * 6 // 10])
    damaged = bytearray(data)
    middle = len(damaged) // 2
    damaged[middle : middle + 400] = b"\xff\xd9" * 200
    with open(os.path.join(PHOTOS, "corrupted.jpg"), "wb") as f:
        f.write(bytes(damaged))
    with open(os.path.join(PHOTOS, "not-an-image.jpg"), "w") as f:
        f.write("This is a text file with an image's name.\n")
    Image.new("RGB", (10, 10), (1, 2, 3)).save(os.path.join(PHOTOS, "really-a-gif.png"), "GIF")
    Image.new("RGB", (10, 10), (1, 2, 3)).save(os.path.join(PHOTOS, "really-a-tiff.jpg"), "TIFF")
    # 2000 x 2000 pixels in a few kilobytes: over the fixture site's 1,000,000-pixel limit.
    Image.new("L", (2000, 2000), 0).save(os.path.join(PHOTOS, "bomb.png"), optimize=True)

    # The layer: opaque only in its right half, so its bounding box and mask can be checked.
    layer = Image.new("RGBA", (120, 80), (0, 0, 0, 0))
    layer.paste((90, 90, 90, 255), (60, 0, 120, 80))
    layer.save(os.path.join(SITE, "parts", "body", "body.png"))


if __name__ == "__main__":
    main()
