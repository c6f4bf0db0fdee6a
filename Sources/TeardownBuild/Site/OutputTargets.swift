import TeardownBase

/// The outputs a build aims at: the published tree's (`StoredManifest`) but where this build
/// set a path. Reading through to the store, not copying the published manifest, keeps a
/// one-comment build's work to the paths it plans.
package struct OutputTargets: Sendable {
    /// The published outputs; nil when unknown (a full build), so only what is set counts.
    package let base: StoredManifest?
    /// The paths this build set, to a digest or to nothing.
    private var set: [String: ContentDigest?] = [:]
    /// How many outputs the target holds.
    package private(set) var count: Int

    package init(base: StoredManifest?) {
        self.base = base
        count = base?.count ?? 0
    }

    package subscript(path: String) -> ContentDigest? {
        get {
            if let own = set[path] { return own }
            return base?[path]
        }
        set {
            let before = self[path]
            if before == nil, newValue != nil { count += 1 }
            if before != nil, newValue == nil { count -= 1 }
            set[path] = .some(newValue)
        }
    }

    /// Every output and its digest: the published ones are read whole.
    package func all() throws -> [String: ContentDigest] {
        var outputs = try base?.all() ?? [:]
        for (path, digest) in set { outputs[path] = digest }
        return outputs
    }
}
