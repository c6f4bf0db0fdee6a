import TeardownBase
import TeardownContent
import TeardownMedia

/// What catalog.json says of a machine beyond its brief (name, summary, tags, part count): the
/// date it was last updated, its photos, its cover's size and its download. Made when the
/// machine is digested and kept in its `bundles` row beside its summary, so catalog.json, which
/// lists every machine and is made again whenever one's download changes, decodes neither the
/// head nor the summary of a machine the store vouches for.
package struct CatalogFacts: Sendable, Hashable, Codable {
    /// The latest of machine.yaml's `updated` and every photo's date, as RFC 3339.
    package let updated: String?
    package let photoCount: Int
    /// The bundle's download without its comments: its size and SHA-256 (64 hex digits), or
    /// 0 and "" while it could not be made.
    package let downloadSize: Int
    package let downloadSHA256: String
    /// The size of the cover's largest copy, which catalog.json links.
    package let cover: PixelSize?

    /// What catalog.json reads of a machine to say these.
    package static let aspects: [InputUnit.MachineAspect] = [.head, .gallery, .cover, .download]
}

extension CatalogFacts {
    /// Made from the machine's head and photos, its cover's copies, and its download as the
    /// build found it.
    package init(_ machine: MachineView, cover: [PixelSize]?, download: BundleDownload?) {
        let photos = machine.galleryPhotos
        updated = CatalogData.updated(machine, photos: photos)?.rfc3339
        photoCount = photos.count
        downloadSize = download?.size ?? 0
        downloadSHA256 = download?.sha256 ?? ""
        self.cover = cover?.last
    }

    /// The form the build store keeps it in.
    package var encoded: [UInt8] {
        let sink = BinaryEncoder.Sink()
        sink.bytes.append(updated == nil ? 0 : 1)
        if let updated { sink.string(updated) }
        sink.integer(UInt64(bitPattern: Int64(photoCount)))
        sink.integer(UInt64(bitPattern: Int64(downloadSize)))
        sink.string(downloadSHA256)
        sink.bytes.append(cover == nil ? 0 : 1)
        if let cover {
            sink.integer(UInt64(bitPattern: Int64(cover.width)))
            sink.integer(UInt64(bitPattern: Int64(cover.height)))
        }
        return sink.bytes
    }

    /// The facts as the store kept them; nil when the bytes are not what a build writes.
    package init?(encoded bytes: [UInt8]) {
        let source = BinaryDecoder.Source(bytes: bytes)
        guard let read = try? (updated: source.flag() ? source.string() : nil, photos: source.signed(),
                               size: source.signed(), sha256: source.string(),
                               cover: source.flag() ? PixelSize(width: source.signed(), height: source.signed()) : nil),
              source.position == bytes.count, read.photos >= 0, read.size >= 0, Self.isDigest(read.sha256),
              read.cover.map({ $0.width > 0 && $0.height > 0 }) ?? true
        else { return nil }
        updated = read.updated
        photoCount = read.photos
        downloadSize = read.size
        downloadSHA256 = read.sha256
        cover = read.cover
    }

    /// Empty, or 64 lowercase hex digits.
    private static func isDigest(_ text: String) -> Bool {
        text.isEmpty || (text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
    }
}
