/// The loaded content as the renderer reads it. Every property records the unit it reads
/// into `reads`, so what an output depends on is what rendering it touched, not a list kept
/// beside the renderer. The loaded values are private: reading past a view does not compile.
struct ContentView {
    private let content: SiteContent
    let reads: ReadSet

    init(_ content: SiteContent, reads: ReadSet) {
        self.content = content
        self.reads = reads
    }

    var config: SiteConfig {
        reads.record(.settings)
        return content.config
    }

    var machines: MachinesView { MachinesView(content.machines, reads: reads) }
}

/// The machines in order. Taking one by number reads nothing (a page knows its machine);
/// counting or walking them reads which machines there are.
struct MachinesView: RandomAccessCollection {
    private let machines: [Machine]
    let reads: ReadSet

    init(_ machines: [Machine], reads: ReadSet) {
        self.machines = machines
        self.reads = reads
    }

    var startIndex: Int { 0 }

    var endIndex: Int {
        reads.record(.machineList)
        return machines.count
    }

    subscript(position: Int) -> MachineView { MachineView(machines[position], index: position, reads: reads) }
}

/// A discussion and its photos, each read as its own unit. The comments are the machine's
/// text, decoded only when asked for; the photos are not.
struct CommunityView {
    fileprivate let machine: Machine
    /// The part whose discussion it is, or nil for the machine's own.
    fileprivate let part: Int?
    fileprivate let text: InputUnit
    fileprivate let photoUnit: InputUnit
    let reads: ReadSet

    /// Newest first.
    var comments: [Comment] {
        reads.record(text)
        return part.map { machine.text.value.parts[$0].comments } ?? machine.text.value.comments
    }

    var photos: [Photo] {
        reads.record(photoUnit)
        return part.map { machine.outlines[$0].photos } ?? machine.head.photos
    }
}

/// One machine. Its slug names its units, so reading it reads nothing else.
struct MachineView: MachineAddressable {
    fileprivate let machine: Machine
    let index: Int
    let reads: ReadSet

    init(_ machine: Machine, index: Int, reads: ReadSet) {
        self.machine = machine
        self.index = index
        self.reads = reads
    }

    var slug: String { machine.slug }

    private func head<Value>(_ value: Value) -> Value {
        reads.record(.machine(index, .head))
        return value
    }

    var name: String { head(machine.name) }
    var summary: String { head(machine.summary) }
    var canvas: PixelSize { head(machine.canvas) }
    var tags: [String] { head(machine.tags) }
    var designer: String? { head(machine.designer) }
    var license: String? { head(machine.license) }
    var updated: ISODate? { head(machine.updated) }
    /// The cover photo machine.yaml names (the file, not the processed image: see `cover(of:)`).
    var coverFile: SourceFile? { head(machine.cover) }
    var archive: String? { head(machine.archive) }

    var parts: PartsView { PartsView(machine, index: index, reads: reads) }

    /// The parts sorted by name (their names are the machine's head).
    var partsByName: [PartView] { head(machine.partsByName).map { parts[$0] } }

    var description: MarkdownSource? {
        reads.record(.machine(index, .description))
        return machine.description
    }

    var community: CommunityView {
        CommunityView(machine: machine, part: nil, text: .machine(index, .text), photoUnit: .machine(index, .photos),
                      reads: reads)
    }

    /// The newest comments of the machine and its parts, newest first, as many as a feed
    /// lists: the text of the machine and of each part, without decoding it.
    var recentComments: [RecentComment] {
        reads.record(.machine(index, .feed))
        return machine.head.recent.all
    }

    /// The date of the machine's newest comment, without decoding the comments.
    var newestCommentDate: ISODate? {
        reads.record(.machine(index, .feed))
        return machine.head.recent.newest
    }

    /// Every photo of the machine and its parts, with the part it shows (nil: the machine):
    /// what a feed picks its new photos from.
    var feedPhotos: [(part: Int?, photo: Photo)] {
        reads.record(.machine(index, .feed))
        return machine.head.photos.map { (nil, $0) }
            + machine.outlines.enumerated().flatMap { part in part.element.photos.map { (part.offset, $0) } }
    }

    var commentCount: Int {
        reads.record(.machine(index, .counts))
        return machine.commentCount
    }

    /// Every photo of the machine and its parts, through a unit that comments leave alone.
    var galleryPhotos: [Photo] {
        reads.record(.machine(index, .gallery))
        return machine.head.photos + machine.outlines.flatMap(\.photos)
    }

    var photoCount: Int {
        reads.record(.machine(index, .counts))
        return machine.photoCount
    }

    /// The machine's own manual, as far as its pages list it.
    var manual: Manual {
        reads.record(.manual(index, .navigation))
        return machine.manual
    }
}

/// A machine's parts in stacking order: counting or walking them reads the machine's head.
struct PartsView: RandomAccessCollection {
    private let owner: Machine
    let machine: Int
    let reads: ReadSet

    init(_ owner: Machine, index: Int, reads: ReadSet) {
        self.owner = owner
        self.machine = index
        self.reads = reads
    }

    var startIndex: Int { 0 }

    var endIndex: Int {
        reads.record(.machine(machine, .head))
        return owner.outlines.count
    }

    subscript(position: Int) -> PartView { PartView(owner, machine: machine, index: position, reads: reads) }
}

/// One part. Its name, layer, specs and tags are part of its machine's head, which every page
/// of the machine draws. Its specs, description and comments are the machine's text.
struct PartView: PartAddressable {
    private let owner: Machine
    let machine: Int
    let index: Int
    let reads: ReadSet

    init(_ owner: Machine, machine: Int, index: Int, reads: ReadSet) {
        self.owner = owner
        self.machine = machine
        self.index = index
        self.reads = reads
    }

    private var outline: PartOutline { owner.outlines[index] }

    var slug: String { outline.slug }

    private func head<Value>(_ value: Value) -> Value {
        reads.record(.machine(machine, .head))
        return value
    }

    var name: String { head(outline.name) }
    var layer: Layer { head(outline.layer) }
    var specs: [Spec] { head(owner.text.value.parts[index].specs) }
    var tags: [String] { head(outline.tags) }

    var description: MarkdownSource? {
        reads.record(.part(machine, index, .description))
        return owner.text.value.parts[index].description
    }

    var community: CommunityView {
        CommunityView(machine: owner, part: index, text: .part(machine, index, .text), photoUnit: .part(machine, index, .photos),
                      reads: reads)
    }
}

extension ProcessedImages {
    /// The machine's cover photo, or the cover composed from its layers: a unit of its own,
    /// digested from the processed image's key.
    func cover(of machine: MachineView) -> ProcessedPhoto? {
        machine.reads.record(.machine(machine.index, .cover))
        return cover(slug: machine.slug, named: machine.machine.cover)
    }
}
