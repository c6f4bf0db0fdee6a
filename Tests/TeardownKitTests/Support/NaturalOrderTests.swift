import Testing
@testable import TeardownBase

@Suite("Names in a reader's order")
struct NaturalOrderTests {
    @Test("Numbers by value, letters without case or accents, the same name always in one place")
    func readerOrder() {
        let names = ["Gear 10", "gear 2", "Écrou", "Axle", "Gear 1b", "Gear 002", "ecrou 9", "Z", "Gear", "Gear 1"]
        let sorted = names.sorted { NaturalOrder($0) < NaturalOrder($1) }
        #expect(sorted == ["Axle", "Écrou", "ecrou 9", "Gear", "Gear 1", "Gear 1b", "Gear 002", "gear 2", "Gear 10", "Z"])
        #expect(names.shuffled().sorted { NaturalOrder($0) < NaturalOrder($1) } == sorted)
    }

    @Test("A total order, for random names of letters, digits and spaces")
    func totalOrder() {
        let pieces = ["a", "B", "é", "0", "1", "09", "10", " ", "-", "x2"]
        let names = (0..<300).map { _ in (0..<Int.random(in: 0...4)).map { _ in pieces.randomElement()! }.joined() }
        for a in names.prefix(60) {
            for b in names.prefix(60) {
                let (x, y) = (NaturalOrder(a), NaturalOrder(b))
                // Exactly one of <, >, = holds.
                #expect([x < y, y < x, x == y].filter { $0 }.count == 1, "\(a) against \(b)")
            }
        }
    }
}
