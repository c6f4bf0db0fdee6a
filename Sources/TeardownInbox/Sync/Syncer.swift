import Foundation
import TeardownBase
import TeardownContent
import TeardownBuild

/// One line of a sync's plan or result.
public struct SyncAction: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable {
        case accept = "accept"
        case reject = "reject"
        case takeDown = "take down"
        case alreadyPresent = "already present"
    }

    public let kind: Kind
    public let id: String
    /// Where an accepted submission goes, why one is rejected, what a takedown removes.
    public let detail: String
}

/// What a sync did, or would do in a dry run.
public struct SyncReport: Sendable {
    public let source: String
    public let actions: [SyncAction]
    public let dryRun: Bool
    /// Every file sync wrote into or removed from content/, as paths in the site folder: the
    /// build that follows looks at these instead of walking the whole site.
    public var filed: [String] = []

    public func count(_ kind: SyncAction.Kind) -> Int { actions.filter { $0.kind == kind }.count }

    /// The bundles changed, so the site needs a build.
    public var changedContent: Bool { !dryRun && (count(.accept) > 0 || count(.takeDown) > 0) }
}

/// Pulls submissions from an inbox into the site's bundles: validates each, files accepted ones
/// under content-addressed names (temporary file, then rename), keeps rejected ones with their
/// reason in content/.quarantine/, and applies takedowns. Running it twice changes nothing.
public struct Syncer: Sendable {
    public let siteRoot: String
    public let source: any InboxSource
    public let cacheFolder: String
    /// Where the sync counts its own work; nowhere by default.
    public let counters: BuildCounters

    public init(siteRoot: String, source: any InboxSource, cacheFolder: String? = nil, counters: BuildCounters = .none) {
        self.counters = counters
        // Named as the build names it, so the review and the build share the content cache.
        let siteRoot = URL(fileURLWithPath: siteRoot).standardizedFileURL.path
        self.siteRoot = siteRoot
        self.source = source
        self.cacheFolder = cacheFolder ?? CacheLayout(siteRoot: siteRoot).root
    }

    /// Where the site's stores and caches live.
    private var cache: CacheLayout { CacheLayout(root: cacheFolder) }

    /// The folder rejected submissions are kept in, with a `<id>.reason` file each.
    public var quarantine: String { siteRoot + "/content/.quarantine" }

    /// Reviews and files the inbox's submissions. `inputs` is a walk of the site taken just
    /// before (`SiteBuilder.walkInputs`): bundles it finds unchanged come from the content cache
    /// the builds keep, instead of every comment being parsed again to review a few. `listed` is
    /// the source's listing when the caller has just taken it.
    public func run(dryRun: Bool, inputs: BuildInputs? = nil, listed: [InboxSubmission]? = nil) throws -> SyncReport {
        let content = try load(inputs)
        let review = SubmissionReview(content: content)
        let ledger = SyncLedger(path: cache.syncLedger)
        let submissions = try listed ?? source.submissions()
        let limits = content.config.limits
        // Takedowns go last, so a takedown can withdraw a submission from the same inbox.
        let ordered = submissions.filter { !$0.isTakedown } + submissions.filter(\.isTakedown)
        // Each takedown is fetched once, here, and reviewed from that copy below. Fetched again
        // later, a takedown whose first download failed could succeed, find nothing yet filed
        // of a target in the same inbox, and be recorded as done while the target went up.
        var takedowns: [String: Result<[String: Data], FetchProblem>] = [:]
        for takedown in ordered where takedown.isTakedown && takedowns[takedown.id] == nil {
            takedowns[takedown.id] = SubmissionReview.nameProblem(takedown) == nil ? try fetch(takedown, limits: limits)
                : .failure(FetchProblem(reason: "not fetched"))
        }
        // A takedown that could not be fetched withdraws nothing now; it stays in the inbox for the next sync.
        let withdrawn = Set(takedowns.values.compactMap { try? $0.get() }.compactMap(Self.takedownTarget))
        var decisions: [(InboxSubmission, [String: Data], SyncDecision)] = []
        var seenIDs = Set<String>()
        for submission in ordered {
            let unseen = seenIDs.insert(submission.id).inserted
            if let decision = screen(submission, unseen: unseen, ledger: ledger) {
                decisions.append((submission, [:], decision))
                continue
            }
            // Rejected before with the same files: reviewed again (the part may exist now, or a
            // limit be higher) from its quarantined copy, not downloaded again.
            let fetched: Result<[String: Data], FetchProblem>
            switch quarantined(submission) {
            case .kept(let files): fetched = .success(files)
            case .dropped(let reason):
                decisions.append((submission, [:], .reject(reason: "rejected before, not fetched again: \(reason) (its files were over "
                                                                + "the quarantine's limit; delete its .reason file in content/.quarantine/ to fetch it again)")))
                continue
            case .none: fetched = try takedowns[submission.id] ?? fetch(submission, limits: limits)
            }
            switch fetched {
            case .failure(let problem):
                decisions.append((submission, [:], .reject(reason: problem.reason)))
            case .success(let files):
                let checked = InboxSubmission(id: submission.id, files: submission.files,
                                              sha256: files.mapValues { SHA256Hex.of($0) })
                let decision: SyncDecision = if submission.sha256.isEmpty, ledger.contains(checked) {
                    .alreadyPresent("synced before")
                } else if withdrawn.contains(submission.id), !submission.isTakedown {
                    .alreadyPresent("withdrawn by a takedown in the same inbox")
                } else {
                    review.review(checked, files: files)
                }
                decisions.append((checked, files, decision))
            }
        }
        return try file(decisions, listed: submissions, dryRun: dryRun, ledger: ledger, limits: limits)
    }

    /// The site's content as the review needs it: bundles the walk finds unchanged come from
    /// the content cache.
    private func load(_ inputs: BuildInputs?) throws -> SiteContent {
        let walk = inputs?.snapshot ?? InputSnapshot.take(roots: [siteRoot + "/content"], key: ContentDigest(high: 0, low: 0),
                                                             counters: counters)
        let memo = walk.map { walk in
            let parts = InputSnapshot.PartSignatures(walk)
            return ContentCache.Use(folder: cache.content, signatures: walk.bundleSignatures().settled,
                                    parts: { parts($0) })
        }
        let (content, diagnostics) = ContentLoader(siteRoot: siteRoot, archiveCache: cache.bundles, memo: memo,
                                                  counters: counters).load()
        guard !diagnostics.hasErrors else { throw BuildFailure(diagnostics) }
        return content
    }

    /// What is decided about a submission before its files are fetched, if anything.
    private func screen(_ submission: InboxSubmission, unseen: Bool, ledger: SyncLedger) -> SyncDecision? {
        if !unseen { return .reject(reason: "duplicate: id '\(submission.id)' appears twice in the inbox") }
        if let problem = submission.problem { return .reject(reason: problem) }
        if !submission.sha256.isEmpty, ledger.contains(submission) { return .alreadyPresent("synced before") }
        if let problem = SubmissionReview.nameProblem(submission) { return .reject(reason: problem) }
        if submission.files.count > Self.maxFilesPerSubmission {
            return .reject(reason: "it lists \(submission.files.count) files; a submission has at "
                               + "most \(Self.maxFilesPerSubmission) (a comment one, a photo two)")
        }
        if source.requiresDigests, let unsigned = submission.files.first(where: { submission.sha256[$0] == nil }) {
            return .reject(reason: "the manifest gives no SHA-256 for \(unsigned): "
                               + "a remote inbox must, so that a file cut short in transit is noticed")
        }
        return nil
    }

    /// Applies each decision (but in a dry run) and reports it.
    private func file(_ decisions: [(InboxSubmission, [String: Data], SyncDecision)], listed submissions: [InboxSubmission],
                      dryRun: Bool, ledger: SyncLedger, limits: CommunityLimits) throws -> SyncReport {
        var actions: [SyncAction] = []
        var filed: [String] = []
        let usage = QuarantineUsage(folder: quarantine, counters: counters)
        for (submission, files, decision) in decisions {
            if !dryRun {
                filed += try apply(decision, submission: submission, files: files, ledger: ledger, limits: limits, usage: usage)
            }
            actions.append(Self.action(submission.id, decision))
        }
        if !dryRun {
            source.synced(listed: submissions, settled: Set(actions.filter { $0.kind != .reject }.map(\.id)))
        }
        return SyncReport(source: source.name, actions: actions, dryRun: dryRun, filed: filed)
    }

    /// The id a fetched takedown withdraws.
    private static func takedownTarget(_ files: [String: Data]) -> String? {
        guard let data = files.first(where: { SubmissionFiles.isTakedown($0.key) })?.value,
              let text = SubmissionReview.text(data) else { return nil }
        var ignored: [Diagnostic] = []
        let file = SourceFile(absolutePath: "takedown", displayPath: "takedown")
        return YAMLMap.parse(text, file: file, expected: "takedown", diagnostics: &ignored)?.string("target", diagnostics: &ignored)
    }

    /// The submission's files, or why the inbox could not give them (a reject). A failure of
    /// this side to take them stops the sync instead: nothing is decided of what was not fetched.
    private func fetch(_ submission: InboxSubmission, limits: CommunityLimits) throws(InboxFailure)
        -> Result<[String: Data], FetchProblem> {
        var files: [String: Data] = [:]
        for name in submission.files {
            let isImage = SubmissionReview.imageExtensions.contains((name as NSString).pathExtension.lowercased())
            let limit = isImage ? limits.photoMaxBytes : 1 << 20
            do {
                files[name] = try source.fetch(name, maxBytes: limit)
            } catch where error.receiving {
                throw error
            } catch {
                return .failure(FetchProblem(reason: "cannot fetch \(name): \(error.reason)"))
            }
            if let expected = submission.sha256[name], expected.lowercased() != SHA256Hex.of(files[name]!) {
                return .failure(FetchProblem(reason: "\(name): its SHA-256 does not match the manifest"))
            }
        }
        return .success(files)
    }

    private struct FetchProblem: Error { package let reason: String }

    /// Files the decision; returns the paths in the site folder it wrote or removed.
    private func apply(_ decision: SyncDecision, submission: InboxSubmission, files: [String: Data], ledger: SyncLedger,
                       limits: CommunityLimits, usage: QuarantineUsage) throws -> [String] {
        var touched: [String] = []
        switch decision {
        case .accept(_, let written):
            touched = written.map(\.path)
            for (path, data) in written {
                let full = siteRoot + "/" + path
                try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
                try FileSystem.writeAtomically(data, to: full)
            }
            // Rejected before (a failed download, say) and accepted now: the quarantined copy is stale.
            usage.remove(submission.id)
            try FileSystem.removeTree(quarantine + "/" + submission.id)
            try FileSystem.unlinkIfPresent(quarantine + "/" + submission.id + ".reason")
        case .reject(let reason):
            // Not recorded in the ledger: a rejected submission is looked at again next time,
            // so adding the part it was for, or raising a limit, lets it in.
            try keepInQuarantine(submission, files: files, reason: reason, budget: limits.quarantineMaxBytes, usage: usage)
            return []
        case .takeDown(_, _, let removed):
            for path in removed { try FileSystem.unlinkIfPresent(siteRoot + "/" + path) }
            touched = removed
        case .alreadyPresent:
            break
        }
        try ledger.record(submission)
        return touched
    }

    private func quarantineKey(_ id: String) -> String {
        Inbox.isValidID(id) ? id : "invalid-" + String(SHA256Hex.of(Data(id.utf8)).prefix(12))
    }

    /// What the quarantine remembers of a submission rejected before with these very files.
    package enum Quarantined {
        case kept([String: Data])
        /// Its files were over the budget; only the reason was kept.
        case dropped(reason: String)
    }

    private func quarantined(_ submission: InboxSubmission) -> Quarantined? {
        guard !submission.sha256.isEmpty, submission.files.allSatisfy({ submission.sha256[$0] != nil }) else { return nil }
        let key = quarantineKey(submission.id)
        guard let note = FileManager.default.contents(atPath: quarantine + "/" + key + ".reason"),
              let text = String(data: note, encoding: .utf8),
              text.contains("\nchecksum: \(SHA256Hex.of(Data(submission.checksum.utf8)))\n")
        else { return nil }
        var files: [String: Data] = [:]
        for name in submission.files {
            guard let data = FileManager.default.contents(atPath: quarantine + "/" + key + "/" + name),
                  SHA256Hex.of(data) == submission.sha256[name]?.lowercased() else {
                let reason = text.split(separator: "\n").first.map { String($0.dropFirst("reason: ".count)) } ?? "no reason kept"
                return text.contains("\nkept: false\n") ? .dropped(reason: reason) : nil
            }
            files[name] = data
        }
        return .kept(files)
    }

    /// Keeps a rejected submission's files and its reason in content/.quarantine/, its files only
    /// while the whole quarantine stays within `budget` bytes: fifty rejected 5 MB photos used
    /// to add 250 MB to content/.
    private func keepInQuarantine(_ submission: InboxSubmission, files: [String: Data], reason: String, budget: Int,
                                  usage: QuarantineUsage) throws {
        let key = quarantineKey(submission.id)
        let folder = quarantine + "/" + key
        let keepable = files.filter { SubmissionReview.nameProblem(InboxSubmission(id: submission.id, files: [$0.key], sha256: [:])) == nil }
        let size = keepable.values.reduce(0) { $0 + $1.count }
        let kept = usage.others(than: key) + size <= budget
        if kept {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (name, data) in keepable where FileManager.default.contents(atPath: folder + "/" + name) != data {
                try FileSystem.writeAtomically(data, to: folder + "/" + name)
            }
            usage.set(key, bytes: size)
        } else {
            usage.remove(key)
            try FileSystem.removeTree(folder)
            try FileManager.default.createDirectory(atPath: quarantine, withIntermediateDirectories: true)
        }
        let listed = submission.files.map { "\"\($0.replacingOccurrences(of: "\"", with: "\\\""))\"" }.joined(separator: ", ")
        let note = Data(("reason: \(reason)\nsource: \(source.name)\nid: \(submission.id)\nfiles: \(listed)\n"
                         + "checksum: \(SHA256Hex.of(Data(submission.checksum.utf8)))\nkept: \(kept)\n").utf8)
        if FileManager.default.contents(atPath: quarantine + "/" + key + ".reason") != note {
            try FileSystem.writeAtomically(note, to: quarantine + "/" + key + ".reason")
        }
    }

    /// The most files one submission may list: a comment is one, a photo two (and a takedown one).
    package static let maxFilesPerSubmission = 8

    /// Bytes of the regular files under `folder`, 0 when it does not exist.
    package static func size(of folder: String) -> Int {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return 0 }
        var total = 0
        while let name = walker.nextObject() as? String {
            if let attributes = walker.fileAttributes, attributes[.type] as? FileAttributeType == .typeRegular {
                total += (attributes[.size] as? Int) ?? 0
            }
            _ = name
        }
        return total
    }

    private static func action(_ id: String, _ decision: SyncDecision) -> SyncAction {
        switch decision {
        case .accept(let summary, _): SyncAction(kind: .accept, id: id, detail: summary)
        case .reject(let reason): SyncAction(kind: .reject, id: id, detail: reason)
        case .takeDown(let target, let reason, let files):
            SyncAction(kind: .takeDown, id: id, detail: "\(target)\(reason.map { " (\($0))" } ?? ""): removes \(files.joined(separator: ", "))")
        case .alreadyPresent(let detail): SyncAction(kind: .alreadyPresent, id: id, detail: detail)
        }
    }
}

extension InboxSubmission {
    package var isTakedown: Bool { files.contains(SubmissionFiles.takedown(id)) }
}

extension Syncer {
    /// The inbox named by site.yaml's sync_source, if any.
    public static func configuredSource(siteRoot: String) -> String? {
        var ignored: [Diagnostic] = []
        return SiteConfigLoader.load(SourceFile(root: siteRoot, relative: "content/site.yaml"), diagnostics: &ignored).syncSource
    }
}
