import ArgumentParser
import Dispatch
import Foundation
import Synchronization
import TeardownBase
import TeardownBuild
import TeardownInbox

extension SyncCommand {
    /// `sync --follow`: rounds until Ctrl-C or SIGTERM, each printed as a one-shot sync prints
    /// itself, but only what is new.
    func follow(_ location: String, source: @escaping @Sendable () -> any InboxSource) throws {
        let builder = SiteBuilder(siteRoot: options.site, output: output)
        var settings = ResidentSync.Options()
        settings.interval = Double(interval) / 1000
        // A folder inbox, as `Inbox.source` tells one, is watched rather than listed.
        settings.folder = (source() as? FolderInbox)?.folder
        if deploy {
            let site = options.site, output = builder.output
            settings.publish = { try DeployOptions.parse([]).deploy(site: site, output: output) }
            settings.publishPages = { try DeployOptions.parse([]).deploy(site: site, output: output, buildLockHeld: true) }
        }
        let resident = ResidentSync(builder: builder, source: source, options: settings)
        let signals = Self.stopOnSignals(resident)
        defer { signals.forEach { $0.cancel() } }
        let printer = FollowPrinter(location: location, site: options.site, timings: timings, interval: interval,
                                    pollInterval: settings.pollInterval, watched: settings.folder != nil)
        resident.run { event in
            printer.show(event)
            // Each round's lines go out as it ends, to a terminal or a service's log alike.
            fflush(nil)
        }
        Swift.print("Stopped: the output is as the last build left it.")
    }

    /// Ctrl-C or SIGTERM stops after the round in flight, which publishes whole; a second one stops at once.
    private static func stopOnSignals(_ resident: ResidentSync) -> [any DispatchSourceSignal] {
        let asked = Mutex(false)
        return [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if asked.withLock({ $0 }) {
                    Terminal.report("Stopped at once.")
                    Foundation.exit(130)
                }
                asked.withLock { $0 = true }
                Terminal.write("Stopping after the round in flight (Ctrl-C again stops at once)…\n", to: .error)
                resident.stop()
            }
            source.resume()
            return source
        }
    }
}

/// Prints a resident sync's events: what each round did, each warning once, an unreachable
/// inbox once until it answers again.
private final class FollowPrinter {
    let location: String, site: String, timings: Bool, interval: Int, pollInterval: Double
    /// A folder inbox, watched rather than listed on the interval.
    let watched: Bool
    private var warned: [String] = []
    private var unreachable = false

    init(location: String, site: String, timings: Bool, interval: Int, pollInterval: Double, watched: Bool) {
        (self.location, self.site, self.timings, self.interval, self.pollInterval) = (location, site, timings, interval, pollInterval)
        self.watched = watched
    }

    func show(_ event: ResidentSync.Event) {
        switch event {
        case .watching(.inotify):
            Terminal.write(Terminal.safe("Following \(location): submissions and edits under content/ are published as "
                                         + "they come. Ctrl-C stops.") + "\n", to: .output)
        case .watching(.polling(let reason)):
            Terminal.write(Terminal.safe("Following \(location); content/ is walked every \(Int(pollInterval)) s "
                                         + "to find edits, because \(reason). Ctrl-C stops.") + "\n", to: .output)
        case .synced(let outcome, let walked):
            if unreachable {
                unreachable = false
                Terminal.write(Terminal.safe("\(location) answers again.") + "\n", to: .output)
            }
            synced(outcome, walked: walked)
        case .failed(.review(let failure as BuildFailure)):
            DiagnosticPrinter.print(failure.diagnostics, site: site)
            Terminal.report("Sync paused: the site has \(DiagnosticPrinter.summary(failure.diagnostics)); nothing was "
                            + "changed, and it is tried again with the next edit or after a pause.")
        case .failed(.review(let failure)):
            Terminal.report("Sync paused: \(failure); tried again with the next change or after a pause.")
        case .failed(.build(let failure, _)):
            DiagnosticPrinter.print(failure.diagnostics, site: site)
            Terminal.write(BuildSummary.failed(failure, on: .error)
                           + Terminal.safe("; \(failure.outputOutcome), and it is tried again with the next edit or after a pause.")
                           + "\n", to: .error)
        case .unreachable(let error):
            guard !unreachable else { return }
            unreachable = true
            Terminal.report("\(ErrorText.text(error)); "
                            + (watched ? "listed again as soon as it is there." : "listing it again every \(interval) ms."))
        case .publishFailed:
            // The deploy said why.
            Terminal.report("The deploy is tried again after a pause, or with the next round.")
        case .idle:
            break
        }
    }

    private func synced(_ outcome: SiteSync.Outcome, walked: Bool) {
        SyncCommand.print(outcome.report, news: true)
        // The summary is printed through stdout's buffer, the lines after it straight to the file.
        fflush(nil)
        guard let build = outcome.build else { return }
        // A warning is said again only when the warnings change, not every round.
        if build.warnings.map(\.description) != warned {
            DiagnosticPrinter.print(build.warnings, site: site)
            warned = build.warnings.map(\.description)
        }
        BuildSummary.print(build, seconds: String(format: "%.2f", build.timings.reduce(0) { $0 + $1.seconds }))
        for notice in build.notices { Swift.print("note: \(notice)") }
        if timings {
            // A round after the first looks only at what the watcher reported.
            Swift.print([BuildSummary.timing(walked ? "walk" : "look", seconds: outcome.walkSeconds),
                         BuildSummary.timing("review", seconds: outcome.reviewSeconds),
                         BuildSummary.timings(build.timings)].joined(separator: "\n"))
        }
    }
}
