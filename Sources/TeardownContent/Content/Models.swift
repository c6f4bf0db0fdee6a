import TeardownBase

/// Markdown text with the file and line it starts at, rendered later.
public struct MarkdownSource: Sendable, Hashable, Codable {
    public let text: String
    public let file: SourceFile
    /// Line of `file` on which `text` starts.
    public let firstLine: Int
    /// Where runs of lines came from, when the text was put together from several files (a
    /// manual page with `{{#include}}`s): empty when every line is `file`'s, from `firstLine` on.
    public var origins: [LineOrigin] = []

    public struct LineOrigin: Sendable, Hashable, Codable {
        /// The line of `text`, from 1, where the run starts.
        public let line: Int
        public let file: SourceFile
        public let fileLine: Int

        public init(line: Int, file: SourceFile, fileLine: Int) {
            self.line = line
            self.file = file
            self.fileLine = fileLine
        }
    }

    public init(text: String, file: SourceFile, firstLine: Int, origins: [LineOrigin] = []) {
        self.text = text
        self.file = file
        self.firstLine = firstLine
        self.origins = origins
    }

    /// Where line `line` (from 1) of `text` is in its file.
    public func location(line: Int, column: Int) -> SourceLocation {
        guard let origin = origins.last(where: { $0.line <= line }) else {
            return file.location(line: firstLine + line - 1, column: column)
        }
        return origin.file.location(line: origin.fileLine + line - origin.line, column: column)
    }
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

/// A part as any page of the site may show it: everything but its text (`MachineText`).
public struct PartOutline: Sendable, Hashable, Codable {
    public let slug: String
    public let source: ContentDigest
    public let name: String
    public let layer: Layer
    public let tags: [String]
    public let photos: [Photo]
    public let commentCount: Int
    /// Digest of its description and comments (`MachineText.digest`).
    public let textDigest: ContentDigest
    /// Digest of its description alone: machine.json shows it, and not the comments.
    public let descriptionDigest: ContentDigest
}

/// One of a machine's newest comments, kept beside its outline for the feeds.
public struct RecentComment: Sendable, Hashable, Codable {
    /// The part whose discussion it is in, or nil for the machine's own.
    public let part: Int?
    /// Its place in that discussion, newest first.
    public let position: Int
    public let comment: Comment
}

/// What the whole site reads of a machine: everything but its text. It is the head of the
/// machine's content cache entry, decoded on every build; the text is decoded only for the
/// machine's own pages.
package struct MachineHead: Sendable, Hashable, Codable {
    package let slug: String
    package let folder: SourceFile
    package let source: ContentDigest
    package let name: String
    package let summary: String
    package let canvas: PixelSize
    package let tags: [String]
    package let designer: String?
    package let license: String?
    package let updated: ISODate?
    package let cover: SourceFile?
    package let parts: [PartOutline]
    /// The machine's own photos.
    package let photos: [Photo]
    /// The machine's own comments.
    package let commentCount: Int
    /// Digest of its description and own comments.
    package let textDigest: ContentDigest
    /// Digest of its description alone.
    package let descriptionDigest: ContentDigest
    /// The newest comments of the machine and its parts, newest first, as many as a feed lists.
    package let recent: RecentComments
    /// The ids of every comment of the machine and its parts, each on a line of its own, with
    /// a line break first: sync finds an id here without decoding the text.
    package let commentIDs: String
    package let manual: Manual
    /// Digest of what the site's indexes file the machine by (`listingDigest`): a build whose
    /// machines all have the listing they had takes the site index as it stored it.
    package let listing: ContentDigest

    /// How many comments `recent` keeps: what a feed lists.
    package static let recentLimit = 50

    /// The machine's slug, name and tags, and each part's slug, name and tags, in order.
    package static func listingDigest(slug: String, name: String, tags: [String], parts: [PartOutline]) -> ContentDigest {
        var fingerprint = Fingerprint()
        fingerprint.add(slug)
        fingerprint.add(name)
        fingerprint.add(tags.count)
        for tag in tags { fingerprint.add(tag) }
        fingerprint.add(parts.count)
        for part in parts {
            fingerprint.add(part.slug)
            fingerprint.add(part.name)
            fingerprint.add(part.tags.count)
            for tag in part.tags { fingerprint.add(tag) }
        }
        return fingerprint.digest
    }

    /// Whether `a` is listed above `b` in one machine's feed: by date, then part, then id.
    package static func isNewer(_ a: RecentComment, than b: RecentComment) -> Bool {
        if a.comment.date != b.comment.date { return a.comment.date > b.comment.date }
        if a.part != b.part { return (a.part ?? -1) > (b.part ?? -1) }
        return a.comment.id > b.comment.id
    }
}

/// A machine bundle, loaded from machines/<slug>/: its head (`MachineHead`) and its text,
/// whose stored form is decoded when first read.
public struct Machine: Sendable, Hashable, Codable {
    /// The machine's slug and folder, known without its head: what finds it among the others.
    public let slug: String
    public let folder: SourceFile
    private let headStore: MachineHeadStore
    package var head: MachineHead { headStore.value }
    /// What is known of it without its head.
    package var brief: MachineBrief { headStore.brief }
    /// Whether its head's stored bytes were found damaged when read, and its bundle read again.
    package var headWasReloaded: Bool { headStore.wasReloaded }
    package let text: MachineTextStore
    /// The parts and discussion put together from head and text, while the text is at hand.
    private let whole = Assembled()
    /// The parts' positions in name order, sorted once: every page of a machine lists its
    /// parts A to Z, and the locale-aware comparison showed in build profiles.
    private let nameOrder = Locked<[Int]?>(nil)

    package init(head: MachineHead, text: MachineTextStore) {
        self.init(slug: head.slug, folder: head.folder, head: MachineHeadStore(head), text: text)
    }

    /// A machine whose head is decoded when first read (`MachineHeadStore`).
    package init(slug: String, folder: SourceFile, head: MachineHeadStore, text: MachineTextStore) {
        self.slug = slug
        self.folder = folder
        headStore = head
        self.text = text
    }

    package init(slug: String, folder: SourceFile, source: ContentDigest, name: String, summary: String, canvas: PixelSize,
         tags: [String], designer: String?, license: String?, updated: ISODate?, cover: SourceFile?, parts: [Part],
         description: MarkdownSource?, community: Community, manual: Manual) {
        var recent: [RecentComment] = []
        for (index, discussion) in [(nil, community.comments)] + parts.enumerated().map({ ($0.offset as Int?, $0.element.community.comments) }) {
            recent += discussion.enumerated().map { RecentComment(part: index, position: $0.offset, comment: $0.element) }
        }
        recent.sort(by: MachineHead.isNewer)
        let outlines = parts.map { part in
            PartOutline(slug: part.slug, source: part.source, name: part.name, layer: part.layer, tags: part.tags,
                        photos: part.community.photos, commentCount: part.community.comments.count,
                        textDigest: MachineText.digest(part.description, part.community.comments),
                        descriptionDigest: MachineText.digest(part.description, []))
        }
        self.slug = slug
        self.folder = folder
        let head = MachineHead(slug: slug, folder: folder, source: source, name: name, summary: summary, canvas: canvas, tags: tags,
                               designer: designer, license: license, updated: updated, cover: cover, parts: outlines,
                               photos: community.photos, commentCount: community.comments.count,
                               textDigest: MachineText.digest(description, community.comments),
                               descriptionDigest: MachineText.digest(description, []),
                               recent: RecentComments(Array(recent.prefix(MachineHead.recentLimit))),
                               commentIDs: "\n" + recent.map { $0.comment.id + "\n" }.joined(), manual: manual,
                               listing: MachineHead.listingDigest(slug: slug, name: name, tags: tags, parts: outlines))
        headStore = MachineHeadStore(head)
        text = MachineTextStore(MachineText(description: description, comments: community.comments, parts: parts.map {
            MachineText.PartText(description: $0.description, specs: $0.specs, comments: $0.community.comments)
        }))
    }

    /// Its bundle's name as the input snapshot and the indexes name it: the folder's (or the
    /// archive's) name in content/machines/.
    package var bundleName: String { folder.displayPath.split(separator: "/").last.map(String.init) ?? "" }
    /// Digest of machine.yaml.
    public var source: ContentDigest { head.source }
    public var name: String { brief.name }
    public var summary: String { brief.summary }
    public var canvas: PixelSize { head.canvas }
    public var tags: [String] { brief.tags }
    public var designer: String? { head.designer }
    public var license: String? { head.license }
    public var updated: ISODate? { head.updated }
    /// The cover photo machine.yaml names; without one, the cover is composed from the layers.
    public var cover: SourceFile? { brief.cover }
    /// The machine's own user manual, from machines/<m>/manual/; empty when there is none.
    public var manual: Manual { head.manual }
    /// Parts in stacking order, bottom first, without their text: what site-wide outputs read.
    public var outlines: [PartOutline] { head.parts }

    /// The positions in `outlines` of the parts sorted by name, as a reader expects ("Gear 2" before "Gear 10").
    public var partsByName: [Int] {
        nameOrder.withLock { order in
            if let order { return order }
            let keys = head.parts.map { NaturalOrder($0.name) }
            let sorted = keys.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }
            order = sorted
            return sorted
        }
    }

    /// Parts in stacking order, bottom first, with their text (which this decodes).
    public var parts: [Part] { assembled.parts }
    public var description: MarkdownSource? { text.value.description }
    public var community: Community { assembled.community }

    private var assembled: (parts: [Part], community: Community) {
        whole.value { [head, text] in
            let text = text.value
            let parts = zip(head.parts, text.parts).map { outline, text in
                Part(slug: outline.slug, source: outline.source, name: outline.name, layer: outline.layer, specs: text.specs,
                     tags: outline.tags, description: text.description,
                     community: Community(comments: text.comments, photos: outline.photos))
            }
            return (parts, Community(comments: text.comments, photos: head.photos))
        }
    }

    /// The parts and discussion of a machine, put together once and forgotten as its text is.
    private final class Assembled: Forgettable, @unchecked Sendable {
        private let whole = Locked<(parts: [Part], community: Community)?>(nil)

        func value(_ make: () -> (parts: [Part], community: Community)) -> (parts: [Part], community: Community) {
            let (value, madeNow) = whole.withLock { whole in
                if let whole { return (whole, false) }
                let made = make()
                whole = made
                return (made, true)
            }
            if madeNow { RecentlyDecoded.note(self) }
            return value
        }

        func forget() { whole.withLock { $0 = nil } }
    }

    /// The .zip the bundle was read from (as messages name it), or nil for a bundle folder.
    public var archive: String? { folder.displayPath.hasSuffix(".zip") ? folder.displayPath : nil }

    /// Every community photo of the machine and its parts.
    public var allPhotos: [Photo] { head.photos + head.parts.flatMap(\.photos) }

    public var commentCount: Int { brief.commentCount }
    public var photoCount: Int { brief.photoCount }

    /// The same machine with only the photos `keep` accepts; its text is not read.
    package func keepingPhotos(_ keep: (Photo) -> Bool) -> Machine {
        // Nearly always every photo is kept, and then the head is not made again.
        if head.photos.allSatisfy(keep), head.parts.allSatisfy({ $0.photos.allSatisfy(keep) }) { return self }
        let head = head
        let parts = head.parts.map { part in
            PartOutline(slug: part.slug, source: part.source, name: part.name, layer: part.layer, tags: part.tags,
                        photos: part.photos.filter(keep), commentCount: part.commentCount, textDigest: part.textDigest,
                        descriptionDigest: part.descriptionDigest)
        }
        return Machine(head: MachineHead(slug: head.slug, folder: head.folder, source: head.source, name: head.name,
                                         summary: head.summary, canvas: head.canvas, tags: head.tags, designer: head.designer,
                                         license: head.license, updated: head.updated, cover: head.cover, parts: parts,
                                         photos: head.photos.filter(keep), commentCount: head.commentCount,
                                         textDigest: head.textDigest, descriptionDigest: head.descriptionDigest,
                                         recent: head.recent, commentIDs: head.commentIDs,
                                         manual: head.manual, listing: head.listing),
                       text: text)
    }

    public static func == (a: Machine, b: Machine) -> Bool { a.head == b.head && a.text.value == b.text.value }

    public func hash(into hasher: inout Hasher) { hasher.combine(head) }

    private enum CodingKeys: String, CodingKey { case head, text }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let head = try container.decode(MachineHead.self, forKey: .head)
        slug = head.slug
        folder = head.folder
        headStore = MachineHeadStore(head)
        text = MachineTextStore(try container.decode(MachineText.self, forKey: .text))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(head, forKey: .head)
        try container.encode(text.value, forKey: .text)
    }
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

    /// The same content without the photos at `paths` (absolute): a photo that cannot be
    /// published disappears from every page, gallery and count. Only the machines whose folder
    /// holds one are looked at: the others' heads stay undecoded.
    package func withoutPhotos(_ paths: Set<String>) -> SiteContent {
        SiteContent(root: root, config: config, machines: machines.map { machine in
            let folder = machine.folder.absolutePath + "/"
            guard paths.contains(where: { $0.hasPrefix(folder) }) else { return machine }
            return machine.keepingPhotos { !paths.contains($0.file.absolutePath) }
        }, manual: manual)
    }
}
