/// How long community text is, as limits count it.
package enum TextLength {
    /// Characters (grapheme clusters) between the first and last that are not white space.
    /// Counted in place: trimming through Foundation copied every comment of a build through
    /// NSString, which showed in build profiles.
    package static func trimmedCharacters(_ text: some StringProtocol) -> Int {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
              let last = text.lastIndex(where: { !$0.isWhitespace })
        else { return 0 }
        return text.distance(from: first, to: last) + 1
    }
}
