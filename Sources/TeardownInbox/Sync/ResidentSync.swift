import Foundation
import TeardownBase
import TeardownBuild
import TeardownContent

/// `teardown sync --follow`: a sync that stays up and publishes each change as it comes.
///
/// The first round is a sync as `teardown sync` runs it, walk and all. From then on the inputs
/// are watched (inotify; a walk on an interval where the kernel's watch limit is reached), so
/// a round knows every change since the last build and walks nothing: a comment filed or a
/// description edited costs the few files it touched. A folder inbox is watched too; a remote
/// one is listed on an interval, and a round starts only when its listing changed. What comes
/// in while a round runs waits for the next, which takes it all at once: a burst is one build.
///
/// `stop()` ends it between rounds, never inside one: a build in flight finishes and publishes
/// whole (and a deploy after it), so a stop leaves the output and the bucket each as one build made them.
public final class ResidentSync: @unchecked Sendable {
    public struct Options: Sendable {
        /// Seconds between listings of a remote inbox.
        public var interval = 0.2
        /// Seconds between walks of the inputs where inotify cannot watch them.
        public var pollInterval = 2.0
        /// A folder inbox, watched rather than listed on an interval; nil for a remote inbox.
        public var folder: String?
        /// Watch by walking even where inotify could (for tests of the fallback).
        public var forcePolling = false
        /// Seconds before a failed round's walk, or a failed `publish`, is tried again when
        /// nothing else wakes it; doubled after each failure in a row, up to `retryLimit`.
        public var retryDelay = 0.5
        public var retryLimit = 30.0
        /// Run after each build that changed the output, and again until it succeeds, after a
        /// back-off or with the next round (the deploy of `--deploy`). It learns what changed as a one-shot deploy does, from
        /// the changes each build notes (`OutputChanges`), so this process keeps none of it.
        public var publish: (@Sendable () throws -> Void)?
        /// Run between the two publishes of a build that publishes its pages before its search
        /// index, with the output's build lock held: the pages go out before Pagefind has run,
        /// and `publish` sends the index after the build.
        public var publishPages: (@Sendable () throws -> Void)?

        public init() {}
    }

    public enum Event {
        /// How the inputs are watched: by inotify, or by a walk on an interval, and why.
        case watching(ChangeWatcher.Mode)
        /// A round ran; `walked` when it looked at every input (the first, or after lost events).
        case synced(SiteSync.Outcome, walked: Bool)
        /// A round stopped; the next one starts from a walk, at the next change or after a back-off.
        case failed(SiteSync.Failure)
        /// The inbox could not be listed; it is listed again after the interval.
        case unreachable(any Error)
        /// `publish` failed; it runs again after a back-off, or with the next round.
        case publishFailed(any Error)
        /// Nothing is left to do until the next change (or listing).
        case idle
    }

    private let builder: SiteBuilder
    /// A source per round: a remote source's deadline counts from its round's start.
    private let source: @Sendable () -> any InboxSource
    private let options: Options
    private let counters: BuildCounters

    private let condition = NSCondition()
    private var changed = Set<String>()
    /// Some change's paths are not known (the first round, lost events): walk.
    private var walk = true
    private var inboxTouched = true
    private var stopping = false
    /// A remote inbox tells of its changes as they happen (`listen`): no listing on an interval.
    private var told = false

    public init(builder: SiteBuilder, source: @escaping @Sendable () -> any InboxSource, options: Options = Options(),
                counters: BuildCounters = .none) {
        self.builder = builder
        self.source = source
        self.options = options
        self.counters = counters
    }

    /// Ends `run` once the round in flight, if any, is done.
    public func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    /// Runs rounds until `stop()`. `onEvent` is called on this thread, between the steps of a round.
    public func run(onEvent: (Event) -> Void) {
        let roots = builder.inputRoots.filter { !$0.isEmpty }
        let inbox = options.folder.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let watcher = ChangeWatcher(folders: roots + (inbox.map { [$0] } ?? []), forcePolling: options.forcePolling,
                                    pollInterval: options.pollInterval) { [self] paths in
            noted(paths, roots: roots, inbox: inbox)
        }
        onEvent(.watching(watcher.mode))
        if inbox == nil, let remote = source() as? RemoteInbox, remote.answersWhenChanged {
            let listener = Thread { [self] in listen() }
            listener.name = "teardown-inbox-listener"
            listener.start()
        }
        Allocator.mapLargeBlocks()
        // The first round publishes even when its build changed nothing: the bucket may be behind the output.
        var memory = Memory(publishPending: options.publish != nil)
        // A submission with a file still being written is not listed yet: its close wakes a
        // listing. Asked once the events of the listing's time are noted: a file made just
        // before it was listed may have its making still in the kernel's queue.
        let finished = { (listing: [InboxSubmission]) -> [InboxSubmission] in
            guard let inbox else { return listing }
            watcher.settle()
            return listing.filter { submission in !submission.files.contains { watcher.isBeingWritten(inbox + "/" + $0) } }
        }
        var watching = watcher.mode
        while let next = nextRound(due: memory.due(listing: inbox == nil), idle: { onEvent(.idle) }) {
            // The watch limit met while following: said once, and the walk that follows finds the change.
            if watcher.mode != watching {
                watching = watcher.mode
                onEvent(.watching(watching))
            }
            let built = round(next, listsInbox: next.inboxTouched || next.walk || inbox == nil, finished: finished,
                              memory: &memory, onEvent: onEvent)
            // A round's pages, content and plan are freed, but the allocator keeps their pages
            // for the process; given back, a process up for weeks holds what it holds between rounds.
            // The heads decoded are let go too: decoding them again costs the next round a few
            // milliseconds, and held they were most of what it kept besides the input snapshot.
            if built {
                ContentCache.forgetDecoded(in: builder.cache.content)
                Allocator.giveBack()
            }
        }
        _ = watcher
    }

    /// What one round leaves the next.
    private struct Memory {
        var publishPending: Bool
        /// The last build's report: its inputs are where the next round's look starts.
        var build: SiteBuilder.Report? = nil
        var lastListing: Set<InboxSubmission>? = nil
        var filed = FiledFiles()
        var nextListing = Date()
        /// A failed round saw changes no snapshot accounts for: the next build walks. It is
        /// tried at the next change, or at `walkRetry` without one (a full disk that has room
        /// again changes no input), so a lasting failure is not a round after round.
        var walkPending = false
        var walkRetry = Backoff()
        var publishRetry = Backoff()

        /// When the next round is due without a change: a remote inbox's listing, a retry.
        func due(listing: Bool) -> (listing: Date?, retry: Date?) {
            (listing ? nextListing : nil,
             [walkPending ? walkRetry.next : nil, publishPending ? publishRetry.next : nil].compactMap { $0 }.min())
        }
    }

    /// Failures in a row, and when to try again.
    private struct Backoff {
        var failures = 0
        var next: Date? = nil

        mutating func failed(_ options: Options) {
            failures += 1
            let delay = min(options.retryLimit, options.retryDelay * pow(2, Double(min(failures - 1, 30))))
            next = Date(timeIntervalSinceNow: delay)
        }

        var isDue: Bool { next.map { Date() >= $0 } ?? true }
    }

    /// One round; true when it synced or built.
    private func round(_ next: (paths: [String], walk: Bool, inboxTouched: Bool), listsInbox: Bool,
                       finished: ([InboxSubmission]) -> [InboxSubmission], memory: inout Memory, onEvent: (Event) -> Void) -> Bool {
        let source = source()
        var listing: [InboxSubmission]?
        if listsInbox {
            memory.nextListing = Date(timeIntervalSinceNow: options.interval)
            do {
                listing = try finished(source.submissions())
            } catch {
                onEvent(.unreachable(error))
            }
        }
        let listed = listing.map(Set.init)
        let inboxChanged = listed != nil && listed != memory.lastListing
        let changed = memory.filed.others(among: next.paths)
        let walks = next.walk || memory.walkPending && (memory.walkRetry.isDue || inboxChanged || !changed.isEmpty)
        let builds = walks || inboxChanged || !changed.isEmpty
        if builds {
            let sync = SiteSync(syncer: Syncer(siteRoot: builder.siteRoot, source: source, cacheFolder: builder.cacheFolder,
                                               counters: counters), builder: builder)
            let look = { [builder, last = memory.build] in builder.inputs(changed: changed, after: last) }
            let pagesPublished = { [publishPages = options.publishPages] in
                do { try publishPages?() } catch { onEvent(.publishFailed(error)) }
            }
            do {
                let outcome = walks || inboxChanged
                    ? try sync.run(dryRun: false, look: walks ? nil : look, changed: changed, listed: listing ?? [],
                                   pagesPublished: pagesPublished)
                    // Hand edits alone: nothing to review.
                    : try sync.build(look: look, changed: changed, pagesPublished: pagesPublished)
                memory.filed = FiledFiles(outcome.report.filed.map { builder.siteRoot + "/" + $0 })
                if listing != nil { memory.lastListing = listed }
                onEvent(.synced(outcome, walked: walks))
                if let build = outcome.build, !build.unchanged {
                    memory.publishPending = options.publish != nil
                    memory.publishRetry = Backoff()
                }
                memory.build = outcome.build
                memory.walkPending = false
                memory.walkRetry = Backoff()
            } catch {
                onEvent(.failed(error))
                memory.build = nil
                // A failed round stored no snapshot: what it saw is unaccounted for, and the
                // walk of the retry reviews the listing it failed on.
                memory.walkPending = true
                memory.walkRetry.failed(options)
                // Failed in its search step: its pages are out, and the bucket is behind them.
                if case .build(let failure, _) = error, failure.pagesPublished { memory.publishPending = options.publish != nil }
                if listing != nil { memory.lastListing = listed }
            }
        }
        if memory.publishPending, builds || memory.publishRetry.isDue { publish(&memory, onEvent: onEvent) }
        return builds
    }

    /// Runs `publish`; a failure is tried again after a back-off, or with the next build.
    private func publish(_ memory: inout Memory, onEvent: (Event) -> Void) {
        guard let publish = options.publish else { return }
        do {
            try publish()
            memory.publishPending = false
            memory.publishRetry = Backoff()
        } catch {
            onEvent(.publishFailed(error))
            memory.publishRetry.failed(options)
        }
    }

    /// Waits for something to do: changed inputs, a touched inbox folder, or a time that is
    /// `due` (a remote listing, unless the inbox tells of its changes; a retry); `idle` is
    /// called when it starts waiting. Nil once stopped.
    private func nextRound(due: (listing: Date?, retry: Date?), idle: () -> Void) -> (paths: [String], walk: Bool, inboxTouched: Bool)? {
        condition.lock()
        defer { condition.unlock() }
        var waited = false
        while !stopping && changed.isEmpty && !walk && !inboxTouched {
            let listing = told ? nil : due.listing
            if !waited, listing == nil {
                idle()
                waited = true
            }
            if let due = [listing, due.retry].compactMap({ $0 }).min() {
                if Date() >= due { break }
                // Woken early by a change or a stop; the loop looks again either way.
                _ = condition.wait(until: due)
            } else {
                condition.wait()
            }
        }
        guard !stopping else { return nil }
        // Editors and sync write a file in steps (a temporary, then a rename): a moment more
        // lets a change finish, and takes what came with it in the same round.
        if !changed.isEmpty {
            condition.unlock()
            usleep(20_000)
            condition.lock()
        }
        defer { changed = []; walk = false; inboxTouched = false }
        return (Array(changed), walk, inboxTouched)
    }

    /// Asks a remote inbox to answer when its manifest changes (`RemoteInbox.manifest(since:wait:)`),
    /// and wakes a round each time it does: a submission is listed as it is published, not up to
    /// an interval later. While the inbox cannot (an error, or a server that answers at once
    /// with nothing new), rounds list it on the interval again.
    private func listen() {
        var digest = ""
        while true {
            condition.lock()
            let stop = stopping
            condition.unlock()
            guard !stop, let remote = source() as? RemoteInbox else { return }
            let start = Date()
            // Within the sync's --timeout, which each request must keep, with time to answer.
            let wait = min(20, max(0, remote.deadline.timeIntervalSinceNow - 5))
            // A failed wait is as good as none: the rounds list the inbox on their interval.
            let data = try? remote.manifest(since: digest, wait: wait)
            let now = data.map { SHA256Hex.of($0) }
            let waited = Date().timeIntervalSince(start) >= 1
            let held = now != nil && !waited && now == digest ? false : nil
            condition.lock()
            let wasTold = told
            if now == nil {
                told = false
            } else if waited {
                told = true
            } else if let held {
                // Answered at once with nothing new: the server does not hold the request.
                told = held
            }
            if let now, now != digest { inboxTouched = true }
            // A round waiting for word that no longer comes goes back to listing on the interval.
            if inboxTouched || told != wasTold { condition.broadcast() }
            condition.unlock()
            if let now { digest = now }
            // Failed, or not held by the server: asked again after the interval, as a listing is.
            if now == nil || held == false { usleep(UInt32(options.interval * 1_000_000)) }
        }
    }

    /// A watcher's report: inbox events wake a listing, input events a build. Hidden files are
    /// no input (an editor's swap file, the quarantine, a temporary) and wake nothing.
    private func noted(_ paths: [String]?, roots: [String], inbox: String?) {
        condition.lock()
        defer { condition.unlock() }
        guard let paths else {
            walk = true
            inboxTouched = inbox != nil
            condition.broadcast()
            return
        }
        for path in paths {
            if let inbox, path == inbox || path.hasPrefix(inbox + "/") {
                inboxTouched = true
            } else if let root = roots.first(where: { path == $0 || path.hasPrefix($0 + "/") }),
                      !path.dropFirst(root.count).contains("/.") {
                changed.insert(path)
            }
        }
        condition.broadcast()
    }
}

/// The files a round filed, as it left them: their events, which reach the watcher after the
/// round, are its own writes and no change, unless the file changed again since.
private struct FiledFiles {
    private var states: [String: String] = [:]

    init(_ paths: [String] = []) {
        for path in paths { states[path] = Self.state(of: path) }
    }

    /// `paths` but those filed by the last round and unchanged since.
    func others(among paths: [String]) -> [String] {
        paths.filter { path in states[path].map { $0 != Self.state(of: path) } ?? true }
    }

    /// The file's inode, size and modification time; "absent" for a file removed (a takedown's).
    private static func state(of path: String) -> String {
        // A file that cannot be looked at is as good as absent: its event wakes a round if it differs.
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return "absent" }
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(attributes[.systemFileNumber] ?? 0) \(attributes[.size] ?? 0) \(modified)"
    }
}
