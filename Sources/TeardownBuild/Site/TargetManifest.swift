import TeardownBase

/// The manifest a build aims at. It starts as the published manifest and only what differs is
/// written into it, each path noted as a change for the later steps: made anew, with every
/// path looked up three times, it was most of the fingerprint step of a one-comment sync.
struct TargetManifest {
    var target: OutputTargets
    /// The published outputs the target starts from: nil when unknown.
    var published: StoredManifest? { target.base }
    var changes = Set<String>()
    /// Published outputs the plan has again: when they and the carried search files are all the
    /// published ones, nothing is gone and the published paths need no look of their own.
    var kept = 0

    init(published: StoredManifest?) { target = OutputTargets(base: published) }

    /// A planned page is rendered when it is new, when the readers of what changed are not
    /// known (`stale` nil), or when it read a unit that changed.
    mutating func mark(pages: [String], stale: Set<String>?) {
        for path in pages {
            let held = published?[path] != nil
            if held { kept += 1 }
            if !held || stale == nil { render(path) }
        }
        // Readers are pages; one no longer planned is taken out by `removeGone`, with everything else gone.
        for path in stale ?? [] where published?[path] != nil { render(path) }
    }

    /// A copied file is written again when its source's digest is not the published one.
    mutating func mark(copies: [(String, ContentDigest)]) {
        for (path, digest) in copies {
            let held = published?[path]
            if held != nil { kept += 1 }
            if held != digest { set(path, digest) }
        }
    }

    mutating func render(_ path: String) { set(path, Outputs.unrendered) }

    mutating func set(_ path: String, _ digest: ContentDigest?) {
        target[path] = digest
        changes.insert(path)
    }

    /// Takes out every published output that is no longer planned nor carried. When some are
    /// carried by count only (`carriedElsewhere`: the outputs of machines not planned), the
    /// published ones can be told apart only when none is gone: false when one is.
    mutating func removeGone(pages: [String], copies: [String], carried: [String], carriedElsewhere: Int = 0) throws -> Bool {
        guard let published, kept + carried.count + carriedElsewhere != published.count else { return true }
        guard carriedElsewhere == 0 else { return false }
        var planned = Set(pages)
        planned.formUnion(copies)
        planned.formUnion(carried)
        for path in try published.all().keys where !planned.contains(path) { set(path, nil) }
        return true
    }
}
