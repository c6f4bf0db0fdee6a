import Testing
import Yams
@testable import TeardownBase

@Suite("YAML fields written by Yams")
struct YAMLFieldsTests {
    @Test("Every text reads back as the same text, whatever YAML would make of it written plain")
    func roundTrip() throws {
        let texts = ["Ada", "", " ", "true", "no", "~", "null", "12", "0x1F", "1e3", "2024-05-01", "2026-11-23T17:03:22Z",
                     "a: b", "#hash", "- dash", "'single'", "\"double\"", "back\\slash", "line\nbreak", "tab\there",
                     "{flow}", "[list]", "&anchor", "*alias", "!tag", "%directive", "@at", "`tick`", "é ü 漢字 🙂",
                     "trailing ", " leading", "---", "...", "|", ">", "x # not a comment"]
        for text in texts {
            var fields = YAMLFields()
            fields.add("author", text)
            fields.add("location", true)
            let loaded = try #require(try Yams.load(yaml: fields.text) as? [String: Any], "\(fields.text)")
            #expect(loaded["author"] as? String == text, "\(text.debugDescription) was written as \(fields.text.debugDescription)")
            #expect(loaded["location"] as? Bool == true)
        }
    }

    @Test("Front matter keeps the order the fields were added in")
    func order() {
        var fields = YAMLFields()
        fields.add("id", "x")
        fields.add("author", "Ada")
        fields.add("caption", nil)
        fields.add("date", "2024-05-01")
        #expect(fields.frontMatter == "---\nid: x\nauthor: Ada\ndate: '2024-05-01'\n---\n")
    }
}
