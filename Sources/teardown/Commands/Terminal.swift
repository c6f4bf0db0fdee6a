import Foundation
import TeardownBase

/// What the commands print, made safe and, on a terminal, coloured.
///
/// Colour goes only to a stream that is a terminal, and never when NO_COLOR is set to
/// anything (no-color.org) or TERM is "dumb": piped output and logs stay plain.
///
/// Content is untrusted: a file name, a submission id or a comment can hold escape sequences
/// that would move the cursor, retitle the window or hide text. `safe` shows every control
/// character (and the bidirectional overrides that reorder a line) as a visible escape.
enum Terminal {
    enum Stream {
        case output, error

        var descriptor: Int32 { self == .output ? STDOUT_FILENO : STDERR_FILENO }
    }

    enum Colour: String {
        case red = "31", yellow = "33", green = "32", cyan = "36", bold = "1"
    }

    static func colours(_ stream: Stream) -> Bool {
        let environment = ProcessInfo.processInfo.environment
        if let noColour = environment["NO_COLOR"], !noColour.isEmpty { return false }
        return environment["TERM"] != "dumb" && isatty(stream.descriptor) != 0
    }

    /// `text` in `colour` when `stream` shows colours.
    static func paint(_ text: String, _ colour: Colour, on stream: Stream) -> String {
        colours(stream) ? "\u{1B}[\(colour.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// The text with each control character, save tab and line feed, written as `\u{XX}`.
    static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Tab and line feed lay text out; every other control character, and the bidirectional
    /// controls (`ControlCharacters`), are shown rather than obeyed.
    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        scalar != "\t" && scalar != "\n" && (ControlCharacters.isControl(scalar) || ControlCharacters.isReordering(scalar))
    }

    /// "error: message" on standard error, `error:` in red on a terminal.
    static func error(_ message: String) {
        write(paint("error:", .red, on: .error) + " " + safe(message) + "\n", to: .error)
    }

    /// "warning: message" on standard error, `warning:` in yellow on a terminal.
    static func warning(_ message: String) {
        write(paint("warning:", .yellow, on: .error) + " " + safe(message) + "\n", to: .error)
    }

    /// A line of a server's log on standard output, written at once and made safe: it quotes
    /// paths and what senders wrote.
    static func log(_ line: String) {
        write(safe(line) + "\n", to: .output)
    }

    /// A line on standard error, made safe.
    static func report(_ line: String) {
        write(safe(line) + "\n", to: .error)
    }

    static func write(_ text: String, to stream: Stream) {
        (stream == .output ? FileHandle.standardOutput : FileHandle.standardError).write(Data(text.utf8))
    }
}
