import Foundation
import TeardownBase
import TeardownBuild

/// A sync as `teardown sync` runs it: one walk of the site serves the review and the build
/// after it, which looks again only at the files the sync filed. A real sync always builds,
/// even when it filed nothing: the build costs little then, and it finishes the job of a sync
/// killed before its build. A dry run builds nothing.
public struct SiteSync: Sendable {
    public let syncer: Syncer
    public let builder: SiteBuilder

    public init(syncer: Syncer, builder: SiteBuilder) {
        self.syncer = syncer
        self.builder = builder
    }

    /// What a sync did: the review's report, the build's (nil after a dry run), and how long the
    /// walk and the review took, which come before the build's own steps.
    public struct Outcome: Sendable {
        public let report: SyncReport
        public let build: SiteBuilder.Report?
        public let walkSeconds: Double
        public let reviewSeconds: Double
    }

    /// Why a sync stopped: in the review, which changed nothing, or in the build after it,
    /// which left the output as it was.
    public enum Failure: Error {
        case review(any Error)
        case build(BuildFailure, report: SyncReport)
    }

    /// Reviews and files the inbox, then builds. `reviewed` is called with the review's report
    /// before the build starts, so it can be shown while the build runs.
    ///
    /// `look` gives the inputs as a caller that watches them knows them (`SiteBuilder.inputs(changed:)`),
    /// with `changed` the paths that changed since the last build; without it, the site is
    /// walked. Either is timed as the walk. `listed` is the inbox's listing when the caller has just taken it.
    /// `pagesPublished` is the build's (`SiteBuilder.build`).
    public func run(dryRun: Bool, look: (() -> BuildInputs)? = nil, changed: [String] = [], listed: [InboxSubmission]? = nil,
                    reviewed: (SyncReport) -> Void = { _ in },
                    progress: BuildProgress.Handler? = nil, pagesPublished: () -> Void = {}) throws(Failure) -> Outcome {
        let walkStart = Date()
        let inputs = look?() ?? builder.walkInputs()
        let reviewStart = Date()
        let report: SyncReport
        do {
            report = try syncer.run(dryRun: dryRun, inputs: inputs, listed: listed)
        } catch {
            throw .review(error)
        }
        let walkSeconds = reviewStart.timeIntervalSince(walkStart), reviewSeconds = Date().timeIntervalSince(reviewStart)
        reviewed(report)
        guard !report.dryRun else {
            return Outcome(report: report, build: nil, walkSeconds: walkSeconds, reviewSeconds: reviewSeconds)
        }
        do {
            let filed = report.filed.map { (syncer.siteRoot as NSString).appendingPathComponent($0) }
            let build = try builder.build(inputs: inputs, changed: changed + filed, progress: progress,
                                          pagesPublished: pagesPublished)
            return Outcome(report: report, build: build, walkSeconds: walkSeconds, reviewSeconds: reviewSeconds)
        } catch {
            throw .build(error, report: report)
        }
    }

    /// Builds what changed without looking at the inbox: its report lists nothing.
    func build(look: () -> BuildInputs, changed: [String], pagesPublished: () -> Void = {}) throws(Failure) -> Outcome {
        let report = SyncReport(source: syncer.source.name, actions: [], dryRun: false)
        let start = Date()
        let inputs = look()
        let walkSeconds = Date().timeIntervalSince(start)
        do {
            return Outcome(report: report, build: try builder.build(inputs: inputs, changed: changed, pagesPublished: pagesPublished),
                           walkSeconds: walkSeconds, reviewSeconds: 0)
        } catch {
            throw .build(error, report: report)
        }
    }
}
