/// Markdown text with the file and line it starts at, rendered later.
public struct MarkdownSource: Sendable, Hashable, Codable {
    public let text: String
    public let file: SourceFile
    /// Line of `file` on which `text` starts.
    public let firstLine: Int
}

/// A community comment, or a designer's description shown as the first entry of a discussion.
public struct Comment: Sendable, Hashable, Codable {
    /// The file's stem, or the submission id when it came through sync.
    public let id: String
    public let author: String
    public let date: ISODate
    public let body: MarkdownSource
}

/// A community photo with its sidecar's details.
public struct Photo: Sendable, Hashable, Codable {
    public let file: SourceFile
    /// The sidecar with its details, when there is one.
    public let sidecar: SourceFile?
    /// The submission id when it came through sync, so a takedown can find it.
    public let id: String?
    public let caption: String?
    public let author: String?
    public let date: ISODate?
    public let credit: String?
    public let license: String?
    /// Consent to show where the photo was taken.
    public let showsLocation: Bool
}

/// The discussion and photos attached to a machine or a part.
public struct Community: Sendable, Hashable, Codable {
    /// Newest first.
    public let comments: [Comment]
    public let photos: [Photo]
}

/// One layer of a machine: a part's image and where it sits in the stack.
public struct Layer: Sendable, Hashable, Codable {
    public let image: SourceFile
    public let z: Int
    /// Top-left corner on the canvas; (0, 0) for a canvas-sized image.
    public let x: Int
    public let y: Int
    public let size: PixelSize
}

/// One key-value row of a part's specifications, in the order written.
public struct Spec: Sendable, Hashable, Codable {
    public let label: String
    /// As written: the page always shows it.
    public let value: String
    /// The quantity read from it, for conversions; `.text` when it is text or did not parse.
    public let reading: SpecReading
}

/// A part of a machine, loaded from parts/<slug>/.
public struct Part: Sendable, Hashable, Codable {
    public let slug: String
    /// Digest of part.yaml: every page that shows the part's details depends on it.
    public let source: ContentDigest
    public let name: String
    public let layer: Layer
    public let specs: [Spec]
    public let tags: [String]
    public let description: MarkdownSource?
    public let community: Community
}

/// A machine bundle, loaded from machines/<slug>/.
public struct Machine: Sendable, Hashable, Codable {
    public let slug: String
    public let folder: SourceFile
    /// Digest of machine.yaml.
    public let source: ContentDigest
    public let name: String
    public let summary: String
    public let canvas: PixelSize
    public let tags: [String]
    public let designer: String?
    public let license: String?
    public let updated: ISODate?
    /// The cover photo machine.yaml names; without one, the cover is composed from the layers.
    public let cover: SourceFile?
    /// Parts in stacking order, bottom first.
    public let parts: [Part]
    public let description: MarkdownSource?
    public let community: Community
    /// The machine's own user manual, from machines/<m>/manual/; empty when there is none.
    public let manual: Manual

    /// The .zip the bundle was read from (as messages name it), or nil for a bundle folder.
    public var archive: String? { folder.displayPath.hasSuffix(".zip") ? folder.displayPath : nil }

    public var commentCount: Int { community.comments.count + parts.reduce(0) { $0 + $1.community.comments.count } }
    public var photoCount: Int { community.photos.count + parts.reduce(0) { $0 + $1.community.photos.count } }
}

/// A page of a help manual.
public struct ManualPage: Sendable, Hashable, Codable {
    /// Path without extension relative to the manual folder ("writing/bundles").
    public let slug: String
    /// Where the page is published, relative to the manual's URL: the slug, with a folder's
    /// index.md (or README.md, as in mdBook) standing for the folder itself.
    public let path: [String]
    public let title: String
    public let weight: Int
    public let body: MarkdownSource
}

/// Everything a build reads: the loaded, validated content of one site.
public struct SiteContent: Sendable {
    public let root: String
    public let config: SiteConfig
    public let machines: [Machine]
    public let manual: Manual

    /// The same content with only the photos `keep` accepts: a photo that cannot be published
    /// disappears from every page, gallery and count.
    func keepingPhotos(_ keep: (Photo) -> Bool) -> SiteContent {
        func filtered(_ community: Community) -> Community {
            Community(comments: community.comments, photos: community.photos.filter(keep))
        }
        let machines = machines.map { machine in
            Machine(slug: machine.slug, folder: machine.folder, source: machine.source, name: machine.name,
                    summary: machine.summary, canvas: machine.canvas, tags: machine.tags, designer: machine.designer,
                    license: machine.license, updated: machine.updated, cover: machine.cover,
                    parts: machine.parts.map { part in
                        Part(slug: part.slug, source: part.source, name: part.name, layer: part.layer, specs: part.specs,
                             tags: part.tags, description: part.description, community: filtered(part.community))
                    },
                    description: machine.description, community: filtered(machine.community), manual: machine.manual)
        }
        return SiteContent(root: root, config: config, machines: machines, manual: manual)
    }
}
