import ArgumentParser
import Foundation

/// The token that guards a `teardown intake` inbox: from a file, or the environment, so it
/// never has to be typed on a command line that `ps` shows.
enum InboxToken {
    static let variable = "TEARDOWN_INBOX_TOKEN"

    static func read(file: String?) throws -> String? {
        if let file {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ValidationError("Cannot read the token file \(file).")
            }
            let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !token.isEmpty else { throw ValidationError("The token file \(file) is empty.") }
            return token
        }
        return ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }
}
