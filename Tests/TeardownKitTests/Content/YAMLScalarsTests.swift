import Testing
import Yams
@testable import TeardownBase
@testable import TeardownContent

@Suite("YAML numbers and truth values")
struct YAMLScalarsTests {
    /// The bundle format's YAML reads numbers and truth values as Yams' default resolver does,
    /// without its regular expressions: each sample is read both ways.
    @Test("Plain scalars are whole numbers, truth values or text as Yams' resolver says")
    func sameAsYams() throws {
        let samples = ["0", "7", "-7", "+7", "640", "1_000", "0b101", "-0b1_0", "0x1F", "0xff_ff", "0o17", "017", "0_7", "09",
                       "1:30", "190:20:30", "1:60", "1:5", ":30", "0:30", "+", "", "_1", "1_", "1.5", "1e3", "12 V",
                       "true", "True", "TRUE", "tRue", "yes", "No", "OFF", "on", "y", "n", "null", "~", "ten", "0x", "0b", "0o"]
        let resolver = Resolver.basic.appending(.bool).appending(.int).appending(.null)
        for sample in samples {
            let resolved = try #require(try Yams.compose(yaml: "value: \(sample)\n", resolver, .default, .utf8))
            let plain = try #require(try Yams.compose(yaml: "value: \(sample)\n", .basic, .default, .utf8))
            let (yams, ours) = (resolved.mapping?["value"], plain.mapping?["value"])
            #expect(try #require(ours).int == yams?.int, "'\(sample)' as a whole number")
            #expect(YAMLScalars.bool(try #require(ours)) == yams?.bool, "'\(sample)' as a truth value")
        }
        let quoted = try #require(try Yams.compose(yaml: "value: \"true\"\n", .basic, .default, .utf8)?.mapping?["value"])
        #expect(YAMLScalars.bool(quoted) == nil, "quoted, it is text")
    }
}
