import Foundation
import TeardownThemes

/// Runs the pipeline: load -> validate -> images -> manuals -> plan -> fingerprint -> render
/// what changed -> index for search -> publish.
public struct SiteBuilder: Sendable {
    /// What a build did, for the command line to report.
    public struct Report: Sendable {
        /// Pages and copied files of the site.
        public let pages: Int
        public let files: Int
        /// Outputs written by this build; the rest were carried over unchanged.
        public let written: Int
        /// Outputs of content that is gone.
        public let removed: Int
        public let warnings: [Diagnostic]
        public let output: String
        /// Images made by this build; the others came from the cache.
        public var imagesProcessed = 0
        /// Time the image stage took, cache lookups included.
        public var imageSeconds = 0.0
        /// Nothing changed since the published build, so nothing was published.
        public var unchanged: Bool { written == 0 && removed == 0 }
    }

    public let siteRoot: String
    public let output: String
    /// Overrides site.yaml's base_url (canonical links only: page links are relative).
    public let baseURL: String?
    /// Renders every output even where the manifest says it is up to date.
    public let full: Bool

    /// The git-ignored folder for build manifests and caches; <site>/.teardown-cache by default.
    public let cacheFolder: String
    /// Whether to look for Pagefind; `.notInstalled` builds as if it were missing.
    public let pagefind: PagefindLookup

    public enum PagefindLookup: Sendable {
        case automatic
        case notInstalled
    }

    public init(siteRoot: String, output: String? = nil, baseURL: String? = nil, full: Bool = false,
                cacheFolder: String? = nil, pagefind: PagefindLookup = .automatic) {
        self.pagefind = pagefind
        self.siteRoot = siteRoot
        let output = output ?? (siteRoot as NSString).appendingPathComponent("public")
        self.output = URL(fileURLWithPath: output).standardizedFileURL.path
        self.baseURL = baseURL
        self.full = full
        self.cacheFolder = cacheFolder ?? (siteRoot as NSString).appendingPathComponent(".teardown-cache")
    }

    /// Loads and validates the site and its theme, writing nothing.
    public func check() -> [Diagnostic] {
        var (prepared, diagnostics) = prepare()
        // Broken links in the manuals are found while rendering their Markdown.
        if let (content, _) = prepared { _ = ManualSet(content, diagnostics: &diagnostics) }
        return diagnostics.sortedByLocation()
    }

    /// Brings the output folder up to date with the content, rendering only outputs whose
    /// inputs changed; on any error, the output is left as it was.
    ///
    /// `progress` is told how many images are made and left while the image stage runs.
    @discardableResult
    public func build(progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil) throws(BuildFailure) -> Report {
        // One build of an output at a time: `teardown serve` rebuilding while `teardown sync`
        // builds the same site would otherwise swap each other's folders mid-way.
        let lockPath = outputCacheFolder + ".lock"
        let lock: Int32
        do {
            try FileManager.default.createDirectory(atPath: (lockPath as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            lock = try FileSystem.lock(lockPath)
        } catch {
            throw BuildFailure([.error(.outputFailed(reason: "cannot lock \(lockPath): \(error)"), at: SourceLocation(output))])
        }
        defer { FileSystem.unlock(lock) }
        return try buildHoldingLock(progress: progress)
    }

    private func buildHoldingLock(progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?) throws(BuildFailure) -> Report {
        let snapshotPath = outputCacheFolder + "/inputs"
        let pagefind = self.pagefind == .automatic ? Pagefind.locate(cacheFolder: cacheFolder)
            : .failure(Pagefind.Unavailable(reason: "Pagefind is not installed"))
        let roots = inputRoots, key = settingsKey(pagefind: try? pagefind.get())
        if !full, let record = InputSnapshot.unchanged(at: snapshotPath, roots: roots, key: key),
           FileSystem.identity(of: output)?.description == record.tree {
            return Report(pages: record.pages, files: record.files, written: 0, removed: 0,
                          warnings: record.warnings, output: output)
        }
        // Taken before anything is read, so an edit made during the build shows as a change next time.
        let snapshot = InputSnapshot.take(roots: roots, key: key)
        var (prepared, diagnostics) = prepare()
        guard let (loaded, theme) = prepared, !diagnostics.hasErrors else { throw BuildFailure(diagnostics) }
        let imageStart = DispatchTime.now()
        let cache = ImageCache(root: cacheFolder + "/images")
        let images = ImageProcessor(settings: loaded.config.photos, maxPixels: loaded.config.limits.photoMaxPixels, cache: cache)
            .process(loaded, progress: progress)
        let imageSeconds = Double(DispatchTime.now().uptimeNanoseconds - imageStart.uptimeNanoseconds) / 1e9
        diagnostics += images.diagnostics
        guard !diagnostics.hasErrors else { throw BuildFailure(diagnostics.sortedByLocation()) }
        // A photo that cannot be published leaves no trace: no page, no gallery entry, no count.
        let content = loaded.keepingPhotos { images.photos[$0.file.absolutePath] != nil }
        let manuals = ManualSet(content, diagnostics: &diagnostics)
        let downloads: [String: BundleDownload]
        do {
            downloads = try BundleDownloads(cache: cacheFolder + "/downloads").make(content, images: images)
        } catch {
            throw BuildFailure(diagnostics + [.error(.outputFailed(reason: error.description), at: SourceLocation(output))])
        }
        let index = SiteIndex(content)
        let search: SearchAvailability
        switch (content.config.search, pagefind) {
        case (false, _): search = .unavailable("search is turned off for this site")
        case (true, .success): search = .available
        case (true, .failure(let unavailable)):
            search = .unavailable("this site was built without a search index")
            diagnostics.append(.warning(.searchUnavailable(reason: unavailable.reason), at: content.config.location))
        }
        let warnings = diagnostics.filter { $0.severity == .warning }.sortedByLocation()
        let plan = SitePlan(content: content, theme: theme, images: images, index: index, downloads: downloads)
        var base = baseURL ?? content.config.baseURL
        if !base.hasSuffix("/") { base += "/" }
        let fingerprints = OutputFingerprints(plan: plan, content: content, theme: theme, images: images, manuals: manuals,
                                              search: search, baseURL: base, downloads: downloads)
        var target: [String: ContentDigest] = [:]
        target.reserveCapacity(plan.pages.count + plan.copies.count)
        for (entry, digest) in zip(plan.pages, fingerprints.pages) { target[entry.url.outputPath] = digest }
        for (copy, digest) in zip(plan.copies, fingerprints.copies) { target[copy.url.outputPath] = digest }
        // The search index changes only when a page it indexes does: every file of it is marked
        // with one digest of those pages, so an unchanged index is carried over like a page.
        let indexer = search.isAvailable ? try? pagefind.get() : nil
        let indexDigest = indexer.map { fingerprints.searchIndex(plan: plan, indexer: $0.signature) }
        let indexPrefix = Routes.searchIndexFolder + "/"

        let publisher = Publisher(output: output, cacheFolder: outputCacheFolder)
        do {
            let trees = try publisher.recover()
            let published = full ? nil : trees.published
            var needsIndex = indexDigest != nil
            if let indexDigest, let published {
                let index = published.filter { $0.key.hasPrefix(indexPrefix) }
                if !index.isEmpty, index.values.allSatisfy({ $0 == indexDigest }) {
                    target.merge(index) { current, _ in current }
                    needsIndex = false
                }
            }
            if let published, published == target {
                remember(snapshot, at: snapshotPath, pages: plan.pages.count, files: plan.copies.count, warnings: warnings)
                return Report(pages: plan.pages.count, files: plan.copies.count, written: 0, removed: 0,
                              warnings: warnings, output: output, imagesProcessed: images.processed, imageSeconds: imageSeconds)
            }
            let spare = try publisher.openSpare(holding: trees.spare)
            let writer = OutputWriter(root: publisher.spare)
            let changed = { (path: String) in published?[path] != target[path] }

            // The spare is the site as it was one publish ago: drop what is gone, take over
            // from the published tree what changed since, render what changes now.
            let removed = spare.keys.filter { target[$0] == nil }
            for path in removed {
                try FileSystem.unlinkIfPresent(publisher.spare + "/" + path)
                FileSystem.removeEmptyFolders(from: ((publisher.spare + "/" + path) as NSString).deletingLastPathComponent,
                                              below: publisher.spare)
            }
            let carried = target.keys.filter { !changed($0) && spare[$0] != target[$0] }
            try writer.createDirectories(for: carried)
            // An output removed from the published tree by hand is made again.
            var missing = Set<String>()
            for path in carried where (try? FileSystem.hardLink(output + "/" + path, to: publisher.spare + "/" + path)) == nil {
                missing.insert(path)
            }
            let pages = plan.pages.filter { changed($0.url.outputPath) || missing.contains($0.url.outputPath) }
            let copies = plan.copies.filter { changed($0.url.outputPath) || missing.contains($0.url.outputPath) }
            try writer.createDirectories(for: pages.map(\.url.outputPath) + copies.map(\.url.outputPath))
            let renderer = PageRenderer(content: content, theme: theme, images: images, manuals: manuals, search: search,
                                        baseURL: base, index: index, downloads: downloads, sitemapPages: plan.sitemapPages)
            let failures = ParallelMap.map(pages) { entry -> String? in
                let html = renderer.render(entry.page, at: entry.url)
                do { try writer.write(html, to: entry.url.outputPath) } catch { return "\(error)" }
                return nil
            } + ParallelMap.map(copies) { copy -> String? in
                do {
                    // Processed images are linked from the cache: their files are never changed in place.
                    if !copy.cached || (try? FileSystem.hardLink(copy.source, to: publisher.spare + "/" + copy.url.outputPath)) == nil {
                        try writer.copy(from: copy.source, to: copy.url.outputPath)
                    }
                } catch { return "\(error)" }
                return nil
            }
            if let failure = failures.compactMap({ $0 }).first {
                throw OutputWriter.Failure(path: output, reason: failure)
            }
            if needsIndex, let indexer, let indexDigest {
                let folder = publisher.spare + "/" + Routes.searchIndexFolder
                try FileSystem.removeTree(folder)
                // Pagefind reads every HTML file, indexed or not; a print page holds a whole
                // manual, and reading it cost a third of a large manual's indexing. It steps
                // aside while Pagefind runs. (A kill meanwhile leaves only the spare tree odd,
                // and the next build starts the spare afresh, as its manifest is gone.)
                let heldBack = plan.pages.filter(\.page.isPrintPage).map { publisher.spare + "/" + $0.url.outputPath }
                for path in heldBack { try FileSystem.rename(path, to: path + ".unindexed") }
                do {
                    try indexer.index(publisher.spare)
                } catch {
                    throw BuildFailure(warnings + [.error(.searchFailed(reason: error.description), at: content.config.location)])
                }
                for path in heldBack { try FileSystem.rename(path + ".unindexed", to: path) }
                _ = FileSystem.walk(folder) { relative, status in
                    if !status.isDirectory { target[indexPrefix + relative] = indexDigest }
                }
            }
            try publisher.publish(target)
            remember(snapshot, at: snapshotPath, pages: plan.pages.count, files: plan.copies.count, warnings: warnings)
            // Files of the search index come and go with it; the report counts the site's own outputs.
            let gone = published.map { $0.keys.filter { target[$0] == nil && !$0.hasPrefix(indexPrefix) }.count } ?? 0
            return Report(pages: plan.pages.count, files: plan.copies.count, written: pages.count + copies.count,
                          removed: gone, warnings: warnings, output: output, imagesProcessed: images.processed,
                          imageSeconds: imageSeconds)
        } catch let failure as BuildFailure {
            throw failure
        } catch {
            throw BuildFailure(warnings + [.error(.outputFailed(reason: "\(error)"), at: SourceLocation(output))])
        }
    }

    /// Where the inputs live: the content, the site's themes and the built-in theme.
    private var inputRoots: [String] {
        [(siteRoot as NSString).appendingPathComponent("content"), (siteRoot as NSString).appendingPathComponent("Themes"),
         DefaultTheme.directory?.path ?? ""]
    }

    /// Everything besides the inputs that shapes the output: the same content built by another
    /// version of Teardown, or for another base URL, is another site.
    private func settingsKey(pagefind: Pagefind?) -> ContentDigest {
        var fingerprint = Fingerprint()
        // Installing or upgrading Pagefind changes the site (its search page) without changing an input.
        fingerprint.add(pagefind?.signature ?? "")
        fingerprint.add(TeardownVersion.build)
        fingerprint.add(baseURL ?? "")
        fingerprint.add(output)
        return fingerprint.digest
    }

    /// Stores what this build read, for the next build to skip loading when nothing changed.
    /// Losing it costs only speed, so it is written without fsync.
    private func remember(_ snapshot: InputSnapshot?, at path: String, pages: Int, files: Int, warnings: [Diagnostic]) {
        guard let snapshot, let tree = FileSystem.identity(of: output)?.description else {
            try? FileSystem.unlinkIfPresent(path)
            return
        }
        let record = InputSnapshot.Record(tree: tree, pages: pages, files: files, warnings: warnings)
        let temporary = path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: snapshot.serialized(record)),
              (try? FileSystem.rename(temporary, to: path)) != nil
        else {
            try? FileSystem.unlinkIfPresent(temporary)
            try? FileSystem.unlinkIfPresent(path)
            return
        }
    }

    /// Manifests are kept per output folder, so building to several places stays incremental.
    private var outputCacheFolder: String {
        cacheFolder + "/outputs/" + String(ContentDigest(of: output).description.prefix(16))
    }

    private func prepare() -> (value: (SiteContent, Theme)?, diagnostics: [Diagnostic]) {
        var (content, diagnostics) = ContentLoader(siteRoot: siteRoot, archiveCache: cacheFolder + "/bundles").load()
        let theme = Theme.load(siteRoot: siteRoot, config: content.config, diagnostics: &diagnostics)
        guard let theme else { return (nil, diagnostics) }
        return ((content, theme), diagnostics)
    }
}
