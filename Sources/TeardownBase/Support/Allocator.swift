import CTeardownSystem

/// The C allocator, for a process that stays up. (Its arenas are capped at one a core when the
/// process starts, by CTeardownSystem: see `td_limit_arenas`.)
package enum Allocator {
    /// Returns the allocator's free pages to the system: glibc keeps what a round freed in its
    /// arenas, and a process up for weeks would hold its largest round's pages.
    package static func giveBack() {
        td_give_back_memory()
    }
}
