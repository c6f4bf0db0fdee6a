import Foundation

/// A date from content, parsed from ISO 8601 ("2024-05-01", "2024-05-01T14:30:00Z",
/// "2024-05-01 14:30+02:00"). Kept with its text so pages can show what the author wrote.
public struct ISODate: Hashable, Sendable, Comparable {
    public let date: Date
    public let text: String
    /// Whether a time of day was given.
    public let hasTime: Bool

    public init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let scalars = Array(trimmed.unicodeScalars)
        var index = 0
        func number(_ digits: Int) -> Int? {
            guard index + digits <= scalars.count else { return nil }
            var value = 0
            for scalar in scalars[index..<index + digits] {
                guard ("0"..."9").contains(scalar) else { return nil }
                value = value * 10 + Int(scalar.value - 48)
            }
            index += digits
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard index < scalars.count, Character(scalars[index]) == character else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        guard day <= Self.days(inMonth: month, of: year) else { return nil }
        var seconds = 0
        var offset = 0
        var hasTime = false
        if index < scalars.count {
            guard expect("T") || expect("t") || expect(" "), let hour = number(2), expect(":"), let minute = number(2),
                  hour < 24, minute < 60
            else { return nil }
            hasTime = true
            seconds = hour * 3600 + minute * 60
            if expect(":") {
                guard let second = number(2), second < 61 else { return nil }
                seconds += second
                if expect(".") { while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 } }
            }
            if expect("Z") || expect("z") {
            } else if index < scalars.count {
                let sign: Int
                if expect("+") { sign = 1 } else if expect("-") { sign = -1 } else { return nil }
                guard let hours = number(2) else { return nil }
                _ = expect(":")
                guard let minutes = number(2) else { return nil }
                offset = sign * (hours * 3600 + minutes * 60)
            }
            guard index == scalars.count else { return nil }
        }
        // Worked out here rather than by a Calendar: heads decoded from the content cache parse
        // every recent comment's date, and a Calendar showed in the review's profile.
        let since1970 = Self.daysSince1970(year: year, month: month, day: day) * 86_400 + seconds - offset
        self.date = Date(timeIntervalSince1970: TimeInterval(since1970))
        self.text = trimmed
        self.hasTime = hasTime
    }

    /// Days in `month` (1-12) of `year` in the proleptic Gregorian calendar.
    package static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a Gregorian date: whole 400-year eras (146,097 days each), then
    /// the years and days into the era, counted from March so that a leap day ends a year.
    package static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// "2024-05-01", the form shown on pages.
    public var day: String { String(text.prefix(10)) }

    public static func < (lhs: ISODate, rhs: ISODate) -> Bool { lhs.date < rhs.date }

    /// "2024-05-01T14:30:00Z": the form Atom, sitemaps and catalog.json use, always in UTC.
    public var rfc3339: String { Self.rfc3339(date) }

    private static let style = Date.ISO8601FormatStyle(timeZone: .gmt)

    package static func rfc3339(_ date: Date) -> String {
        // Whole seconds, dropped rather than rounded, as the format shows no fraction.
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)).formatted(style)
    }
}
