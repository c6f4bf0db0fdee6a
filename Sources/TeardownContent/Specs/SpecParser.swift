import Foundation

/// Why a spec value that starts like a quantity could not be read as one.
public enum SpecValueProblem: Error, Sendable, Hashable {
    case empty
    case notANumber(String)
    case unknownUnit(String, hint: String?)
    /// The two units, or "" for an end written without one.
    case mixedUnits(String, String)
    case reversedRange
    /// "2 GB × 4 GB": only lengths multiply out into dimensions.
    case notDimensions(String)

    /// The sentence after "spec 'label' value '…': ".
    public var reason: String {
        switch self {
        case .empty: "the value is empty"
        case .notANumber(let text):
            text.contains(",") && !text.contains(".")
                ? "'\(text)' is not a number: write decimals with a point, as in 1.5"
                : "'\(text)' is not a number"
        case .unknownUnit(let unit, let hint):
            "unknown unit '\(unit)'" + (hint.map { ": \($0)" } ?? "; the manual lists the units Teardown reads")
        case .mixedUnits(let first, let second):
            "the value mixes \(Self.name(first)) and \(Self.name(second)); write every number in one unit"
        case .reversedRange: "the range starts above its end"
        case .notDimensions(let unit): "only lengths can be written as dimensions like 120 × 120 × 25 mm, not '\(unit)'"
        }
    }

    private static func name(_ unit: String) -> String { unit.isEmpty ? "a number without a unit" : "'\(unit)'" }
}

/// Reads a part's spec value, such as "4.7 GB", "5-50 °C", "120 × 120 × 25 mm" or "2 × 8 GiB".
///
/// A value that does not start with a number is text ("ATX mid tower"), and so is a number
/// followed by more words ("80 Plus Gold", "12 V DC"). A number followed by one unknown word of
/// four or more lower-case letters is a count ("4 cores"). Everything else that starts with a
/// number must read as a quantity, or it is a problem: most often a typo in the unit.
public enum SpecParser {
    public static func read(_ text: String) -> Result<SpecReading, SpecValueProblem> {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return .failure(.empty) }
        var scanner = Scanner(trimmed)
        let approximate = scanner.skip("~") || scanner.skip("≈")
        scanner.skipSpaces()
        guard scanner.atNumber else { return .success(.text) }

        var components: [(value: Double, unit: UnitToken?)] = []
        var joint: Joint?
        while true {
            guard let value = scanner.number() else { return .failure(.notANumber(scanner.numberText())) }
            let unit = scanner.unit()
            components.append((value, unit))
            let mark = scanner.position
            scanner.skipSpaces()
            if let next = scanner.joint(), joint == nil || (next == .times && joint == .times) {
                scanner.skipSpaces()
                if scanner.atNumber {
                    joint = next
                    continue
                }
            }
            scanner.position = mark
            break
        }
        scanner.skipSpaces()
        scanner.skipNote()
        let trailing = !scanner.atEnd

        if trailing { return .success(.text) }
        var read: [Component] = []
        for (index, component) in components.enumerated() {
            switch component.unit {
            case nil: read.append(Component(value: component.value, unit: nil, written: ""))
            case .known(let unit, let written): read.append(Component(value: component.value, unit: unit, written: written))
            case .unknown(let word) where index == components.count - 1 && isCountNoun(word):
                read.append(Component(value: component.value, unit: .count(word), written: word))
            case .unknown(let word): return .failure(.unknownUnit(word, hint: SpecUnit.hint(for: word)))
            }
        }
        return quantity(read, joint: joint, approximate: approximate)
    }

    /// Units are short or in the table; a longer lower-case word names what is counted ("4 cores").
    private static func isCountNoun(_ word: String) -> Bool {
        word.count >= 4 && word.allSatisfy { $0.isLetter && $0.isLowercase }
    }

    /// A number and its unit, with the unit as written for messages.
    private struct Component {
        package let value: Double
        package let unit: SpecUnit?
        package let written: String
    }

    private static func quantity(
        _ components: [Component], joint: Joint?, approximate: Bool
    ) -> Result<SpecReading, SpecValueProblem> {
        let unit = components.last?.unit
        let values = components.map(\.value)
        func reading(_ form: SpecQuantity.Form) -> Result<SpecReading, SpecValueProblem> {
            .success(.quantity(SpecQuantity(form: form, unit: unit, approximate: approximate)))
        }
        guard let joint else { return reading(.single(values[0])) }

        if joint == .times, let unit, unit.quantity != .length, components.count == 2, components[0].unit == nil {
            return reading(.times(values[0], values[1]))
        }
        for component in components.dropLast() where component.unit != nil && component.unit != unit {
            return .failure(.mixedUnits(component.written, components.last?.written ?? ""))
        }
        switch joint {
        case .range:
            if unit != nil, values[0] > values[1] { return .failure(.reversedRange) }
            return reading(.range(values[0], values[1]))
        case .times:
            if let unit, unit.quantity != .length { return .failure(.notDimensions(components.last?.written ?? unit.symbol)) }
            return reading(.dimensions(values))
        }
    }

    package enum Joint { case range, times }

    package enum UnitToken {
        case known(SpecUnit, written: String)
        case unknown(String)
    }

    /// A cursor over the value's characters.
    package struct Scanner {
        package let characters: [Character]
        package var position = 0

        package init(_ text: String) { characters = Array(text) }

        package var atEnd: Bool { position >= characters.count }

        package func peek(_ offset: Int = 0) -> Character? {
            position + offset < characters.count ? characters[position + offset] : nil
        }

        package mutating func skip(_ character: Character) -> Bool {
            guard peek() == character else { return false }
            position += 1
            return true
        }

        package mutating func skipSpaces() {
            while let next = peek(), next.isWhitespace { position += 1 }
        }

        package static let signs: Set<Character> = ["-", "+", "−"]

        /// A digit, a point before a digit, or either after a sign.
        package var atNumber: Bool {
            var offset = 0
            if let first = peek(), Self.signs.contains(first) { offset = 1 }
            if peek(offset)?.isASCIIDigit == true { return true }
            return peek(offset) == "." && peek(offset + 1)?.isASCIIDigit == true
        }

        /// The characters a number is made of: a sign, then digits with the points and commas
        /// between them. A comma or point not followed by a digit ends the number ("5, 10 W").
        private func numberEnd() -> Int {
            var end = position
            if let first = peek(), Self.signs.contains(first) { end += 1 }
            while end < characters.count {
                let character = characters[end]
                if character.isASCIIDigit {
                    end += 1
                } else if character == "." || character == ",",
                          end + 1 < characters.count, characters[end + 1].isASCIIDigit {
                    end += 1
                } else {
                    break
                }
            }
            return end
        }

        package func numberText() -> String { String(characters[position..<numberEnd()]) }

        /// The number here, or nil when its text is not a number ("1.2.3", "1,5").
        package mutating func number() -> Double? {
            let end = numberEnd()
            var text = String(characters[position..<end])
            if text.hasPrefix("−") { text = "-" + text.dropFirst() }
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return nil }
            let groups = parts[0].split(separator: ",", omittingEmptySubsequences: false)
            // Commas only group thousands: "1,200" is twelve hundred, "1,5" is a mistake.
            guard groups.dropFirst().allSatisfy({ $0.count == 3 }), parts.count == 1 || !parts[1].contains(",") else {
                return nil
            }
            guard let value = Double(text.replacingOccurrences(of: ",", with: "")), value.isFinite else { return nil }
            position = end
            return value
        }

        /// "x" or "×" before another number joins dimensions; "-", "–", "—" or "to" makes a range.
        package mutating func joint() -> Joint? {
            guard let next = peek() else { return nil }
            switch next {
            case "-", "–", "—":
                position += 1
                return .range
            case "x", "×", "X":
                position += 1
                return .times
            case "t" where peek(1) == "o" && peek(2).map({ !$0.isLetter }) ?? false:
                position += 2
                return .range
            default:
                return nil
            }
        }

        /// The unit written after a number, if any: a known symbol, or an unknown word.
        package mutating func unit() -> UnitToken? {
            let start = position
            skipSpaces()
            var lookahead = self
            if lookahead.joint() != nil {
                lookahead.skipSpaces()
                if lookahead.atNumber {
                    position = start
                    return nil
                }
            }
            for alias in SpecUnit.aliasesByLength where matches(alias) {
                position += alias.count
                return .known(SpecUnit.named(alias)!, written: alias)
            }
            guard let first = peek(), first.isLetter || first == "°" else {
                position = start
                return nil
            }
            let wordStart = position
            while let next = peek(), !next.isWhitespace, !"-–—(".contains(next) { position += 1 }
            return .unknown(String(characters[wordStart..<position]))
        }

        /// Whether `alias` is written here as a whole word.
        private func matches(_ alias: String) -> Bool {
            var offset = 0
            for character in alias {
                guard peek(offset) == character else { return false }
                offset += 1
            }
            guard let after = peek(offset) else { return true }
            return !(after.isLetter || after.isNumber)
        }

        /// A closing remark in parentheses: "120 mm (with the bracket)".
        package mutating func skipNote() {
            guard peek() == "(", characters.last == ")" else { return }
            position = characters.count
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
