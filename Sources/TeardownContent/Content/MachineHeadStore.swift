import Foundation
import TeardownBase

/// A machine's head, held as a value or as the content cache's bytes, decoded on first use and
/// kept. A build takes an unchanged machine's pages as the store recorded them, so most heads
/// are never read: decoding every machine's head was most of a one-comment sync's review and
/// load, and grew with the catalog (Benchmarks/README.md).
///
/// Bytes that do not decode, or that name a file outside the bundle (a forged cache, see
/// `MachineHead.lies(within:)`), are read again from the bundle's files (`reload`), so a
/// damaged entry costs time, never a wrong page.
package final class MachineHeadStore: @unchecked Sendable {
    private struct Stored {
        let read: @Sendable () -> [UInt8]?
        let slug: String
        let folder: SourceFile
        let counters: BuildCounters
        let reload: @Sendable () -> MachineHead?
    }

    private enum State {
        case value(MachineHead)
        case stored(Stored)
        /// Read again from the bundle's files: its stored bytes were damaged.
        case reloaded(MachineHead)
    }

    private let state: Locked<State>
    /// What is known of the machine without its head.
    package let brief: MachineBrief

    package init(_ head: MachineHead) {
        state = Locked(.value(head))
        brief = MachineBrief(head)
    }

    /// Bytes `BinaryEncoder` wrote of the head of machine `slug`, whose files lie in `folder`,
    /// read by `read` when first needed (nil when they are no longer those of the entry the
    /// machine was found by: another build rewrote it since).
    package init(read: @escaping @Sendable () -> [UInt8]?, slug: String, folder: SourceFile, brief: MachineBrief,
                 counters: BuildCounters, reload: @escaping @Sendable () -> MachineHead?) {
        state = Locked(.stored(Stored(read: read, slug: slug, folder: folder, counters: counters, reload: reload)))
        self.brief = brief
    }

    package var value: MachineHead {
        state.withLock { state in
            switch state {
            case .value(let head), .reloaded(let head): return head
            case .stored(let stored):
                stored.counters.count(.headsDecoded)
                // Bytes that do not decode are damage, as a head naming files elsewhere is: the bundle is read again.
                let head = stored.read().flatMap { try? BinaryDecoder().read(MachineHead.self, from: $0) }
                if let head, head.lies(within: stored.folder.absolutePath), head.slug == stored.slug {
                    state = .value(head)
                    return head
                }
                // A bundle that no longer loads (removed since the walk) shows as a machine with nothing in it.
                let value = stored.reload() ?? MachineHead.empty(slug: stored.slug, folder: stored.folder)
                state = .reloaded(value)
                return value
            }
        }
    }

    /// Whether the head's stored bytes were found damaged, and the bundle read again.
    package var wasReloaded: Bool {
        state.withLock { state in
            if case .reloaded = state { return true }
            return false
        }
    }
}

extension MachineHead {
    /// A machine with nothing but its name, for a bundle that could not be read again.
    static func empty(slug: String, folder: SourceFile) -> MachineHead {
        MachineHead(slug: slug, folder: folder, source: ContentDigest(high: 0, low: 0), name: slug, summary: "",
                    canvas: PixelSize(width: 1, height: 1), tags: [], designer: nil, license: nil, updated: nil, cover: nil,
                    parts: [], photos: [], commentCount: 0, textDigest: ContentDigest(high: 0, low: 0),
                    descriptionDigest: ContentDigest(high: 0, low: 0), recent: RecentComments([]), commentIDs: "\n",
                    manual: .empty(folder.appending("manual")),
                    listing: listingDigest(slug: slug, name: slug, tags: [], parts: []))
    }
}
