import ArgumentParser
import Foundation

/// The token that guards a `teardown intake` inbox: from a file, or the environment, so it
/// never has to be typed on a command line that `ps` shows.
enum InboxToken {
    static let variable = "TEARDOWN_INBOX_TOKEN"

    static func read(file: String?) throws -> String? {
        if let file {
            // The failure is told in our words below, with the file's name.
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

extension InboxToken {
    /// The token kept in the inbox's `.token` file, made on first use; only its owner may read it.
    static func stored(in inbox: String) throws -> String {
        let path = inbox + "/.token"
        // No token file yet: one is made below.
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !token.isEmpty { return token }
        }
        var generator = SystemRandomNumberGenerator()
        let token = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
        guard FileManager.default.createFile(atPath: path, contents: Data((token + "\n").utf8),
                                             attributes: [.posixPermissions: 0o600])
        else { throw ValidationError("Cannot write the token file \(path).") }
        return token
    }
}
