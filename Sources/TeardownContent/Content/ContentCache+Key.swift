import TeardownBase

extension ContentCache {
    /// What the cache's entries depend on beyond their bundles, each kept apart in the key file
    /// so that a cache set aside can say what changed: the Teardown that made it, where the site
    /// was (entries name files by path), and site.yaml (its limits decide what loads).
    package struct Key: Sendable {
        package let version: String
        package let build: String
        package let site: String
        package let settings: ContentDigest

        package enum Change: Sendable, Equatable, CustomStringConvertible {
            case version(String)
            case build
            case site
            case settings

            public var description: String {
                switch self {
                case .version(let old): "by Teardown \(old)"
                case .build: "by another build of this version of Teardown"
                case .site: "for the site in another folder (moved or copied since)"
                case .settings: "with another site.yaml"
                }
            }
        }

        package init(version: String, build: String, site: String, settings: ContentDigest) {
            self.version = version
            self.build = build
            self.site = site
            self.settings = settings
        }

        var digest: ContentDigest {
            var key = Fingerprint()
            key.add(build)
            key.add(site)
            key.add(settings.description)
            return key.digest
        }

        var lines: String { "version \(version)\nbuild \(build)\nsite \(site)\nsettings \(settings)\n" }

        /// What differs between this key and one stored as `lines`; nil when those cannot be read.
        func changes(from stored: Substring) -> [Change]? {
            var fields: [Substring: Substring] = [:]
            for line in stored.split(separator: "\n") {
                guard let space = line.firstIndex(of: " ") else { return nil }
                fields[line[..<space]] = line[line.index(after: space)...]
            }
            guard let oldVersion = fields["version"], let oldBuild = fields["build"], let oldSite = fields["site"],
                  let oldSettings = fields["settings"] else { return nil }
            var changes: [Change] = []
            if oldVersion != version {
                // A version printed is trusted no more than any text read from a file.
                changes.append(.version(String(oldVersion.prefix(40).filter { $0.isLetter || $0.isNumber || ".-+".contains($0) })))
            } else if oldBuild != build {
                changes.append(.build)
            }
            if oldSite != site { changes.append(.site) }
            if oldSettings != settings.description { changes.append(.settings) }
            return changes
        }
    }
}
