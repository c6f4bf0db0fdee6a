import Foundation
import TeardownBase
import TeardownContent

/// The Atom feeds of new comments and photos: the site's and each machine's.
extension PageRenderer {
    /// Entries in a feed: enough for a reader polling now and then.
    package static let feedLimit = MachineHead.recentLimit

    /// A comment or a dated photo, before its entry is made: only the newest few are.
    private struct FeedItem {
        let date: ISODate
        let machine: Int
        let part: Int?
        /// What orders items of one date, machine and part.
        let id: String
        let kind: Kind

        enum Kind {
            /// The comment, and the page of the discussion it is on.
            case comment(Comment, page: Int)
            case photo(Photo)
            /// An entry the last build wrote, with what it read (`FeedEntries`).
            case kept(text: String, units: Set<InputUnit>)
        }

        init(date: ISODate, machine: Int, part: Int?, kind: Kind) {
            self.date = date
            self.machine = machine
            self.part = part
            self.kind = kind
            switch kind {
            case .comment(let comment, _): id = "c:" + comment.id
            case .photo(let photo): id = "p:" + photo.file.name
            case .kept: id = ""
            }
        }

        init(_ kept: FeedEntries.Item) {
            (date, machine, part, id) = (kept.date, kept.machine, kept.part, kept.id)
            kind = .kept(text: kept.text, units: kept.units)
        }
    }

    /// The `limit` newest items, newest first. The site's feed chooses 50 of every comment and
    /// photo of the site: a full sort with a key built per comparison showed in profiles.
    private static func newest(_ items: [FeedItem], limit: Int) -> [FeedItem] {
        var top: [FeedItem] = []
        top.reserveCapacity(limit + 1)
        for item in items {
            if top.count == limit, let last = top.last, !isNewer(item, than: last) { continue }
            let index = top.firstIndex { isNewer(item, than: $0) } ?? top.count
            top.insert(item, at: index)
            if top.count > limit { top.removeLast() }
        }
        return top
    }

    /// By date, then machine, part and id, so that items of one date keep one order.
    private static func isNewer(_ a: FeedItem, than b: FeedItem) -> Bool {
        if a.date != b.date { return a.date > b.date }
        if a.machine != b.machine { return a.machine > b.machine }
        if a.part != b.part { return (a.part ?? -1) > (b.part ?? -1) }
        return a.id > b.id
    }

    private func commentItems(_ m: Int) -> [FeedItem] {
        let perPage = content.config.commentsPerPage
        // A machine keeps its newest comments beside its outline: as many as a feed lists.
        return content.machines[m].recentComments.map { recent in
            FeedItem(date: recent.comment.date, machine: m, part: recent.part,
                     kind: .comment(recent.comment, page: recent.position / perPage + 1))
        }
    }

    private func photoItems(_ m: Int) -> [FeedItem] {
        // A photo without a date has no place in a list of what is new.
        content.machines[m].feedPhotos.compactMap { p, photo in
            photo.date.map { FeedItem(date: $0, machine: m, part: p, kind: .photo(photo)) }
        }
    }

    /// The newest date of machine `m`'s items, known without its head (`MachineBrief`).
    private func newestDate(_ m: Int) -> ISODate? {
        [content.machines[m].newestCommentDate, content.machines[m].newestPhotoDate].compactMap { $0 }.max()
    }

    /// Whether machine `m`, whose newest item is of `date`, can still make a full list.
    private static func canMake(_ top: [FeedItem], _ date: ISODate, _ m: Int) -> Bool {
        guard top.count == feedLimit, let last = top.last else { return true }
        return (date, m) >= (last.date, last.machine)
    }

    /// The site's newest items, and whether they are every item of the site: the items the last
    /// build kept of the machines that did not change, with the changed machines' own
    /// (`FeedEntries`), or else those of every machine whose newest item can still make the list.
    private func siteFeedItems() -> (items: [FeedItem], complete: Bool) {
        // Any machine's newest item may make the list: the feed reads them all.
        let dates = content.machines.indices.map(newestDate)
        if let kept = source.feedEntries?.kept(), let items = siteFeedItems(keeping: kept, dates: dates) { return items }
        var top: [FeedItem] = []
        let order = dates.indices.filter { dates[$0] != nil }.sorted { (dates[$0]!, $0) > (dates[$1]!, $1) }
        for m in order {
            // Items of one date go by machine, part and id: a machine whose newest comment has
            // the date of the last item comes before it only if it comes later in the catalog.
            // (Comments are dated by the day: on a busy one, every machine commented that day
            // had its comments decoded, which is why the list is kept.)
            guard Self.canMake(top, dates[m]!, m) else { break }
            top = Self.newest(top + commentItems(m) + photoItems(m), limit: Self.feedLimit)
        }
        return (top, top.count < Self.feedLimit)
    }

    /// The list from the items kept and the changed machines' items; nil when an item left
    /// out of the list kept could now make it.
    private func siteFeedItems(keeping kept: FeedEntries.Kept, dates: [ISODate?]) -> (items: [FeedItem], complete: Bool)? {
        var top = Self.newest(kept.items.map(FeedItem.init), limit: Self.feedLimit)
        let lastKept = top.last
        for m in kept.changed {
            guard let date = dates[m], Self.canMake(top, date, m) else { continue }
            top = Self.newest(top + commentItems(m) + photoItems(m), limit: Self.feedLimit)
        }
        if kept.complete { return (top, top.count < Self.feedLimit) }
        guard top.count == Self.feedLimit, let lastKept, let last = top.last, !Self.isNewer(lastKept, than: last) else { return nil }
        return (top, false)
    }

    /// The Atom feed of new comments and photos: the site's (`machine` nil) or one machine's.
    package func feed(_ machineIndex: Int?) -> String {
        let siteTitle = content.config.title
        let chosen = machineIndex.map { (Self.newest(commentItems($0) + photoItems($0), limit: Self.feedLimit), false) }
            ?? siteFeedItems()
        let items = chosen.0
        let machine = machineIndex.map { content.machines[$0] }
        let feedURL = machine.map { Routes.feed(of: $0) } ?? Routes.feed
        let page = machine.map { Routes.machine($0) } ?? Routes.catalog
        // An empty feed still needs a date; the machine's own is the one that does not change by itself.
        let updated = items.first?.date.rfc3339 ?? machine?.updated?.rfc3339 ?? "1970-01-01T00:00:00Z"

        var xml = XMLWriter()
        xml.start("feed", ["xmlns": "http://www.w3.org/2005/Atom", "xml:lang": content.config.language])
        xml.element("title", text: machine.map { "\($0.name) · \(siteTitle): new comments and photos" }
            ?? "\(siteTitle): new comments and photos")
        xml.element("id", text: absolute(feedURL))
        xml.empty("link", ["rel": "self", "type": "application/atom+xml", "href": absolute(feedURL)])
        xml.empty("link", ["rel": "alternate", "type": "text/html", "href": absolute(page)])
        xml.element("updated", text: updated)
        // Atom wants an author for every entry; the site stands in for a photo without one.
        xml.start("author")
        xml.element("name", text: siteTitle)
        xml.end()
        xml.element("generator", ["version": TeardownVersion.current], text: "Teardown")
        var entries: [FeedEntries.Item] = []
        for item in items {
            let text: String, units: Set<InputUnit>
            if case .kept(let keptText, let keptUnits) = item.kind {
                (text, units) = (keptText, keptUnits)
            } else {
                // Each entry's reads apart, so that it can be kept with them.
                let entryReads = ReadSet()
                text = PageRenderer(source: source, reads: entryReads).entry(item, depth: xml.depth)
                units = entryReads.units
            }
            reads.record(units)
            xml.append(text)
            entries.append(FeedEntries.Item(machine: item.machine, part: item.part, id: item.id, date: item.date,
                                            text: text, units: units))
        }
        xml.end()
        if machineIndex == nil {
            let made = items.count { if case .kept = $0.kind { false } else { true } }
            source.feedEntries?.keep(entries, made: made, complete: chosen.1)
        }
        return xml.text
    }

    /// An item's `<entry>`, indented `depth` levels.
    private func entry(_ item: FeedItem, depth: Int) -> String {
        let machine = content.machines[item.machine]
        let part = item.part.map { machine.parts[$0] }
        let owner = part.map { Routes.part($0, of: machine) } ?? Routes.machine(machine)
        let subject = part.map { "\($0.name) of the \(machine.name)" } ?? "the \(machine.name)"
        var xml = XMLWriter(fragmentAt: depth)
        xml.start("entry")
        switch item.kind {
        case .comment(let comment, let number):
            let link = absolute(Routes.discussion(owner, page: number)) + "#" + Self.anchor(of: comment)
            xml.element("title", text: "\(comment.author) on \(subject)")
            xml.element("id", text: absolute(owner) + "#" + Self.anchor(of: comment))
            xml.empty("link", ["rel": "alternate", "type": "text/html", "href": link])
            xml.element("updated", text: comment.date.rfc3339)
            xml.start("author")
            xml.element("name", text: comment.author)
            xml.end()
            xml.element("content", ["type": "html"], text: html(of: comment))
        case .photo(let photo):
            let page = absolute(Routes.photo(photo, under: owner))
            let author = photo.author ?? photo.credit
            xml.element("title", text: "Photo of \(subject)" + (author.map { " by \($0)" } ?? "")
                        + (photo.caption.map { ": \($0)" } ?? ""))
            xml.element("id", text: page)
            xml.empty("link", ["rel": "alternate", "type": "text/html", "href": page])
            xml.element("updated", text: photo.date!.rfc3339)
            if let author {
                xml.start("author")
                xml.element("name", text: author)
                xml.end()
            }
            var html = ""
            if let image = photoSharingImage(photo, owner: owner) {
                html += "<p><img src=\"\(HTMLEscaping.attribute(image.url))\" width=\"\(image.width)\" height=\"\(image.height)\" "
                    + "alt=\"\(HTMLEscaping.attribute(alt(photo)))\"></p>"
            }
            for line in [photo.caption, credit(photo), photo.license.map { "License: \($0)" }].compactMap({ $0 }) {
                html += "<p>\(HTMLEscaping.attribute(line))</p>"
            }
            xml.element("content", ["type": "html"], text: html)
        case .kept(let text, _):
            return text
        }
        xml.end()
        return xml.text
    }
}
