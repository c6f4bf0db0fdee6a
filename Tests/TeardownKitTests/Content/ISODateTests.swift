import Foundation
import Testing
@testable import TeardownContent

@Suite("Content dates")
struct ISODateTests {
    @Test("Dates and times land on the instant Foundation's Gregorian calendar gives, across eras and leap years")
    func sameAsCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let year = Int.random(in: 1583...2600, using: &generator)
            let month = Int.random(in: 1...12, using: &generator)
            let day = Int.random(in: 1...ISODate.days(inMonth: month, of: year), using: &generator)
            let hour = Int.random(in: 0...23, using: &generator), minute = Int.random(in: 0...59, using: &generator)
            let offset = Int.random(in: -12...14, using: &generator)
            let text = String(format: "%04d-%02d-%02dT%02d:%02d:07%@%02d:30", year, month, day, hour, minute,
                              offset < 0 ? "-" : "+", abs(offset))
            let parsed = try #require(ISODate(text), "\(text)")
            let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: 7)
            let expected = try #require(calendar.date(from: components))
                .addingTimeInterval(-TimeInterval((offset < 0 ? -1 : 1) * (abs(offset) * 3600 + 1800)))
            #expect(parsed.date == expected, "\(text)")
        }
        #expect(ISODate("1970-01-01")?.date == Date(timeIntervalSince1970: 0))
        #expect(ISODate("2000-02-29")?.day == "2000-02-29")
    }

    @Test("Days a month does not have are not dates")
    func impossibleDays() {
        for text in ["2023-02-29", "1900-02-29", "2024-04-31", "2024-06-31", "2024-13-01", "2024-00-10", "2024-01-32"] {
            #expect(ISODate(text) == nil, "\(text)")
        }
        #expect(ISODate("2024-02-29") != nil)
    }
}
