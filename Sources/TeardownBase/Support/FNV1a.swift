/// FNV-1a, 32 bits, of a string's UTF-8 bytes: a stable hash for filing by name that others
/// compute too (the deploy's shards of paths; the search page's script, for its words' files).
package enum FNV1a {
    package static func hash(_ text: String) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return hash
    }
}
