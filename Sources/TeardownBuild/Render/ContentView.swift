import TeardownBase
import TeardownContent
import TeardownMedia

/// The loaded content as the renderer reads it. Every property records the unit it reads
/// into `reads`, so what an output depends on is what rendering it touched, not a list kept
/// beside the renderer. The loaded values are private: reading past a view does not compile.
package struct ContentView {
    private let content: SiteContent
    package let reads: ReadSet

    package init(_ content: SiteContent, reads: ReadSet) {
        self.content = content
        self.reads = reads
    }

    package var config: SiteConfig {
        reads.record(.settings)
        return content.config
    }

    package var machines: MachinesView { MachinesView(content.machines, reads: reads) }
}

/// The machines in order. Taking one by number reads nothing (a page knows its machine);
/// counting or walking them reads which machines there are.
package struct MachinesView: RandomAccessCollection {
    private let machines: [Machine]
    package let reads: ReadSet

    package init(_ machines: [Machine], reads: ReadSet) {
        self.machines = machines
        self.reads = reads
    }

    package var startIndex: Int { 0 }

    package var endIndex: Int {
        reads.record(.machineList)
        return machines.count
    }

    package subscript(position: Int) -> MachineView { MachineView(machines[position], index: position, reads: reads) }
}

/// A discussion and its photos, each read as its own unit. The comments are the machine's
/// text, decoded only when asked for; the photos are not.
package struct CommunityView {
    fileprivate let machine: Machine
    /// The part whose discussion it is, or nil for the machine's own.
    fileprivate let part: Int?
    fileprivate let text: InputUnit
    fileprivate let photoUnit: InputUnit
    package let reads: ReadSet

    /// Newest first.
    package var comments: [Comment] {
        reads.record(text)
        return part.map { machine.text.value.parts[$0].comments } ?? machine.text.value.comments
    }

    package var photos: [Photo] {
        reads.record(photoUnit)
        return part.map { machine.outlines[$0].photos } ?? machine.head.photos
    }
}

/// One machine. Its slug names its units, so reading it reads nothing else.
package struct MachineView: MachineAddressable {
    fileprivate let machine: Machine
    package let index: Int
    package let reads: ReadSet

    package init(_ machine: Machine, index: Int, reads: ReadSet) {
        self.machine = machine
        self.index = index
        self.reads = reads
    }

    package var slug: String { machine.slug }

    private func head<Value>(_ value: Value) -> Value {
        reads.record(.machine(index, .head))
        return value
    }

    package var name: String { head(machine.name) }
    package var summary: String { head(machine.summary) }
    package var canvas: PixelSize { head(machine.canvas) }
    package var tags: [String] { head(machine.tags) }
    package var designer: String? { head(machine.designer) }
    package var license: String? { head(machine.license) }
    package var updated: ISODate? { head(machine.updated) }
    /// The cover photo machine.yaml names (the file, not the processed image: see `cover(of:)`).
    package var coverFile: SourceFile? { head(machine.cover) }
    package var archive: String? { head(machine.archive) }
    /// Digest of what the site index files the machine by (`MachineHead.listingDigest`).
    package var listing: ContentDigest { head(machine.brief.listing) }

    package var parts: PartsView { PartsView(machine, index: index, reads: reads) }
    /// How many parts it has, known without its head (`MachineBrief`).
    package var partCount: Int { head(machine.brief.partCount) }

    /// The parts sorted by name (their names are the machine's head).
    package var partsByName: [PartView] {
        let parts = self.parts
        return head(machine.partsByName).map { parts[$0] }
    }

    package var description: MarkdownSource? {
        reads.record(.machine(index, .description))
        return machine.description
    }

    package var community: CommunityView {
        CommunityView(machine: machine, part: nil, text: .machine(index, .text), photoUnit: .machine(index, .photos),
                      reads: reads)
    }

    /// The newest comments of the machine and its parts, newest first, as many as a feed
    /// lists: the text of the machine and of each part, without decoding it.
    package var recentComments: [RecentComment] {
        reads.record(.machine(index, .feed))
        return machine.head.recent.all
    }

    /// The date of the machine's newest comment, without decoding the comments.
    package var newestCommentDate: ISODate? {
        reads.record(.machine(index, .feed))
        return machine.brief.newestComment
    }

    package var newestPhotoDate: ISODate? {
        reads.record(.machine(index, .feed))
        return machine.brief.newestPhoto
    }

    /// Every photo of the machine and its parts, with the part it shows (nil: the machine):
    /// what a feed picks its new photos from.
    package var feedPhotos: [(part: Int?, photo: Photo)] {
        reads.record(.machine(index, .feed))
        return machine.head.photos.map { (nil, $0) }
            + machine.outlines.enumerated().flatMap { part in part.element.photos.map { (part.offset, $0) } }
    }

    package var commentCount: Int {
        reads.record(.machine(index, .counts))
        return machine.commentCount
    }

    /// Every photo of the machine and its parts, through a unit that comments leave alone.
    package var galleryPhotos: [Photo] {
        reads.record(.machine(index, .gallery))
        return machine.head.photos + machine.outlines.flatMap(\.photos)
    }

    package var photoCount: Int {
        reads.record(.machine(index, .counts))
        return machine.photoCount
    }

    /// The machine's own manual, as far as its pages list it.
    package var manual: Manual {
        reads.record(.manual(index, .navigation))
        return machine.manual
    }
}

/// A machine's parts in stacking order: counting or walking them reads the machine's head.
/// The outlines are taken from the head once, not once for each thing a part is asked: a
/// list page asks each of its parts' machines for every layer's place.
package struct PartsView: RandomAccessCollection {
    private let owner: Machine
    private let outlines: [PartOutline]
    package let machine: Int
    package let reads: ReadSet

    package init(_ owner: Machine, index: Int, reads: ReadSet) {
        self.owner = owner
        outlines = owner.outlines
        self.machine = index
        self.reads = reads
    }

    package var startIndex: Int { 0 }

    package var endIndex: Int {
        reads.record(.machine(machine, .head))
        return outlines.count
    }

    package subscript(position: Int) -> PartView {
        PartView(owner, outline: outlines[position], machine: machine, index: position, reads: reads)
    }
}

/// One part. Its name and layer are part of its machine's head, which every page of the
/// machine draws; its tags and specs are its facts (part.yaml), which its own pages show. Its
/// specs, description and comments are the machine's text.
package struct PartView: PartAddressable {
    private let owner: Machine
    private let outline: PartOutline
    package let machine: Int
    package let index: Int
    package let reads: ReadSet

    init(_ owner: Machine, outline: PartOutline, machine: Int, index: Int, reads: ReadSet) {
        self.owner = owner
        self.outline = outline
        self.machine = machine
        self.index = index
        self.reads = reads
    }

    package var slug: String { outline.slug }

    private func head<Value>(_ value: Value) -> Value {
        reads.record(.machine(machine, .head))
        return value
    }

    package var name: String { head(outline.name) }
    package var layer: Layer { head(outline.layer) }
    package var specs: [Spec] {
        reads.record(.part(machine, index, .facts))
        return owner.text.value.parts[index].specs
    }

    package var tags: [String] {
        reads.record(.part(machine, index, .facts))
        return outline.tags
    }

    package var description: MarkdownSource? {
        reads.record(.part(machine, index, .description))
        return owner.text.value.parts[index].description
    }

    package var community: CommunityView {
        CommunityView(machine: owner, part: index, text: .part(machine, index, .text), photoUnit: .part(machine, index, .photos),
                      reads: reads)
    }
}

extension ProcessedImages {
    /// The machine's cover photo, or the cover composed from its layers: a unit of its own,
    /// digested from the processed image's key.
    package func cover(of machine: MachineView) -> ProcessedPhoto? {
        machine.reads.record(.machine(machine.index, .cover))
        return cover(slug: machine.slug, named: machine.machine.cover)
    }
}
