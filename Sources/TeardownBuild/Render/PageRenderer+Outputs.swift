import Foundation
import TeardownBase
import TeardownContent

/// The outputs for apps, feed readers and crawlers: catalog.json, Atom feeds, sitemaps and
/// robots.txt. They carry absolute URLs, since they are read away from the site.
extension PageRenderer {
    /// Entries in a feed: enough for a reader polling now and then.
    package static let feedLimit = MachineHead.recentLimit

    package func absolute(_ url: URLPath) -> String { baseURL + url.value.dropFirst() }

    // MARK: catalog.json

    package func catalogData() -> String {
        let machines = content.machines
        let entries = machines.indices.map { index in
            let slug = machines[index].slug
            if let kept = source.catalogEntries?.entry(of: index, slug: slug) {
                reads.record(kept.units)
                return kept.text
            }
            // Each entry's reads apart, so that it can be kept with them.
            let entryReads = ReadSet()
            let text = PageRenderer(source: source, reads: entryReads).catalogEntry(index).listed
            reads.record(entryReads.units)
            source.catalogEntries?.keep(text, slug: slug, units: entryReads.units)
            return text
        }
        let collections = index.collections.map { collection in
            CatalogData.CollectionEntry(slug: collection.slug, title: collection.title, description: collection.description,
                                        url: absolute(Routes.collection(collection.slug)),
                                        machines: collection.machines.map { content.machines[$0].slug })
        }
        return CatalogData(schema: absolute(Routes.catalogSchema), title: content.config.title,
                           description: content.config.description, url: baseURL, machines: [],
                           collections: collections, intake: content.config.intakeURL.map(CatalogData.Intake.init))
            .json(machines: entries)
    }

    private func catalogEntry(_ index: Int) -> CatalogData.MachineEntry {
        let machine = content.machines[index]
        let cover = images.cover(of: machine).map { sharingImage($0, of: machine) }
        let download = download(of: machine)
        let photos = machine.galleryPhotos
        return CatalogData.MachineEntry(
            slug: machine.slug, name: machine.name, summary: machine.summary,
            updated: CatalogData.updated(machine, photos: photos)?.rfc3339,
            partCount: machine.parts.count, photoCount: photos.count,
            tags: machine.tags, url: absolute(Routes.machine(machine)), data: absolute(Routes.machineData(machine)),
            feed: absolute(Routes.feed(of: machine)),
            cover: cover.map { CatalogData.Image(url: $0.url, width: $0.width, height: $0.height) },
            download: CatalogData.Download(url: absolute(Routes.download(machine)), size: download?.size ?? 0,
                                           sha256: download?.sha256 ?? ""),
            comments: CatalogData.CommentsDownload(url: absolute(Routes.commentsDownload(machine))))
    }

    // MARK: Atom feeds

    /// A comment or a dated photo, before its HTML is made: only the newest few are rendered.
    private struct FeedItem {
        package let date: ISODate
        package let machine: Int
        package let part: Int?
        package let kind: Kind

        package enum Kind {
            /// The comment, and the page of the discussion it is on.
            case comment(Comment, page: Int)
            case photo(Photo)
        }

        package var id: String {
            switch kind {
            case .comment(let comment, _): "c:" + comment.id
            case .photo(let photo): "p:" + photo.file.name
            }
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

    /// The site's newest items: the comments and dated photos of the machines whose newest item
    /// can still make the list, the machines with the newest first. A machine's head is decoded
    /// only then (the dates are known without it, `MachineBrief`), and its comments, the larger
    /// part of it: the site's feed is made again on every new comment.
    private func siteFeedItems() -> [FeedItem] {
        var top: [FeedItem] = []
        let dates = content.machines.indices.map { m in
            [content.machines[m].newestCommentDate, content.machines[m].newestPhotoDate].compactMap { $0 }.max()
        }
        let order = dates.indices.filter { dates[$0] != nil }.sorted { (dates[$0]!, $0) > (dates[$1]!, $1) }
        for m in order {
            // Items of one date go by machine, part and id: a machine whose newest comment has
            // the date of the last item comes before it only if it comes later in the catalog.
            // (Comments are dated by the day: on a busy one, every machine commented that day
            // had its comments decoded.)
            if top.count == Self.feedLimit, let last = top.last, (dates[m]!, m) < (last.date, last.machine) { break }
            top = Self.newest(top + commentItems(m) + photoItems(m), limit: Self.feedLimit)
        }
        return top
    }

    /// The Atom feed of new comments and photos: the site's (`machine` nil) or one machine's.
    package func feed(_ machineIndex: Int?) -> String {
        let siteTitle = content.config.title
        let items = machineIndex.map { Self.newest(commentItems($0) + photoItems($0), limit: Self.feedLimit) } ?? siteFeedItems()
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
        for item in items { entry(item, into: &xml) }
        xml.end()
        return xml.text
    }

    private func entry(_ item: FeedItem, into xml: inout XMLWriter) {
        let machine = content.machines[item.machine]
        let part = item.part.map { machine.parts[$0] }
        let owner = part.map { Routes.part($0, of: machine) } ?? Routes.machine(machine)
        let subject = part.map { "\($0.name) of the \(machine.name)" } ?? "the \(machine.name)"
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
        }
        xml.end()
    }

    // MARK: Sitemaps and robots.txt

    /// The index of every sitemap file: the site's own pages', then each machine's.
    package func sitemap() -> String {
        let (site, machineParts) = siteSitemap
        var files = (1...SitePlan.SitemapPages.parts(site.count)).map { Routes.siteSitemap(part: $0) }
        for (m, parts) in machineParts.enumerated() {
            files += (1...parts).map { Routes.sitemap(of: content.machines[m], part: $0) }
        }
        var xml = XMLWriter()
        xml.start("sitemapindex", ["xmlns": "http://www.sitemaps.org/schemas/sitemap/0.9"])
        for file in files {
            xml.start("sitemap")
            xml.element("loc", text: absolute(file))
            xml.end()
        }
        xml.end()
        return xml.text
    }

    /// Part `number` of the sitemap of a machine's pages, or of the site's own.
    package func sitemap(of machine: Int?, part number: Int) -> String {
        let pages = machine.map { sitemapPages(of: content.machines[$0]) } ?? siteSitemap.pages
        return sitemap(SitePlan.SitemapPages.slice(pages, part: number))
    }

    private func sitemap(_ pages: ArraySlice<URLPath>) -> String {
        var xml = XMLWriter()
        xml.start("urlset", ["xmlns": "http://www.sitemaps.org/schemas/sitemap/0.9"])
        for page in pages {
            xml.start("url")
            xml.element("loc", text: absolute(page))
            xml.end()
        }
        xml.end()
        return xml.text
    }

    /// Crawlers may read everything, and learn where the sitemap is. (Crawlers look for
    /// robots.txt only at the root of a host: under a sub-path it is written but not read.)
    package func robots() -> String {
        "User-agent: *\nAllow: /\n\nSitemap: \(absolute(Routes.sitemap))\n"
    }
}
