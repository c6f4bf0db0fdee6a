import Foundation
import TeardownBase

/// Reads content/site.yaml; a site without one gets the defaults.
package enum SiteConfigLoader {
    package static let knownKeys: Set<String> = [
        "title", "description", "base_url", "language", "theme", "unsafe_html", "comments_per_page", "list_page_size",
        "limits", "sync_source", "bug_report_url", "photos",
        "edit_url", "search", "search_shards", "search_recent", "collections", "intake_url", "moderation", "favicon", "deploy",
    ]
    package static let knownLimitKeys: Set<String> = [
        "author_min", "author_max", "comment_min", "comment_max", "photo_max_bytes", "photo_max_pixels", "bundle_max_bytes", "quarantine_max_bytes",
    ]

    package static func load(_ file: SourceFile, diagnostics: inout [Diagnostic]) -> SiteConfig {
        var config = SiteConfig()
        guard TextFile.exists(file.absolutePath) else { return config }
        guard let text = TextFile.read(file, diagnostics: &diagnostics),
              let yaml = YAMLMap.parse(text, file: file, expected: "site settings", diagnostics: &diagnostics)
        else { return config }
        yaml.warnUnknownKeys(known: knownKeys, diagnostics: &diagnostics)
        config.source = ContentDigest(of: text)
        if let title = yaml.string("title", diagnostics: &diagnostics) { config.title = title }
        if let description = yaml.string("description", diagnostics: &diagnostics) { config.description = description }
        if let baseURL = webAddress("base_url", in: yaml, diagnostics: &diagnostics) {
            config.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        }
        if let language = yaml.string("language", diagnostics: &diagnostics) { config.language = language }
        if let theme = yaml.string("theme", diagnostics: &diagnostics) {
            if TextFile.isValidName(theme) {
                config.theme = theme
                config.themeLocation = yaml.location(of: "theme")
            } else {
                diagnostics.append(.error(.invalidName(theme), at: yaml.location(of: "theme")))
            }
        }
        if let unsafe = yaml.bool("unsafe_html", diagnostics: &diagnostics) { config.unsafeHTML = unsafe }
        if let perPage = positive("list_page_size", in: yaml, diagnostics: &diagnostics) {
            config.listPageSize = perPage
        }
        if let perPage = positive("comments_per_page", in: yaml, diagnostics: &diagnostics) {
            config.commentsPerPage = perPage
        }
        config.syncSource = yaml.string("sync_source", diagnostics: &diagnostics)
        config.bugReportURL = yaml.string("bug_report_url", diagnostics: &diagnostics)
        config.editURL = yaml.string("edit_url", diagnostics: &diagnostics)
        loadSearch(yaml, into: &config, diagnostics: &diagnostics)
        if let intake = webAddress("intake_url", in: yaml, diagnostics: &diagnostics) {
            config.intakeURL = intake.hasSuffix("/") ? String(intake.dropLast()) : intake
        }
        if let moderation = yaml.bool("moderation", diagnostics: &diagnostics) { config.moderation = moderation }
        if let icon = yaml.string("favicon", diagnostics: &diagnostics) {
            config.favicon = favicon(icon, in: yaml, content: (file.absolutePath as NSString).deletingLastPathComponent,
                                     diagnostics: &diagnostics)
        }
        config.location = file.location()
        if let limits = yaml.map("limits", diagnostics: &diagnostics) {
            loadLimits(limits, into: &config.limits, diagnostics: &diagnostics)
        }
        if let photos = yaml.map("photos", diagnostics: &diagnostics) {
            loadPhotoSettings(photos, into: &config.photos, diagnostics: &diagnostics)
        }
        if let collections = yaml.map("collections", diagnostics: &diagnostics) {
            config.collections = loadCollections(collections, diagnostics: &diagnostics)
        }
        if let deploy = yaml.map("deploy", diagnostics: &diagnostics) {
            loadDeploySettings(deploy, into: &config.deploy, diagnostics: &diagnostics)
        }
        return config
    }

    /// `search:`, `search_recent:` and `search_shards:`, at most `SiteConfig.maximumSearchShards`.
    private static func loadSearch(_ yaml: YAMLMap, into config: inout SiteConfig, diagnostics: inout [Diagnostic]) {
        if let search = yaml.bool("search", diagnostics: &diagnostics) { config.search = search }
        if let recent = yaml.int("search_recent", diagnostics: &diagnostics) {
            if recent >= 0 {
                config.searchRecent = recent
            } else {
                diagnostics.append(.error(.invalidValue(key: "search_recent", reason: "must be 0 or more"),
                                          at: yaml.location(of: "search_recent")))
            }
        }
        guard let shards = positive("search_shards", in: yaml, diagnostics: &diagnostics) else { return }
        if shards <= SiteConfig.maximumSearchShards {
            config.searchShards = shards
        } else {
            diagnostics.append(.error(.invalidValue(key: "search_shards", reason: "must be at most \(SiteConfig.maximumSearchShards)"),
                                      at: yaml.location(of: "search_shards")))
        }
    }

    /// A value that must be an http(s) address.
    private static func webAddress(_ key: String, in yaml: YAMLMap, diagnostics: inout [Diagnostic]) -> String? {
        guard let value = yaml.string(key, diagnostics: &diagnostics) else { return nil }
        guard value.hasPrefix("http://") || value.hasPrefix("https://") else {
            diagnostics.append(.error(.invalidValue(key: key, reason: "must start with http:// or https://"), at: yaml.location(of: key)))
            return nil
        }
        return value
    }

    /// The site's icon: an .svg, .png or .ico file in content/ that is there.
    private static func favicon(_ icon: String, in yaml: YAMLMap, content: String, diagnostics: inout [Diagnostic]) -> String? {
        if icon.hasPrefix("/") || icon.split(separator: "/").contains("..")
            || !SiteConfig.faviconTypes.keys.contains((icon as NSString).pathExtension.lowercased()) {
            diagnostics.append(.error(.invalidValue(key: "favicon", reason: "must be an .svg, .png or .ico file in content/"),
                                      at: yaml.location(of: "favicon")))
            return nil
        }
        guard FileSystem.isRegularFile(content + "/" + icon) else {
            diagnostics.append(.error(.missingFile("content/" + icon), at: yaml.location(of: "favicon")))
            return nil
        }
        return icon
    }

    /// `limits:` of community content; each a positive number.
    private static func loadLimits(_ yaml: YAMLMap, into limits: inout CommunityLimits, diagnostics: inout [Diagnostic]) {
        yaml.warnUnknownKeys(known: knownLimitKeys, diagnostics: &diagnostics)
        let fields: [(String, WritableKeyPath<CommunityLimits, Int>)] = [
            ("author_min", \.authorMin), ("author_max", \.authorMax), ("comment_min", \.commentMin),
            ("comment_max", \.commentMax), ("photo_max_bytes", \.photoMaxBytes), ("photo_max_pixels", \.photoMaxPixels),
            ("bundle_max_bytes", \.bundleMaxBytes), ("quarantine_max_bytes", \.quarantineMaxBytes),
        ]
        for (key, field) in fields {
            if let value = positive(key, in: yaml, diagnostics: &diagnostics) { limits[keyPath: field] = value }
        }
    }

    /// `collections: {slug: {title, description, machines: [slug, ...]}}`, in the order written.
    private static func loadCollections(_ yaml: YAMLMap, diagnostics: inout [Diagnostic]) -> [MachineCollection] {
        yaml.entries.compactMap { entry in
            guard TextFile.isValidName(entry.key) else {
                diagnostics.append(.error(.invalidName(entry.key), at: yaml.keyLocation(entry)))
                return nil
            }
            guard let map = YAMLMap(entry.value, file: yaml.file, lineOffset: yaml.lineOffset) else {
                diagnostics.append(.error(.wrongType(key: entry.key, expected: "a mapping with title, description and machines"),
                                          at: yaml.keyLocation(entry)))
                return nil
            }
            map.warnUnknownKeys(known: ["title", "description", "machines"], diagnostics: &diagnostics)
            return MachineCollection(
                slug: entry.key, title: map.string("title", diagnostics: &diagnostics) ?? entry.key,
                description: map.string("description", diagnostics: &diagnostics) ?? "",
                machines: map.stringList("machines", diagnostics: &diagnostics), location: map.location(of: "machines"))
        }
    }

    /// `deploy: {to, endpoint, region, compress, cache_control: {pages, assets, immutable}}`.
    private static func loadDeploySettings(_ yaml: YAMLMap, into settings: inout DeploySettings, diagnostics: inout [Diagnostic]) {
        yaml.warnUnknownKeys(known: ["to", "endpoint", "region", "compress", "cache_control"], diagnostics: &diagnostics)
        if let target = yaml.string("to", diagnostics: &diagnostics) {
            if target.hasPrefix("s3://") {
                settings.to = target
            } else {
                diagnostics.append(.error(.invalidValue(key: "to", reason: "must be an s3://BUCKET[/PREFIX] address"), at: yaml.location(of: "to")))
            }
        }
        if let endpoint = yaml.string("endpoint", diagnostics: &diagnostics) {
            if endpoint.hasPrefix("http://") || endpoint.hasPrefix("https://") {
                settings.endpoint = endpoint
            } else {
                diagnostics.append(.error(.invalidValue(key: "endpoint", reason: "must start with http:// or https://"),
                                          at: yaml.location(of: "endpoint")))
            }
        }
        settings.region = yaml.string("region", diagnostics: &diagnostics)
        if let compress = yaml.bool("compress", diagnostics: &diagnostics) { settings.headers.compress = compress }
        if let cache = yaml.map("cache_control", diagnostics: &diagnostics) {
            cache.warnUnknownKeys(known: ["pages", "assets", "immutable"], diagnostics: &diagnostics)
            if let value = cache.string("pages", diagnostics: &diagnostics) { settings.headers.pages = value }
            if let value = cache.string("assets", diagnostics: &diagnostics) { settings.headers.assets = value }
            if let value = cache.string("immutable", diagnostics: &diagnostics) { settings.headers.immutable = value }
        }
    }

    private static func loadPhotoSettings(_ yaml: YAMLMap, into settings: inout PhotoSettings, diagnostics: inout [Diagnostic]) {
        yaml.warnUnknownKeys(known: ["widths", "quality"], diagnostics: &diagnostics)
        if let entry = yaml.entry("widths") {
            let widths = entry.value.sequence?.compactMap { $0.int } ?? []
            if widths.isEmpty || widths.count != entry.value.sequence?.count || widths.contains(where: { !(16...8192).contains($0) }) {
                diagnostics.append(.error(.wrongType(key: "widths", expected: "a list of widths in pixels between 16 and 8192"),
                                          at: yaml.location(of: "widths")))
            } else {
                settings.widths = Array(Set(widths)).sorted()
            }
        }
        if let quality = yaml.int("quality", diagnostics: &diagnostics) {
            if (1...100).contains(quality) {
                settings.quality = quality
            } else {
                diagnostics.append(.error(.invalidValue(key: "quality", reason: "must be between 1 and 100"),
                                          at: yaml.location(of: "quality")))
            }
        }
    }

    private static func positive(_ key: String, in yaml: YAMLMap, diagnostics: inout [Diagnostic]) -> Int? {
        guard let value = yaml.int(key, diagnostics: &diagnostics) else { return nil }
        guard value > 0 else {
            diagnostics.append(.error(.invalidValue(key: key, reason: "must be at least 1"), at: yaml.location(of: key)))
            return nil
        }
        return value
    }
}
