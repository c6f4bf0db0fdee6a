/// The characters that act on text rather than show in it: what community text may not hold
/// (`CommunityText`) and what the command line shows as escapes rather than sends to a terminal.
public enum ControlCharacters {
    /// C0 and C1 controls and DEL: line breaks, tabs, escape sequences, NUL.
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Bidirectional embeddings, overrides, isolates and marks: they reorder the text around them.
    public static func isReordering(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true
        default: false
        }
    }
}
