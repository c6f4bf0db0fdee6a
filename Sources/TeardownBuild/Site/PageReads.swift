import TeardownBase

/// What the pages this build rendered read, by output path: each page's units by number, in
/// the order of their keys, with every key made once however many pages read it.
///
/// A page's reads held as their keys' text cost a string a page, and a key made for each page
/// that read it cost a string a read: for a build that renders every page, those strings and
/// the readers of each unit the store works out from them were the largest things it held.
/// The store keeps the text (`BuildStore.Publish`); it is made from the numbers as it is written.
package final class PageReads: Sendable {
    private struct Table {
        var numbers: [InputUnit: UInt32] = [:]
        var byKey: [String: UInt32] = [:]
        var keys: [String] = []
        var pages: [String: [UInt32]] = [:]
    }

    private let table = Locked(Table())

    package init() {}

    /// Records what the page at `path` read. Called from every core: a unit seen before costs a
    /// lookup, and a new one is named (`naming`) outside the lock.
    package func record(_ path: String, _ units: Set<InputUnit>, naming: (InputUnit) -> String) {
        var found: [(key: String, number: UInt32)] = []
        found.reserveCapacity(units.count)
        let unknown = table.withLock { table -> [InputUnit] in
            var unknown: [InputUnit] = []
            for unit in units {
                if let number = table.numbers[unit] { found.append((table.keys[Int(number)], number)) } else { unknown.append(unit) }
            }
            return unknown
        }
        if !unknown.isEmpty {
            let named = unknown.map { ($0, naming($0)) }
            table.withLock { table in
                for (unit, key) in named {
                    let number = table.numbers[unit] ?? table.byKey[key] ?? {
                        table.keys.append(key)
                        return UInt32(table.keys.count - 1)
                    }()
                    table.numbers[unit] = number
                    table.byKey[key] = number
                    found.append((key, number))
                }
            }
        }
        // Sorted by key as the store keeps them; two units of one key (none is expected) are one read.
        found.sort { $0.key < $1.key }
        var numbers: [UInt32] = []
        numbers.reserveCapacity(found.count)
        for (index, read) in found.enumerated() where index == 0 || found[index - 1].key != read.key { numbers.append(read.number) }
        table.withLock { $0.pages[path] = numbers }
    }

    /// The pages recorded, each with its reads by number.
    package var pages: [String: [UInt32]] { table.withLock { $0.pages } }

    /// The keys by number, and each key's number.
    package var keys: (byNumber: [String], numbers: [String: UInt32]) { table.withLock { ($0.keys, $0.byKey) } }

    /// A page's reads as the store keeps them: the keys, sorted, one a line.
    package static func text(_ numbers: [UInt32], keys: [String]) -> String {
        numbers.map { keys[Int($0)] }.joined(separator: "\n")
    }
}
