import Foundation
import TeardownBase
import TeardownContent

extension SiteBuilder {
    /// Brings the first-answer index (`FirstAnswer`) up to date with the pages this build
    /// changed: each changed page's words are compared with those the store holds for it, and
    /// only the words it gained or lost (all of its words when its title or kind changed) get
    /// new entries, and only their files are written. A build without a store that knows the
    /// published index, or with another number of files, indexes every page. `owners` are the
    /// pages to index when they are not this build's changes (the second publish's).
    func firstAnswer(_ site: PlannedSite, _ outputs: inout Outputs, owners given: Set<String>? = nil) throws {
        let folder = SearchWords.folder
        // Without an index, the published files were not carried (the fingerprint step), so
        // staging took them out; the rows go with them.
        guard site.indexer != nil else {
            outputs.firstAnswer = BuildStore.FirstAnswerChange(files: nil)
            return
        }
        let files = site.index.firstAnswerFiles
        let store = outputs.store
        let whole = try Self.storedAnswerFiles(outputs) != files
        var index = FirstAnswerUpdate(files: files, whole: whole, spare: outputs.publisher.spare, target: outputs.target)
        if whole {
            let pages = try outputs.target.all().keys.filter { Self.isPage($0) && Self.owner(of: $0) == $0 }.sorted()
            try index.indexWhole(pages)
        } else {
            // Pages a build stopped between its two publishes left unindexed are indexed now
            // (the second publish's own are `given`).
            let owners = try given ?? Self.changedOwners(outputs).union(store.firstAnswerPending())
            try index.update(owners.sorted(), store: store)
        }
        outputs.firstAnswer = index.change
        let spare = outputs.publisher.spare
        let writer = OutputWriter(root: spare)
        try FileManager.default.createDirectory(atPath: spare + "/" + folder, withIntermediateDirectories: true)
        var written = Set<String>()
        for (path, text) in index.outputFiles {
            written.insert(path)
            guard let text else { try remove(path, &outputs); continue }
            let digest = ContentDigest(of: text)
            if outputs.target[path] == digest, outputs.published?[path] == digest { continue }
            try writer.write(text, to: path)
            outputs.target[path] = digest
            if outputs.published?[path] != digest { outputs.changes.insert(path) }
        }
        if whole {
            for path in try outputs.published?.outputs(under: folder).keys ?? [:].keys where !written.contains(path) {
                try remove(path, &outputs)
            }
        }
    }

    /// The pages first, the first answer after: in a build that publishes twice (`deferIndex`),
    /// the changed pages' entries are made for the second publish, with the search index, when
    /// the stored index can be updated in place; the first publish records them as pending.
    func deferFirstAnswer(_ site: PlannedSite, _ outputs: inout Outputs) throws {
        guard site.indexer != nil, let stored = try Self.storedAnswerFiles(outputs),
              stored == site.index.firstAnswerFiles else { return }
        let owners = Self.changedOwners(outputs).union(try outputs.store.firstAnswerPending())
        outputs.firstAnswer = BuildStore.FirstAnswerChange(files: stored, pending: owners.sorted())
        outputs.answersAfterPages = true
    }

    /// The number of words' files of the index the store holds for the published tree; nil when unknown.
    private static func storedAnswerFiles(_ outputs: Outputs) throws -> Int? {
        outputs.published == nil || !outputs.readsKnown ? nil : try outputs.store.firstAnswerFiles()
    }

    /// The first pages of the pages this build changes.
    private static func changedOwners(_ outputs: Outputs) -> Set<String> {
        Set(outputs.changes.filter(isPage).map(owner(of:)))
    }

    /// Takes a file out of the target and of the spare tree, which staging brought up to the
    /// target before this step knew the file would go.
    private func remove(_ path: String, _ outputs: inout Outputs) throws {
        guard outputs.target[path] != nil else { return }
        try FileSystem.unlinkIfPresent(outputs.publisher.spare + "/" + path)
        outputs.target[path] = nil
        outputs.changes.insert(path)
    }

    /// Whether an output is a page the index may hold: an HTML page outside Pagefind's files.
    static func isPage(_ path: String) -> Bool {
        path.hasSuffix("index.html") && !path.hasPrefix(indexPrefix) && !path.hasPrefix(SearchWords.folder)
    }

    /// The first page of a discussion's later page ("…/discussion/2/index.html"): the index
    /// reads a discussion's pages as one, as Pagefind is given them (`SearchDocument`).
    static func owner(of path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 4, parts[parts.count - 3] == "discussion", Int(parts[parts.count - 2]) != nil else { return path }
        return parts.dropLast(3).joined(separator: "/") + "/index.html"
    }
}
