import Foundation

/// The keys a deploy signs with, found where the AWS tools look for them: the environment
/// (`AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`), then the shared
/// credentials file (`AWS_SHARED_CREDENTIALS_FILE` or `~/.aws/credentials`) under
/// `AWS_PROFILE` or `default`. They are never printed.
public struct S3Credentials: Sendable {
    package let keyID: String
    package let secret: String
    package let sessionToken: String?

    public static func find(environment: [String: String] = ProcessInfo.processInfo.environment) -> Result<S3Credentials, StoreFailure> {
        if let keyID = environment["AWS_ACCESS_KEY_ID"], !keyID.isEmpty,
           let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty {
            return .success(S3Credentials(keyID: keyID, secret: secret, sessionToken: environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }))
        }
        let profile = environment["AWS_PROFILE"] ?? "default"
        let file = environment["AWS_SHARED_CREDENTIALS_FILE"] ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.aws/credentials")
        // No credentials file is normal: the environment may hold the keys.
        if let text = try? String(contentsOfFile: file, encoding: .utf8) {
            let section = Self.section(profile, in: text)
            if let keyID = section["aws_access_key_id"], let secret = section["aws_secret_access_key"] {
                return .success(S3Credentials(keyID: keyID, secret: secret, sessionToken: section["aws_session_token"]))
            }
        }
        return .failure(StoreFailure("no credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, "
                                      + "or give profile '\(profile)' keys in \(file)"))
    }

    /// The region to sign for: `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's `region` in
    /// `~/.aws/config`, or us-east-1.
    public static func region(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let region = environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"], !region.isEmpty { return region }
        let profile = environment["AWS_PROFILE"] ?? "default"
        let file = environment["AWS_CONFIG_FILE"] ?? ((environment["HOME"] ?? NSHomeDirectory()) + "/.aws/config")
        // No config file is normal: the region then comes from the environment or the default.
        if let text = try? String(contentsOfFile: file, encoding: .utf8),
           let region = section(profile == "default" ? "default" : "profile " + profile, in: text)["region"] {
            return region
        }
        return "us-east-1"
    }

    /// The `key = value` lines of one `[name]` section of an INI file.
    package static func section(_ name: String, in text: String) -> [String: String] {
        var values: [String: String] = [:]
        var inside = false
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") || line.hasPrefix(";") || line.isEmpty { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                inside = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces) == name
                continue
            }
            guard inside, let equals = line.firstIndex(of: "=") else { continue }
            values[line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()] =
                line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        }
        return values
    }
}
