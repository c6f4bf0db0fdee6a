import Foundation
import TeardownBase

/// Keeps two output trees: the published one at `output` and a spare beside it. A build
/// brings the spare up to date (writing only what changed since the spare was last
/// published), then the two trade places in one rename. Whoever reads the output sees the
/// previous site or the new one, never a mix, and a build killed at any moment leaves the
/// published tree complete. Each tree's manifest is kept in the build store (`BuildStore`)
/// under the tree's identity, so after a kill the next build knows which manifest still
/// describes which tree.
///
/// Top-level hidden entries of the output (a deploy checkout's .git, a placeholder) belong
/// to the user: they move with the published tree and are never deleted.
package struct Publisher: Sendable {
    /// What the trees hold, as far as their manifests vouch for; nil when unknown.
    package struct Trees: Sendable {
        package let store: BuildStore
        package var published: StoredManifest?
        package var spare: BuildStore.Spare?
        /// Whether the store holds what the published tree's pages read, and each unit's digest then.
        package var readsArePublished = false
        /// Why the store was started over, if it was.
        package var notice: BuildStore.Notice?
    }

    package let output: String
    /// Where the state of this output's trees is kept.
    package let state: CacheLayout.OutputState
    /// Kept, not worked out on each use: every output path is joined to it, and making it
    /// through `URL` each time showed in cold builds' profiles.
    package let spare: String
    /// Used only where the file system cannot exchange two folders in one step.
    private let previous: String
    /// Counts the outputs linked from the published tree into the spare.
    private let counters: BuildCounters

    package init(output: String, state: CacheLayout.OutputState, counters: BuildCounters = .none) {
        self.output = output
        self.state = state
        self.counters = counters
        spare = Self.sibling(of: output, "spare")
        previous = Self.sibling(of: output, "previous")
    }

    /// A folder beside the trees where the pages of one search index are gathered while
    /// Pagefind indexes them (`folder`: the index's folder in the site, such as
    /// `pagefind/shard-03`). `recover` removes what a killed build left of these.
    package func pagesFolder(forIndex folder: String) -> String {
        Self.sibling(of: output, Self.indexRole + folder.replacingOccurrences(of: "/", with: "-"))
    }

    private static let indexRole = "index-"

    /// The spare tree of `output`, as messages name it.
    package static func sparePath(of output: String) -> String { sibling(of: output, "spare") }

    private static func sibling(of output: String, _ role: String) -> String {
        let url = URL(fileURLWithPath: output)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(role)").path
    }

    /// Finishes or undoes what an interrupted build left behind, and reads the manifests.
    /// `opened` is the build store when the build opened it already.
    package func recover(opened: (BuildStore, BuildStore.Notice?)? = nil) throws -> Trees {
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
        for name in FileSystem.names(in: parent) where name.hasPrefix(gathered) {
            try FileSystem.removeTree(parent + "/" + name)
        }
        if FileSystem.isDirectory(output) {
            try moveHiddenEntries(from: spare, to: output)
        }
        let cacheFolder = state.folder
        try FileManager.default.createDirectory(atPath: cacheFolder, withIntermediateDirectories: true)
        // The manifest and dependency index files of earlier versions of Teardown, one each per
        // tree, and their input snapshot file (the build store holds it now).
        for name in FileSystem.names(in: cacheFolder)
        where name.hasSuffix(".manifest") || name.hasSuffix(".reads") || name == "inputs" {
            try FileSystem.unlinkIfPresent(cacheFolder + "/" + name)
        }
        let path = state.store
        do {
            return try read(opened ?? BuildStore.open(path))
        } catch is BuildStore.Damaged {
            // Damage SQLite finds only when a page of the file is read: start over.
            try BuildStore.setAside(path)
            var trees = try read(BuildStore.open(path))
            trees.notice = .damaged
            return trees
        }
    }

    private func read(_ opened: (BuildStore, BuildStore.Notice?)) throws -> Trees {
        let (store, notice) = (opened.0.counting(counters), opened.1)
        let published = FileSystem.identity(of: output)?.description
        let known = try store.trees(published: published, spare: FileSystem.identity(of: spare)?.description)
        var trees = Trees(store: store, published: known.published, spare: known.spare, notice: notice)
        trees.readsArePublished = known.readsArePublished && known.published != nil
        return trees
    }

    /// Makes the spare tree ready for writing and returns what it holds. Its manifest is
    /// voided first: from now until publish, nothing vouches for its contents.
    package func openSpare(holding known: BuildStore.Spare?, store: BuildStore) throws -> BuildStore.Spare {
        if let identity = FileSystem.identity(of: spare) {
            try store.open(tree: identity.description)
        }
        guard let known, FileSystem.isDirectory(spare) else {
            try FileSystem.removeTree(spare)
            try FileManager.default.createDirectory(atPath: spare, withIntermediateDirectories: true)
            return .whole([:])
        }
        return known
    }

    /// Brings the spare to `target` in everything but the outputs this build must write. The
    /// spare is the site as it was one publish ago: what is gone is removed, and what changed
    /// since and is unchanged now is taken over from the published tree as a hard link.
    /// Returns the outputs to write: those that change now (`changes`, the paths where the
    /// target differs from the published tree), and any removed by hand from the published tree.
    package func stage(_ target: OutputTargets, published: StoredManifest?,
               spare: BuildStore.Spare, changes: Set<String>) throws -> Set<String> {
        let writer = OutputWriter(root: self.spare)
        var writes = Set(changes.filter { target[$0] != nil })
        // What the spare holds that differs from the target, apart from what is written anyway.
        var carried: [String] = [], gone: [String] = []
        switch spare {
        case .whole(let held):
            let target = try target.all()
            gone = held.keys.filter { target[$0] == nil }
            carried = target.keys.filter { !writes.contains($0) && held[$0] != target[$0] }
        case .lagging(let lag):
            // The spare is the published tree but at the lag's paths, and the target is too but at the changes'.
            let paths = changes.union(lag.keys)
            try published?.fetch(paths)
            for path in paths where !writes.contains(path) {
                let held = lag[path] ?? published?[path]
                if let wanted = target[path] {
                    if held != wanted { carried.append(path) }
                } else if held != nil {
                    gone.append(path)
                }
            }
        }
        for path in gone {
            try FileSystem.unlinkIfPresent(self.spare + "/" + path)
            FileSystem.removeEmptyFolders(from: ((self.spare + "/" + path) as NSString).deletingLastPathComponent,
                                          below: self.spare)
        }
        try writer.createDirectories(for: carried)
        counters.count(.outputsCarried, by: carried.count)
        // A file that cannot be linked is written again below, so the tree is whole either way.
        for path in carried where (try? FileSystem.hardLink(output + "/" + path, to: self.spare + "/" + path)) == nil {
            writes.insert(path)
        }
        try writer.createDirectories(for: Array(writes))
        return writes
    }

    /// Records what the spare holds and what its pages read (`change`, less the trees: the
    /// spare's, and the published one's if there is one), then puts it in place of the output in one step.
    package func publish(_ change: (_ tree: String, _ published: String?) -> BuildStore.Publish, store: BuildStore) throws {
        guard let identity = FileSystem.identity(of: spare) else { throw FileSystem.Failure.errno(spare) }
        let recorded = change(identity.description, FileSystem.identity(of: output)?.description)
        try store.record(recorded)
        guard FileSystem.isDirectory(output) else {
            try FileSystem.removeTree(output)
            try FileSystem.rename(spare, to: output)
            try mirrorPublished(Array(recorded.outputs.all().keys), store: store)
            return
        }
        try moveHiddenEntries(from: output, to: spare)
        if try !FileSystem.exchange(spare, output) {
            try FileSystem.rename(output, to: previous)
            try FileSystem.rename(spare, to: output)
            try FileSystem.rename(previous, to: spare)
        }
        // The tree published until now was one the store did not know (a new store, another
        // version's, a full build): as the spare, the next build would empty it and link every
        // output into it. It is made a mirror of the new one now instead.
        if recorded.published == nil { try mirrorPublished(Array(recorded.outputs.all().keys), store: store) }
    }

    /// After a first publish no tree is left to be the spare (or one nothing vouches for), and the
    /// next build would link every output into a new one. It is made now from the tree just published and recorded as
    /// differing from it nowhere, so the first build after a cold one costs what the others do.
    /// Until it is recorded, nothing vouches for it: a build killed meanwhile, or a link that
    /// fails, leaves a spare the next build empties and fills as before.
    private func mirrorPublished(_ paths: [String], store: BuildStore) throws {
        try FileSystem.removeTree(spare)
        try FileManager.default.createDirectory(atPath: spare, withIntermediateDirectories: true)
        try OutputWriter(root: spare).createDirectories(for: paths)
        let linked = ParallelMap.map(paths) { path in
            // A link that fails leaves the mirror unrecorded (below): it costs only time.
            (try? FileSystem.hardLink(output + "/" + path, to: spare + "/" + path)) != nil
        }
        guard linked.allSatisfy({ $0 }), let published = FileSystem.identity(of: output),
              let mirror = FileSystem.identity(of: spare) else { return }
        try store.recordMirror(published: published.description, spare: mirror.description)
    }

    /// Hidden entries exist in one place at every moment, so a kill at any point loses none.
    private func moveHiddenEntries(from source: String, to target: String) throws {
        for name in FileSystem.names(in: source) where name.hasPrefix(".") {
            if !FileSystem.exists(target + "/" + name) {
                try FileSystem.rename(source + "/" + name, to: target + "/" + name)
            }
        }
    }
}
