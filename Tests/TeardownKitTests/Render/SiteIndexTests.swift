import Foundation
import Testing
@testable import TeardownContent
@testable import TeardownBuild

@Suite("The site index")
struct SiteIndexTests {
    @Test("Parts are filed under their first letter without accents or case, others under #; tags differing in case share one")
    func filing() throws {
        let root = Fixtures.copy(Fixtures.site("minimal"))
        let machines = root + "/content/machines/"
        let parts: [(String, String)] = [("écrou", "[Power, power]"), ("Axle", "[power, motion]"), ("arm", "[motion]"),
                                         ("2-way valve", "[]"), ("Zip", "[motion, motion]"), ("Émail", "[]")]
        for (number, (name, tags)) in parts.enumerated() {
            try Fixtures.write("name: \"\(name)\"\ntags: \(tags)\nlayer:\n  image: lid.svg\n  z: \(number + 2)\n",
                               to: "content/machines/box/parts/p\(number)/part.yaml", in: root)
            try FileManager.default.copyItem(atPath: machines + "box/parts/lid/lid.svg", toPath: machines + "box/parts/p\(number)/lid.svg")
        }
        let content = ContentLoader(siteRoot: root).load().content
        let index = SiteIndex(content)
        let outline = content.machines[0].outlines
        func names(_ list: StoredList<SiteIndex.PartAddress>) -> [String] { list.map { outline[$0.part].name } }
        #expect(index.letters.map(\.key) == ["a", "e", "l", "z", "other"])
        #expect(names(index.letters[0].parts) == ["arm", "Axle"])
        #expect(names(index.letters[1].parts) == ["écrou", "Émail"])
        #expect(index.letters[4].label == "#" && names(index.letters[4].parts) == ["2-way valve"])
        let motion = try #require(index.tags.first { $0.slug == "motion" })
        let power = try #require(index.tags.first { $0.slug == "power" })
        #expect(power.names == ["Power", "power"])
        #expect(names(motion.parts) == ["arm", "Axle", "Zip"], "a name given twice files the part once")
        #expect(names(power.parts) == ["Axle", "écrou"], "two names of one tag file the part once")
    }
}
