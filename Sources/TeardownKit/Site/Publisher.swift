import Foundation

/// Keeps two output trees: the published one at `output` and a spare beside it. A build
/// brings the spare up to date (writing only what changed since the spare was last
/// published), then the two trade places in one rename. Whoever reads the output sees the
/// previous site or the new one, never a mix, and a build killed at any moment leaves the
/// published tree complete. Each tree's manifest is kept under the tree's identity, so after
/// a kill the next build knows which manifest still describes which tree.
///
/// Top-level hidden entries of the output (a deploy checkout's .git, a placeholder) belong
/// to the user: they move with the published tree and are never deleted.
struct Publisher: Sendable {
    /// What the trees hold, as far as their manifests vouch for; nil when unknown.
    struct Trees: Sendable {
        var published: [String: ContentDigest]?
        var spare: [String: ContentDigest]?
        /// What each page of the published tree read.
        var reads: DependencyIndex?
    }

    let output: String
    /// Where the manifests of this output's trees are kept.
    let cacheFolder: String
    /// Kept, not worked out on each use: every output path is joined to it, and making it
    /// through `URL` each time was 1% of a cold build.
    let spare: String
    /// Used only where the file system cannot exchange two folders in one step.
    private let previous: String

    init(output: String, cacheFolder: String) {
        self.output = output
        self.cacheFolder = cacheFolder
        spare = Self.sibling(of: output, "spare")
        previous = Self.sibling(of: output, "previous")
    }

    /// A folder beside the trees where the pages of one search index are gathered while
    /// Pagefind indexes them (`folder`: the index's folder in the site, such as
    /// `pagefind/shard-03`). `recover` removes what a killed build left of these.
    func pagesFolder(forIndex folder: String) -> String {
        Self.sibling(of: output, Self.indexRole + folder.replacingOccurrences(of: "/", with: "-"))
    }

    private static let indexRole = "index-"

    private static func sibling(of output: String, _ role: String) -> String {
        let url = URL(fileURLWithPath: output)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(role)").path
    }

    /// Finishes or undoes what an interrupted build left behind, and reads the manifests.
    func recover() throws -> Trees {
        if FileSystem.exists(previous) {
            if !FileSystem.exists(output) {
                // Stopped between the renames of a two-step swap: put the previous site back.
                try FileSystem.rename(previous, to: output)
            } else if !FileSystem.exists(spare) {
                try FileSystem.rename(previous, to: spare)
            } else {
                try FileSystem.removeTree(previous)
            }
        }
        // The staging folder of earlier versions of Teardown, and folders of a search index's pages.
        try FileSystem.removeTree(Self.sibling(of: output, "staging"))
        let parent = (output as NSString).deletingLastPathComponent
        let gathered = (Self.sibling(of: output, Self.indexRole) as NSString).lastPathComponent
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [] where name.hasPrefix(gathered) {
            try FileSystem.removeTree(parent + "/" + name)
        }
        if FileSystem.isDirectory(output) {
            try moveHiddenEntries(from: spare, to: output)
        }
        try FileManager.default.createDirectory(atPath: cacheFolder, withIntermediateDirectories: true)
        let publishedIdentity = FileSystem.identity(of: output)?.description
        let spareIdentity = FileSystem.identity(of: spare)?.description
        var trees = Trees()
        for name in (try? FileManager.default.contentsOfDirectory(atPath: cacheFolder)) ?? [] where name.hasSuffix(".reads") {
            let path = cacheFolder + "/" + name
            if let publishedIdentity, name == publishedIdentity + ".reads",
               let data = FileManager.default.contents(atPath: path), let reads = DependencyIndex.parse(data) {
                trees.reads = reads
            } else {
                try FileSystem.unlinkIfPresent(path)
            }
        }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: cacheFolder)) ?? [] where name.hasSuffix(".manifest") {
            let path = cacheFolder + "/" + name
            guard let data = FileManager.default.contents(atPath: path), let manifest = BuildManifest.parse(data) else {
                try FileSystem.unlinkIfPresent(path)
                continue
            }
            if manifest.tree == publishedIdentity {
                trees.published = manifest.outputs
            } else if manifest.tree == spareIdentity {
                trees.spare = manifest.outputs
            } else {
                try FileSystem.unlinkIfPresent(path)
            }
        }
        return trees
    }

    /// Makes the spare tree ready for writing and returns what it holds. Its manifest is
    /// removed first: from now until publish, nothing vouches for its contents.
    func openSpare(holding known: [String: ContentDigest]?) throws -> [String: ContentDigest] {
        if let identity = FileSystem.identity(of: spare) {
            try FileSystem.unlinkIfPresent(manifestPath(identity))
        }
        guard let known, FileSystem.isDirectory(spare) else {
            try FileSystem.removeTree(spare)
            try FileManager.default.createDirectory(atPath: spare, withIntermediateDirectories: true)
            return [:]
        }
        return known
    }

    /// Brings the spare to `target` in everything but the outputs this build must write. The
    /// spare is the site as it was one publish ago: what is gone is removed, and what changed
    /// since and is unchanged now is taken over from the published tree as a hard link.
    /// Returns the outputs to write: those that change now, and any removed by hand from the
    /// published tree.
    func stage(_ target: [String: ContentDigest], published: [String: ContentDigest]?,
               spare: [String: ContentDigest]) throws -> Set<String> {
        let writer = OutputWriter(root: self.spare)
        for path in spare.keys where target[path] == nil {
            try FileSystem.unlinkIfPresent(self.spare + "/" + path)
            FileSystem.removeEmptyFolders(from: ((self.spare + "/" + path) as NSString).deletingLastPathComponent,
                                          below: self.spare)
        }
        var writes = Set(target.keys.filter { published?[$0] != target[$0] })
        let carried = target.keys.filter { !writes.contains($0) && spare[$0] != target[$0] }
        try writer.createDirectories(for: carried)
        for path in carried where (try? FileSystem.hardLink(output + "/" + path, to: self.spare + "/" + path)) == nil {
            writes.insert(path)
        }
        try writer.createDirectories(for: Array(writes))
        return writes
    }

    /// Records what the spare holds and what its pages read, then puts it in place of the
    /// output in one step.
    func publish(_ outputs: [String: ContentDigest], reads: DependencyIndex) throws {
        guard let identity = FileSystem.identity(of: spare) else { throw FileSystem.Failure.errno(spare) }
        // Without fsync, like the inputs snapshot: losing it costs only a full render.
        if !FileSystem.replaceFile(reads.serialized(), at: cacheFolder + "/\(identity).reads") {
            try FileSystem.unlinkIfPresent(cacheFolder + "/\(identity).reads")
        }
        try FileSystem.writeAtomically(BuildManifest(tree: identity, outputs: outputs).serialized(), to: manifestPath(identity))
        guard FileSystem.isDirectory(output) else {
            try FileSystem.removeTree(output)
            try FileSystem.rename(spare, to: output)
            return
        }
        try moveHiddenEntries(from: output, to: spare)
        // The tree that steps aside is the spare from now on; what its pages read is of no use.
        if let replaced = FileSystem.identity(of: output) {
            try FileSystem.unlinkIfPresent(cacheFolder + "/\(replaced).reads")
        }
        if try !FileSystem.exchange(spare, output) {
            try FileSystem.rename(output, to: previous)
            try FileSystem.rename(spare, to: output)
            try FileSystem.rename(previous, to: spare)
        }
    }

    private func manifestPath(_ identity: FileSystem.Identity) -> String {
        cacheFolder + "/\(identity).manifest"
    }

    /// Hidden entries exist in one place at every moment, so a kill at any point loses none.
    private func moveHiddenEntries(from source: String, to target: String) throws {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: source)) ?? [] where name.hasPrefix(".") {
            if !FileSystem.exists(target + "/" + name) {
                try FileSystem.rename(source + "/" + name, to: target + "/" + name)
            }
        }
    }
}
