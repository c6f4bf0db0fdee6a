import TeardownBase

/// The settings in content/site.yaml.
public struct SiteConfig: Sendable, Equatable {
    public var title: String = "Teardown catalog"
    public var description: String = ""
    /// Absolute URL the site is published at, e.g. "https://example.org/catalog/".
    public var baseURL: String = "http://127.0.0.1:8080/"
    public var language: String = "en"
    public var theme: String = "default"
    /// Where `theme` was set, so a missing theme folder is reported at that line.
    public var themeLocation = SourceLocation("content/site.yaml")
    /// Lets designers' descriptions and the manual keep raw HTML. Community comments never do.
    public var unsafeHTML: Bool = false
    public var commentsPerPage: Int = 5
    /// Parts or machines on each page of a tag, a collection and a letter of Parts A-Z: at 50,
    /// a page of parts stays near 60 KB of HTML whatever the size of the catalog.
    public var listPageSize: Int = 50
    public var limits = CommunityLimits()
    public var photos = PhotoSettings()
    public var syncSource: String?
    /// Where `teardown intake` listens, as visitors reach it: set, part and machine pages get
    /// forms to post comments and photos.
    public var intakeURL: String?
    /// Intake holds submissions until `teardown moderate` approves them.
    public var moderation = false
    /// Where "Report a bug" leads: a mailto: or web address, optionally with `{title}` and `{url}`.
    public var bugReportURL: String?
    /// "Edit this page" on manual pages: `{path}` becomes the file's path in the site folder.
    public var editURL: String?
    /// Index the built site with Pagefind; false turns search off.
    /// The site's icon, a file in content/ (`favicon`); nil for the theme's.
    public var favicon: String?
    /// Its extension, lowercased: it names the published file and its type.
    public var faviconExtension: String? { favicon.flatMap { $0.split(separator: ".").last.map { $0.lowercased() } } }
    /// The icon types a site may give, by extension.
    public static let faviconTypes = ["svg": "image/svg+xml", "png": "image/png", "ico": "image/x-icon"]
    public var search = true
    /// How many shards the search index is split into (`search_shards`); nil lets the size of
    /// the site decide. 1 makes one index.
    public var searchShards: Int?
    /// The most changed pages a sharded index keeps in its recent shard before the shard with
    /// most of them is indexed again (`search_recent`); nil lets the shards' size decide, and 0
    /// indexes a changed page's shard again at once.
    public var searchRecent: Int?
    public static let maximumSearchShards = 64
    /// Where `teardown deploy` publishes the site, and with which headers (`deploy:`).
    public var deploy = DeploySettings()
    /// Named groups of machines, in the order site.yaml lists them.
    public var collections: [MachineCollection] = []
    /// site.yaml itself, where site-wide notes are reported.
    public var location = SourceLocation("content/site.yaml")
    /// Digest of site.yaml: a change to any setting re-renders every page.
    public var source = ContentDigest(high: 0, low: 0)

    public init() {}

    /// The base URL's path ("/catalog/"), for pages that cannot use relative links (404).
    public var basePath: String { Self.basePath(of: baseURL) }

    package static func basePath(of baseURL: String) -> String {
        var rest = baseURL
        if let scheme = rest.range(of: "://") { rest = String(rest[scheme.upperBound...]) }
        guard let slash = rest.firstIndex(of: "/") else { return "/" }
        let path = String(rest[slash...])
        return path.hasSuffix("/") ? path : path + "/"
    }
}

/// A named group of machines from site.yaml's `collections`, published at /collections/<slug>/.
public struct MachineCollection: Sendable, Equatable {
    public let slug: String
    public let title: String
    public let description: String
    /// Machine slugs, in the order given.
    public let machines: [String]
    /// Where the list of machines is written, for a warning about an unknown one.
    public let location: SourceLocation
}

/// How photos are published.
public struct PhotoSettings: Sendable, Equatable {
    /// Widths of the responsive copies, in pixels; a photo is never enlarged to reach one.
    public var widths = [320, 640, 1280, 2048]
    /// WebP and JPEG quality, 1-100.
    public var quality = 80

    public init() {}
}

/// Limits on community submissions; the comment limits are the original mobile application's.
public struct CommunityLimits: Sendable, Equatable {
    public var authorMin = 1
    /// The application's 10 refused "Christopher"; 40 takes a full name.
    public var authorMax = 40
    public var commentMin = 1
    public var commentMax = 200
    /// Largest photo file sync accepts, in bytes.
    public var photoMaxBytes = 10_000_000
    /// Largest photo sync accepts, in pixels (width times height).
    public var photoMaxPixels = 40_000_000
    /// Most bytes a bundle shipped as a .zip may unpack to: a guard against zip bombs.
    public var bundleMaxBytes = 1_000_000_000
    /// Most bytes `content/.quarantine/` keeps of rejected submissions' files; past it, only
    /// their reasons are kept.
    public var quarantineMaxBytes = 100_000_000

    public init() {}
}

/// site.yaml's `deploy:` section; the command line's options win over it.
public struct DeploySettings: Sendable, Equatable {
    /// `s3://BUCKET[/PREFIX]`.
    public var to: String?
    public var endpoint: String?
    public var region: String?
    public var headers = ObjectHeaders()
}
