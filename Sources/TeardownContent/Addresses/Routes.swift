import TeardownBase

/// Where each piece of content is published. The only place that knows the URL scheme.
package enum Routes {
    package static let catalog = URLPath.root
    /// Page `number` of the catalog: the site's front page, then `/page/2/` and on.
    package static func catalog(page number: Int) -> URLPath { number <= 1 ? catalog : .page("page", String(number)) }
    package static let manual = URLPath.page("manual")
    package static let notFound = URLPath("/404.html")

    package static func machine(_ machine: some MachineAddressable) -> URLPath { .page("machines", machine.slug) }

    package static func part(_ part: some PartAddressable, of machine: some MachineAddressable) -> URLPath {
        self.part(slug: part.slug, of: machine)
    }

    package static func part(slug: String, of machine: some MachineAddressable) -> URLPath {
        .page("machines", machine.slug, "parts", slug)
    }

    /// A layer published at `file`, relative to its machine's page (`layerInMachine`).
    package static func layer(_ file: String, of machine: some MachineAddressable) -> URLPath {
        URLPath(Routes.machine(machine).value + file)
    }

    /// Page `number` (1-based) of a discussion whose first page is `base`.
    package static func discussion(_ base: URLPath, page number: Int) -> URLPath {
        number <= 1 ? base : URLPath(base.value + "discussion/\(number)/")
    }

    package static func layer(_ part: some PartAddressable, of machine: some MachineAddressable, optimized: Bool) -> URLPath {
        URLPath(Routes.machine(machine).value + layerInMachine(part, optimized: optimized))
    }

    /// A part's layer image relative to its machine's page; a raster layer is published as
    /// an optimized WebP copy, an SVG under its own name (as its sanitised copy).
    package static func layerInMachine(_ part: some PartAddressable, optimized: Bool) -> String {
        let isSVG = part.layer.image.pathExtension.lowercased() == "svg"
        let name = optimized && !isSVG ? part.layer.image.stem + ".webp" : part.layer.image.name
        return String(URLPath.file(["parts", part.slug, name]).value.dropFirst())
    }

    /// The data the interactive machine view reads.
    package static func machineData(_ machine: some MachineAddressable) -> URLPath { URLPath(Routes.machine(machine).value + "machine.json") }

    /// The comment counts and newest comments the machine view shows beside its data.
    package static func machineDiscussion(_ machine: some MachineAddressable) -> URLPath {
        URLPath(Routes.machine(machine).value + "discussion.json")
    }

    /// A copy of the machine's cover, composed from its layers or made from its cover photo.
    package static func cover(_ machine: some MachineAddressable, file name: String) -> URLPath {
        URLPath(Routes.machine(machine).value + "cover/" + (URLPath.file([name]).value.dropFirst()))
    }

    /// The machine's layers composed into one image, `width` wide, which its part pages draw it
    /// from: the cover's own copy when the cover is composed, else one beside it.
    package static func composedStack(_ machine: some MachineAddressable, width: Int, isCover: Bool) -> URLPath {
        let name = PhotoFiles.cover(width, "webp")
        return isCover ? cover(machine, file: name) : URLPath(Routes.machine(machine).value + "stack/" + name)
    }

    /// The photos of a machine or part: `owner` is its page.
    package static func gallery(_ owner: URLPath) -> URLPath { URLPath(owner.value + "photos/") }

    /// Page `number` of the gallery of every photo of the site.
    package static func photos(page number: Int) -> URLPath { number <= 1 ? .page("photos") : .page("photos", "\(number)") }

    /// A photo's own page, under the gallery of the machine or part it belongs to.
    package static func photo(_ photo: Photo, under owner: URLPath) -> URLPath {
        URLPath(gallery(owner).value + (URLPath.page(photo.file.stem).value.dropFirst()))
    }

    /// A file of a photo (a variant or the download), beside its page.
    package static func photoFile(_ photo: Photo, under owner: URLPath, _ name: String) -> URLPath {
        URLPath(Routes.photo(photo, under: owner).value + (URLPath.file([name]).value.dropFirst()))
    }

    /// A machine's own manual.
    package static func manual(of machine: some MachineAddressable) -> URLPath { URLPath(Routes.machine(machine).value + "manual/") }

    /// A manual page, under the manual's address `base`.
    package static func manualPage(_ page: ManualPage, in base: URLPath) -> URLPath {
        URLPath(base.value + URLPath.page(page.path).value.dropFirst())
    }

    /// A file of the manual folder (an image, a download) at its path in the folder.
    package static func manualAsset(_ relative: String, in base: URLPath) -> URLPath {
        URLPath(base.value + URLPath.file(relative.split(separator: "/").map(String.init)).value.dropFirst())
    }

    /// Every page of a manual on one page, in reading order.
    package static func manualPrint(in base: URLPath) -> URLPath { URLPath(base.value + "print/") }

    /// The full navigation tree as a page: the manual's own address when it has no index page.
    package static func manualContents(_ manual: Manual, in base: URLPath) -> URLPath {
        manual.indexPage == nil ? base : URLPath(base.value + "contents/")
    }

    /// The navigation tree as data, for manuals too long to repeat it on every page.
    package static func manualNavigation(in base: URLPath) -> URLPath { URLPath(base.value + "nav.json") }

    package static let search = URLPath.page("search")

    // MARK: Outputs for apps, feeds and crawlers

    /// Every machine with its download, for apps; described by `catalogSchema`.
    package static let catalogData = URLPath("/catalog.json")
    package static let catalogSchema = URLPath("/catalog.schema.json")

    /// A machine's bundle as a .zip, without the community's comments.
    package static func download(_ machine: some MachineAddressable) -> URLPath { .file(["downloads", machine.slug + ".zip"]) }

    /// The comments of a machine and its parts as a .zip, at their paths in the bundle.
    package static func commentsDownload(_ machine: some MachineAddressable) -> URLPath {
        .file(commentsDownloadFolder.split(separator: "/").map(String.init) + [machine.slug + ".zip"])
    }

    /// The folder of the comments' downloads, relative to the site's root.
    package static let commentsDownloadFolder = "downloads/comments"

    /// The Atom feed of new comments and photos: the site's, or one machine's.
    package static let feed = URLPath("/feed.xml")
    package static func feed(of machine: some MachineAddressable) -> URLPath { URLPath(Routes.machine(machine).value + "feed.xml") }

    /// The sitemap index, which crawlers are told of.
    package static let sitemap = URLPath("/sitemap.xml")

    /// Part `number` of the sitemap of the site's own pages.
    package static func siteSitemap(part number: Int) -> URLPath {
        URLPath(number <= 1 ? "/sitemap-site.xml" : "/sitemap-site-\(number).xml")
    }

    /// Part `number` of the sitemap of a machine's pages: in its folder, as the protocol asks of
    /// a sitemap that lists only what is below it.
    package static func sitemap(of machine: some MachineAddressable, part number: Int) -> URLPath {
        URLPath(Routes.machine(machine).value + (number <= 1 ? "sitemap.xml" : "sitemap-\(number).xml"))
    }
    package static let robots = URLPath("/robots.txt")

    // MARK: Indexes

    /// The A-Z index of parts: the card file's tabs, and one page per letter.
    package static let partsIndex = URLPath.page("parts")
    package static func parts(letter key: String, page number: Int = 1) -> URLPath { paged(.page("parts", key), number) }

    package static let tags = URLPath.page("tags")
    package static func tag(_ slug: String, page number: Int = 1) -> URLPath { paged(.page("tags", slug), number) }
    package static func tag(named name: String) -> URLPath { tag(slug(ofTag: name)) }

    /// A tag's address: lower case, letters and digits of any script, other runs as one "-".
    /// A tag made of punctuation alone is named by a digest, so it still has a page.
    package static func slug(ofTag name: String) -> String {
        var slug = ""
        var pendingDash = false
        for character in name.lowercased() {
            if character.isLetter || character.isNumber {
                if pendingDash && !slug.isEmpty { slug.append("-") }
                slug.append(character)
                pendingDash = false
            } else {
                pendingDash = true
            }
        }
        return slug.isEmpty ? "tag-" + String(ContentDigest(of: name).description.prefix(8)) : slug
    }

    package static func collection(_ slug: String, page number: Int = 1) -> URLPath { paged(.page("collections", slug), number) }

    /// Page `number` of a list whose first page is `base`: `/tags/power/2/`. Pages are numbered
    /// from the start of the list, so an item added near its end moves no earlier page.
    package static func paged(_ base: URLPath, _ number: Int) -> URLPath {
        number <= 1 ? base : URLPath(base.value + "\(number)/")
    }

    /// Pagefind's index and its script, which the build adds as its last stage.
    package static let searchIndexFolder = "pagefind"

    /// The site's own icon, at the root as browsers look for it; the theme's is an asset.
    package static func favicon(extension: String) -> URLPath { .file(["favicon." + `extension`]) }

    package static func asset(_ relative: String) -> URLPath {
        .file(["assets"] + relative.split(separator: "/").map(String.init))
    }
}
