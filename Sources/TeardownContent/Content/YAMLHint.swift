import Foundation
import Yams

/// What to do about the YAML syntax errors people make most in bundle files, said beside
/// libyaml's own words, which name the rule and not the fix ("mapping values are not allowed
/// in this context" for `summary: A toaster: two slots`). An unclosed bracket or quote is
/// reported at the line that opened it, where libyaml points at the line where it gave up.
package enum YAMLHint {
    /// The problem as reported, and where: a mark of libyaml's, or a line and column found here.
    package struct Explained {
        package let problem: String
        package let mark: Mark?
        package var position: (line: Int, column: Int)? = nil
    }

    /// `lineOffset`: the lines of the file before the YAML text (a comment's front matter).
    package static func explain(_ error: YamlError, in yaml: String, lineOffset: Int = 0) -> Explained {
        let problem = error.problemText
        if case .duplicatedKeysInMapping(let duplicates, let context) = error {
            return duplicate(duplicates, mapping: context.mark, in: yaml, lineOffset: lineOffset)
        }
        guard let (context, mark) = parts(of: error) else { return Explained(problem: problem, mark: nil) }
        if problem.contains("yaml_set_max_nest_level") {
            return Explained(problem: "lists and mappings are nested too deep here (more than 1,000 levels)", mark: mark)
        }
        let line = Self.line(mark.line, of: yaml)
        if line.contains("\t") && (problem.contains("cannot start any token") || problem.contains("tab")) {
            return Explained(problem: problem + " (YAML indents with spaces: this line has a tab)", mark: mark)
        }
        if problem.contains("mapping values are not allowed"), let quoted = quoted(line) {
            return Explained(problem: problem + " (a value with \": \" in it must be in quotes: \(quoted))", mark: mark)
        }
        if let hint = indentation(problem, at: mark.line, of: yaml) {
            return Explained(problem: problem + " (" + hint + ")", mark: mark)
        }
        if let context, problem.hasPrefix("did not find expected ',' or") {
            let bracket = context.text.contains("sequence") ? "[" : "{"
            return Explained(problem: "the '\(bracket)' here is never closed (\(problem), line \(mark.line + lineOffset))", mark: context.mark)
        }
        if let context, context.text.contains("quoted scalar") {
            return Explained(problem: "the quote here is never closed (\(problem))", mark: context.mark)
        }
        return Explained(problem: problem, mark: mark)
    }

    private static func parts(of error: YamlError) -> (YamlError.Context?, Mark)? {
        switch error {
        case .scanner(let context, _, let mark, _), .parser(let context, _, let mark, _): (context, mark)
        default: nil
        }
    }

    /// A key given twice in one mapping, reported where it is given again. Yams names the keys
    /// and the mapping's start: the second key is found among the mapping's lines, those
    /// indented as its first key, up to the first line indented less.
    private static func duplicate(_ keys: [String], mapping: Mark, in yaml: String, lineOffset: Int) -> Explained {
        let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
        let indent = mapping.column - 1
        for key in keys.sorted() {
            let forms = [key + ":", "\"" + key + "\":", "'" + key + "':"]
            var first: Int?
            for number in stride(from: mapping.line, through: lines.count, by: 1) {
                let line = lines[number - 1]
                let leading = line.prefix { $0 == " " }.count
                let rest = line.dropFirst(leading)
                if rest.isEmpty || rest.hasPrefix("#") { continue }
                if leading < indent { break }
                guard leading == indent, forms.contains(where: { rest.hasPrefix($0) }) else { continue }
                if let first {
                    return Explained(problem: "the key '\(key)' is given twice: first on line \(first + lineOffset), again here",
                                     mark: nil, position: (number, indent + 1))
                }
                first = number
            }
        }
        let named = keys.sorted().map { "'\($0)'" }.joined(separator: ", ")
        return Explained(problem: "a key is given twice in this mapping: \(named)", mark: mapping)
    }

    /// What an indentation slip looks like from libyaml's side: a line indented less than
    /// the keys of the mapping it is in ("did not find expected key"), or more than a key
    /// whose value is already given ("mapping values are not allowed"). Said in spaces.
    private static func indentation(_ problem: String, at number: Int, of text: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard number >= 2, number <= lines.count else { return nil }
        func indent(_ line: Substring) -> Int { line.prefix { $0 == " " }.count }
        let here = lines[number - 1]
        guard let above = lines[..<(number - 1)].last(where: {
            let rest = $0.drop { $0 == " " }
            return !rest.isEmpty && !rest.hasPrefix("#")
        }) else { return nil }
        let spaces = { (count: Int) in count == 1 ? "1 space" : "\(count) spaces" }
        if problem.hasPrefix("did not find expected key"), indent(here) < indent(above) {
            return "this line is indented \(spaces(indent(here))) and the line above \(spaces(indent(above))): "
                + "keys of one mapping line up"
        }
        // After a quoted value libyaml expects a key, and says so rather than what is wrong.
        if problem.hasPrefix("mapping values are not allowed") || problem.hasPrefix("did not find expected key"),
           indent(here) > indent(above),
           let colon = above.range(of: ": "), !above[colon.upperBound...].trimmingCharacters(in: .whitespaces).isEmpty {
            let fix = indent(above) == 0 ? "start it at the beginning of the line" : "indent it \(spaces(indent(above)))"
            return "this line is indented \(spaces(indent(here))), more than the key above it, whose value is already "
                + "given: \(fix) to make it a key beside that one"
        }
        return nil
    }

    /// Line `number` (from 1) of `text`.
    private static func line(_ number: Int, of text: String) -> Substring {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return number >= 1 && number <= lines.count ? lines[number - 1] : ""
    }

    /// `key: "value"` for a line `key: value` whose value holds ": ", or nil.
    private static func quoted(_ line: Substring) -> String? {
        guard let colon = line.range(of: ": ") else { return nil }
        let key = line[..<colon.lowerBound], value = line[colon.upperBound...].trimmingCharacters(in: .whitespaces)
        guard value.contains(": "), !value.hasPrefix("\""), !value.hasPrefix("'") else { return nil }
        let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\(key): \"\(escaped)\""
    }
}
