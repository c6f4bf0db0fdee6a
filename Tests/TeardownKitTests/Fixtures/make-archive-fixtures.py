#!/usr/bin/env python3
"""Writes the bundle archives the archive tests read (standard library only).

The committed files are what the tests read; run this only to change them. Each archive
holds the minimal site's "box" bundle in a folder named "box/", as most tools zip a folder;
all but good.zip and flat.zip add one hostile entry:

  slip.zip      an entry whose path climbs out of the bundle with ".."
  absolute.zip  an entry with an absolute path
  symlink.zip   a symbolic link to /etc/passwd
  bomb.zip      20 MB of zeros in 20 kB (the tests set a 10 MB limit)
  liar.zip      the same zeros, but the archive says the entry holds 100 bytes
  flat.zip      the bundle's files at the archive's top level, with no folder
"""
import os
import stat
import struct
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
BUNDLE = os.path.join(HERE, "sites", "minimal", "content", "machines", "box")
OUT = os.path.join(HERE, "archives")
DATE = (2024, 5, 1, 0, 0, 0)


def add_bundle(archive, prefix="box/"):
    for folder, _, files in sorted(os.walk(BUNDLE)):
        for name in sorted(files):
            path = os.path.join(folder, name)
            info = zipfile.ZipInfo(prefix + os.path.relpath(path, BUNDLE), DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(path, "rb") as handle:
                archive.writestr(info, handle.read())


def write(name, extra=None, prefix="box/"):
    path = os.path.join(OUT, name)
    with zipfile.ZipFile(path, "w") as archive:
        add_bundle(archive, prefix)
        if extra:
            extra(archive)
    return path


def entry(name, data, mode=0o644 | stat.S_IFREG):
    info = zipfile.ZipInfo(name, DATE)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = mode << 16
    info.create_system = 3
    return info, data


def main():
    os.makedirs(OUT, exist_ok=True)
    write("good.zip")
    write("flat.zip", prefix="")
    write("slip.zip", lambda a: a.writestr(*entry("box/../../escaped.txt", b"outside\n")))
    write("absolute.zip", lambda a: a.writestr(*entry("/tmp/teardown-absolute.txt", b"outside\n")))
    write("symlink.zip", lambda a: a.writestr(*entry("box/parts/lid/passwd", b"/etc/passwd", 0o777 | stat.S_IFLNK)))
    zeros = bytes(20 * 1000 * 1000)
    write("bomb.zip", lambda a: a.writestr(*entry("box/padding.bin", zeros)))
    liar = write("liar.zip", lambda a: a.writestr(*entry("box/padding.bin", zeros)))
    # Rewrite the entry's uncompressed size, in its local header and in the central directory.
    data = bytearray(open(liar, "rb").read())
    name = b"box/padding.bin"
    local = data.find(b"PK\x03\x04")
    while local != -1:
        length = struct.unpack_from("<H", data, local + 26)[0]
        if data[local + 30:local + 30 + length] == name:
            struct.pack_into("<I", data, local + 22, 100)
        local = data.find(b"PK\x03\x04", local + 4)
    central = data.find(b"PK\x01\x02")
    while central != -1:
        length = struct.unpack_from("<H", data, central + 28)[0]
        if data[central + 46:central + 46 + length] == name:
            struct.pack_into("<I", data, central + 24, 100)
        central = data.find(b"PK\x01\x02", central + 4)
    open(liar, "wb").write(bytes(data))


if __name__ == "__main__":
    main()
