import CTeardownSystem
import Foundation

/// The C allocator, for a process that stays up.
package enum Allocator {
    /// Returns the allocator's free pages to the system. glibc keeps freed memory in its arenas
    /// (one per thread that allocated), so after a large round a resident process kept its peak:
    /// 155 MB at rest after 1,000 posts at 10,000 parts, against what it holds between rounds.
    package static func giveBack() {
        td_give_back_memory()
    }

    /// Caps the arenas at one per core, for a process that stays up: glibc's default (eight per
    /// core) let each worker thread of a large round keep an arena of its own. At 10,000 parts,
    /// `sync --follow` held 74 MB at rest after its first round with the default, 30 MB with two;
    /// a round took as long. Call it before the threads it should govern start.
    package static func oneArenaPerCore() {
        td_limit_arenas(Int32(max(1, ProcessInfo.processInfo.activeProcessorCount)))
    }
}
