import Foundation
import TeardownBase
import TeardownContent

/// What community text may hold, checked the same way by sync and intake: no control
/// characters, something a reader can see, and limits in bytes as well as in characters.
///
/// Limits count characters (grapheme clusters), which a sender can stuff: one "character" can
/// carry thousands of combining marks, so a 10-character name could be 12 KB. Bytes are capped
/// at four per allowed character, and a character at `maxScalarsPerCharacter` scalars.
package enum CommunityText {
    /// Enough for any letter with its accents, or an emoji sequence (a family is 7 scalars).
    package static let maxScalarsPerCharacter = 10
    /// Captions, credits and licenses, in characters.
    package static let maxCaption = 300
    package static let maxCredit = 200
    /// How far ahead of now a date may be: a time zone's worth. A date in the far future pinned
    /// a comment on top of its discussion and the feeds for ever.
    package static let maxAhead: TimeInterval = 36 * 3600

    /// Why `text` (a field named `what`) cannot be published, or nil. `multiline` allows line
    /// breaks and tabs (a comment's body); a name or caption takes neither.
    package static func problem(_ text: String, what: String, maxCharacters: Int, multiline: Bool) -> String? {
        if let control = text.unicodeScalars.first(where: { isForbidden($0, multiline: multiline) }) {
            let kind = control.properties.generalCategory == .control || ControlCharacters.isReordering(control)
                ? "control character" : "line break"
            return "\(what) contains the \(kind) U+\(String(format: "%04X", control.value))"
        }
        guard text.utf8.count <= maxCharacters * 4 else {
            return "\(what) is \(text.utf8.count) bytes long; the limit is \(maxCharacters * 4)"
        }
        if text.contains(where: { $0.unicodeScalars.count > maxScalarsPerCharacter }) {
            return "\(what) has a character made of more than \(maxScalarsPerCharacter) code points"
        }
        guard text.unicodeScalars.contains(where: isVisible) else { return "\(what) has nothing visible in it" }
        if !multiline, let hidden = hiddenFormatCharacter(in: text) {
            return "\(what) contains the invisible character U+\(String(format: "%04X", hidden.value))"
        }
        return nil
    }

    /// A format character (Unicode Cf) that would hide in a name or caption: "A\u{200B}da"
    /// reads as "Ada". The joiners scripts and emoji need are kept: ZWNJ and ZWJ between
    /// letters beyond Latin (Persian, the Indic scripts) or inside an emoji sequence.
    private static func hiddenFormatCharacter(in text: String) -> Unicode.Scalar? {
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() where scalar.properties.generalCategory == .format {
            if ControlCharacters.isReordering(scalar) { continue }
            if scalar == "\u{200C}" || scalar == "\u{200D}" {
                let neighbours = [index > 0 ? scalars[index - 1] : nil, index + 1 < scalars.count ? scalars[index + 1] : nil]
                if neighbours.allSatisfy({ $0.map(isJoinable) ?? false }) { continue }
            }
            return scalar
        }
        return nil
    }

    /// What a joiner may stand between: a letter or mark of a script beyond Latin, or an emoji.
    private static func isJoinable(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isEmoji && scalar.value > 0xFF { return true }
        guard scalar.value > 0x24F else { return false }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .nonspacingMark, .spacingMark:
            return true
        default:
            return scalar == "\u{FE0F}"
        }
    }

    /// A date no further ahead than `maxAhead`.
    package static func dateProblem(_ date: ISODate, now: Date = Date()) -> String? {
        date.date.timeIntervalSince(now) > maxAhead ? "the date \(date.text) is in the future" : nil
    }

    /// Line breaks and tabs only where text has lines; no other control, and no embedding,
    /// override or isolate (the direction marks, which only hint, may stay).
    private static func isForbidden(_ scalar: Unicode.Scalar, multiline: Bool) -> Bool {
        if scalar == "\n" || scalar == "\t" || scalar == "\r" { return !multiline }
        // The line and paragraph separators: YAML folds them to a space in a name.
        if scalar == "\u{2028}" || scalar == "\u{2029}" { return !multiline }
        return ControlCharacters.isControl(scalar)
            || (ControlCharacters.isReordering(scalar) && !["\u{200E}", "\u{200F}", "\u{061C}"].contains(scalar))
    }

    /// Whether a scalar shows as something: not a space, a format character (ZWJ, ZWNJ, WJ),
    /// a combining mark on its own, or a Hangul filler.
    private static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800: return false
        default: break
        }
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format, .nonspacingMark, .enclosingMark,
             .spacingMark, .unassigned, .surrogate, .privateUse:
            return false
        default:
            return !scalar.properties.isWhitespace && !scalar.properties.isDefaultIgnorableCodePoint
        }
    }
}
