import CTeardownSystem

/// The C allocator, for a process that stays up. (Its arenas are capped at one a core when the
/// process starts, by CTeardownSystem: see `td_limit_arenas`.)
package enum Allocator {
    /// Returns the allocator's free pages to the system: glibc keeps what a round freed in its
    /// arenas, and a process up for weeks would hold its largest round's pages.
    package static func giveBack() {
        td_give_back_memory()
    }

    /// For a process that stays up: blocks of 256 KB and more (a round's snapshot, plan and
    /// manifests) get pages of their own, returned to the system when freed. glibc's default
    /// raises that threshold to the largest block a process freed, so later rounds put their
    /// large blocks among the small ones that outlive them, and the freed pages cannot go back.
    /// A one-shot command is better off without: it exits before that matters, and the page
    /// faults slow its plan step (Benchmarks/README.md, "The resident publisher").
    package static func mapLargeBlocks() {
        td_map_large_blocks(256 * 1024)
    }
}
