import Foundation
import Yams

/// A YAML mapping of fields, in the order they are added, written by Yams' emitter: it quotes
/// and escapes whatever a value needs to read back as the same text. Submissions' front
/// matter and sidecars, and a new site's settings, are written with it; quoting by hand had
/// written a NUL in an author's name as `"\x00"`, which a check of the file's bytes could not
/// see and the published page then held raw.
package struct YAMLFields {
    private var pairs: [(Node, Node)] = []
    package init() {}


    /// A text field; nothing is written for nil.
    package mutating func add(_ key: String, _ value: String?) {
        guard let value else { return }
        // Yams' own choice for a text: plain where a reader takes it back as text, quoted where
        // plain would read as something else ("true", "12", "" as null).
        pairs.append((Node(key), .scalar(value.represented())))
    }

    package mutating func add(_ key: String, _ value: Bool) {
        pairs.append((Node(key), Node(value ? "true" : "false", Tag(.bool))))
    }

    package mutating func add(_ key: String, _ value: Int) {
        pairs.append((Node(key), Node(String(value), Tag(.int))))
    }

    /// One `key: value` line per field, each ending in a line feed. Long values stay on one line.
    package var text: String {
        // Serialising text scalars under string keys cannot fail: Yams throws only for nodes
        // the emitter cannot represent, such as aliases to nothing.
        (try? Yams.serialize(node: .mapping(.init(pairs)), width: -1, allowUnicode: true)) ?? ""
    }

    /// The fields between `---` lines, as Markdown front matter.
    package var frontMatter: String { "---\n" + text + "---\n" }

    /// A Markdown file: the fields as front matter, then `body`, ending with a line feed.
    package func markdown(_ body: String) -> Data {
        let text = frontMatter + body
        return Data((text.hasSuffix("\n") ? text : text + "\n").utf8)
    }
}
