import Foundation
import TeardownBase

/// Prints diagnostics as `path:line:col: severity: message`, paths relative to where the
/// command was run, so editors and terminals can jump to them; the severity is coloured on a
/// terminal.
enum DiagnosticPrinter {
    static func print(_ diagnostics: [Diagnostic], site: String) {
        let prefix = site == "." ? "" : (site.hasSuffix("/") ? site : site + "/")
        for diagnostic in diagnostics {
            let path = diagnostic.location.path.hasPrefix("/") ? diagnostic.location.path : prefix + diagnostic.location.path
            let severity = Terminal.paint(diagnostic.severity.rawValue + ":", diagnostic.severity == .error ? .red : .yellow,
                                          on: .error)
            // Paths and messages quote content, which may hold escape sequences.
            Terminal.write(Terminal.safe("\(path):\(diagnostic.location.line):\(diagnostic.location.column):") + " " + severity + " "
                           + Terminal.safe(diagnostic.problem.message) + "\n", to: .error)
        }
    }

    static func summary(_ diagnostics: [Diagnostic]) -> String {
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.count - errors
        return "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
    }
}
