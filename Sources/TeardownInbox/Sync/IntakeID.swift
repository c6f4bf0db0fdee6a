import Foundation

/// Ids intake gives submissions: the time received and a random part, so they sort by age
/// and cannot be guessed.
public enum IntakeID {
    public static func make(now: Date = Date()) -> String {
        let random = (0..<12).map { _ in String("0123456789abcdef".randomElement()!) }.joined()
        return "\(stamp(now))-\(random)"
    }

    /// The time an id starts with, in UTC: `20261123-101500`.
    package static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02d-%02d%02d%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    /// A file named after an id of this shape.
    package static func isIntakeFile(_ name: String) -> Bool {
        let id = name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
        let parts = id.split(separator: "-")
        return parts.count == 3 && parts[0].count == 8 && parts[1].count == 6 && parts[2].count == 12
            && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || $0 == 0x2D }
    }
}
