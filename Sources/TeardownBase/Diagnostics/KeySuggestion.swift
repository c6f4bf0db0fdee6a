import Foundation

/// The key a mistyped setting (or command) most likely meant, for an unknown key's warning.
public enum KeySuggestion {
    /// The known key a mistyped one most likely meant: the same but for case or '-' for '_',
    /// or within a few edits of it (a third of its length); nil when none is close.
    public static func closest(to key: String, in known: [String]) -> String? {
        let folded = key.lowercased().replacingOccurrences(of: "-", with: "_")
        if let same = known.first(where: { $0 == folded }) { return same }
        let limit = max(1, key.count / 3)
        return known.map { ($0, editDistance(folded, $0)) }.filter { $0.1 <= limit }.min { ($0.1, $0.0) < ($1.1, $1.0) }?.0
    }

    /// Edits between two keys, a letter inserted, dropped, changed or two neighbours swapped
    /// counting one each (optimal string alignment): "biuld" and "lyaer" are one swap from
    /// "build" and "layer", where counting a swap as two changes found nothing. Keys are a few
    /// characters long, so the plain table of three rows is enough.
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var beforePrevious: [Int] = []
        var previous = Array(0...b.count)
        for (i, left) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, right) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
                if i > 0, j > 0, left == b[j - 1], a[i - 1] == right, left != right {
                    current[j + 1] = min(current[j + 1], beforePrevious[j - 1] + 1)
                }
            }
            beforePrevious = previous
            previous = current
        }
        return previous[b.count]
    }
}
