import Foundation
import TeardownBase
import TeardownContent

/// The outputs for apps, feed readers and crawlers: catalog.json, Atom feeds, sitemaps and
/// robots.txt. They carry absolute URLs, since they are read away from the site.
extension PageRenderer {
    package func absolute(_ url: URLPath) -> String { baseURL + url.value.dropFirst() }

    // MARK: catalog.json

    /// Every machine's entry, from its brief, its summary and its catalog facts: those of a
    /// machine the store vouches for as its row keeps them, the others made from the head.
    package func catalogData() -> String {
        let machines = content.machines
        let entries = machines.indices.map { index in
            let machine = machines[index]
            for aspect in CatalogFacts.aspects { reads.record(.machine(index, aspect)) }
            let facts = source.catalogFacts?[machine.slug]
                ?? CatalogFacts(machine, cover: source.cover(of: index, reads), download: download(of: machine))
            return catalogEntry(machine, facts: facts).listed
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

    private func catalogEntry(_ machine: MachineView, facts: CatalogFacts) -> CatalogData.MachineEntry {
        let cover = facts.cover.map { Self.sharingImage($0, of: machine, baseURL: baseURL) }
        return CatalogData.MachineEntry(
            slug: machine.slug, name: machine.name, summary: machine.summary, updated: facts.updated,
            partCount: machine.partCount, photoCount: facts.photoCount,
            tags: machine.tags, url: absolute(Routes.machine(machine)), data: absolute(Routes.machineData(machine)),
            feed: absolute(Routes.feed(of: machine)),
            cover: cover.map { CatalogData.Image(url: $0.url, width: $0.width, height: $0.height) },
            download: CatalogData.Download(url: absolute(Routes.download(machine)), size: facts.downloadSize,
                                           sha256: facts.downloadSHA256),
            comments: CatalogData.CommentsDownload(url: absolute(Routes.commentsDownload(machine))))
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
