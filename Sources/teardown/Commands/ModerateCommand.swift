import ArgumentParser
import Foundation
import TeardownInbox

struct ModerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "moderate",
        abstract: "List, approve or reject submissions intake holds for moderation.",
        discussion: """
            With moderation: true in site.yaml, `teardown intake` keeps each submission in \
            INBOX/.pending/ until it is approved, which lists it in the inbox for sync, or \
            rejected, which deletes it. `prune --before DATE` deletes published submissions \
            received before DATE, once sync has taken them, so the inbox stays small. Safe to \
            run while intake is running.
            """
    )

    enum Action: String, ExpressibleByArgument, CaseIterable {
        case list, approve, reject, prune
    }

    @Option(name: .long, help: ArgumentHelp("The inbox intake writes: a folder, or s3://BUCKET[/PREFIX].", valueName: "dir"))
    var inbox: String

    @Option(name: .long, help: ArgumentHelp("For an s3:// inbox, the store's address (default: AWS).", valueName: "url"))
    var endpoint: String?

    @Option(name: .long, help: ArgumentHelp("For an s3:// inbox, the region to sign for.", valueName: "region"))
    var region: String?

    @Argument(help: "list, approve, reject or prune.")
    var action: Action = .list

    @Argument(help: "The ids to approve or reject.")
    var ids: [String] = []

    @Option(name: .long, help: ArgumentHelp("With prune: the day (YYYY-MM-DD) before which published submissions go.",
                                            valueName: "date"))
    var before: String?

    func validate() throws {
        switch action {
        case .approve, .reject:
            if ids.isEmpty { throw ValidationError("Name the ids to \(action.rawValue).") }
        case .list, .prune:
            if !ids.isEmpty { throw ValidationError("\(action.rawValue) takes no ids.") }
        }
        if action == .prune, before == nil { throw ValidationError("prune needs --before YYYY-MM-DD.") }
        if action != .prune, before != nil { throw ValidationError("--before goes with prune.") }
    }

    func run() throws {
        let store: IntakeInbox
        if inbox.hasPrefix("s3://") {
            let (location, credentials) = try BucketAccess.resolve(inbox, endpoint: endpoint, region: region)
            // Nothing arrives here: the folder only satisfies the inbox's shape, and goes at the end.
            let scratch = NSTemporaryDirectory() + "teardown-moderate-\(getpid())"
            // A scratch folder left behind costs only space; it holds nothing of the submissions.
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            do {
                store = try IntakeInbox(folder: scratch, bucket: (location, credentials))
            } catch {
                throw ValidationError("Cannot use the inbox: \(error)")
            }
            try act(on: store)
            return
        }
        guard FileManager.default.fileExists(atPath: inbox + "/manifest.json") else {
            throw ValidationError("\(inbox) is not an intake inbox: it has no manifest.json.")
        }
        do {
            store = try IntakeInbox(folder: inbox)
        } catch {
            throw ValidationError("Cannot use the inbox: \(error)")
        }
        try act(on: store)
    }

    private func act(on store: IntakeInbox) throws {
        switch action {
        case .list:
            let held: [HeldSubmission]
            do {
                held = try store.held()
            } catch {
                Terminal.report("Cannot list the inbox: \(error)")
                throw ExitCode.failure
            }
            for submission in held {
                print(Terminal.safe("\(submission.id)  \(submission.isPhoto ? "photo" : "comment")"))
                if let photo = submission.photo {
                    let pixels = photo.pixels.map { "\($0.width) × \($0.height) px, " } ?? ""
                    let size = ByteCountFormatter.string(fromByteCount: Int64(photo.bytes), countStyle: .file)
                    print("    " + Terminal.safe("\(photo.path) (\(pixels)\(size))"))
                }
                // What senders wrote, shown as written: an escape sequence that clears the screen
                // or hides text must not decide what the moderator approves.
                for line in submission.text.split(separator: "\n", omittingEmptySubsequences: false) {
                    print("    " + Terminal.safe(String(line)))
                }
            }
            print(held.isEmpty ? "Nothing is waiting for moderation." : "\(held.count) waiting: `teardown moderate approve ID...` or `reject ID...`")
        case .prune:
            do {
                let pruned = try store.prune(before: before ?? "")
                print("Pruned \(pruned.count) submission\(pruned.count == 1 ? "" : "s") received before \(before ?? "")")
            } catch {
                Terminal.report("Prune stopped: \(error)")
                throw ExitCode.failure
            }
        case .approve, .reject:
            let missing: [String]
            do {
                missing = action == .approve ? try store.approve(ids) : try store.reject(ids)
            } catch {
                Terminal.report("Moderation stopped: \(error)")
                throw ExitCode.failure
            }
            let done = ids.filter { !missing.contains($0) }
            if !done.isEmpty { print(Terminal.safe("\(action == .approve ? "Approved" : "Rejected"): \(done.joined(separator: ", "))")) }
            if !missing.isEmpty {
                Terminal.report("Not waiting for moderation: \(missing.joined(separator: ", "))")
                throw ExitCode.failure
            }
        }
    }
}
