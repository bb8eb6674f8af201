import Testing
import StageMixJSON

/// The one JSON walker and problem type that captures, layouts, tables and edit files share, in both
/// its wordings.
@Suite("JSON walker")
struct JSONWalkerTests {
    static func parse(_ text: String) throws -> JSONValue { try JSONTextParser.parse(Array(text.utf8)) }

    @Test func eachWordingNamesTheSameProblemsAtTheSamePaths() throws {
        let root = try Self.parse(#"{"a": 1, "a": 2, "odd name": "x"}"#)
        for (wording, expected) in [
            (JSONWalker.Wording.expectedFound, [
                #"f.json: $.a: expected each member name once, found "a" more than once"#,
                #"f.json: $['odd name']: expected one of the members "a", "b", found an unknown member "odd name""#,
                "f.json: $.b: expected a string, found nothing (the member is missing)",
                "f.json: $.a: expected a string, found the number 1",
            ]),
            (.fields, [
                #"f.json: $.a: duplicate key "a" (each field may appear once)"#,
                "f.json: $['odd name']: unknown field (expected one of a, b)",
                #"f.json: $: missing required field "b""#,
                "f.json: $.a: expected a string, found 1",
            ]),
        ] {
            var walker = JSONWalker(file: "f.json", wording: wording)
            let read = walker.object(root, at: .root)
            let object = try #require(read)
            walker.rejectUnknown(object, allowed: ["a", "b"], at: .root)
            _ = walker.field(object, "b", at: .root, expected: "a string", JSONConvert.string)
            _ = walker.field(object, "a", at: .root, expected: "a string", JSONConvert.string)
            #expect(walker.problems.map(\.description) == expected)
        }
    }

    @Test func defaultsAndOptionalMembers() throws {
        let root = try Self.parse(#"{"n": null, "s": 3}"#)
        var walker = JSONWalker(file: "f.json")
        guard case .object(let object) = root else { Issue.record("not an object"); return }
        let defaulted = walker.field(object, "missing", at: .root, default: "d", expected: "a string", JSONConvert.string)
        let null = walker.optionalField(object, "n", at: .root, expected: "a string", JSONConvert.string)
        let wrong = walker.optionalField(object, "s", at: .root, expected: "a string", JSONConvert.string)
        #expect(defaulted == "d")
        #expect(null == .some(nil))
        #expect(wrong == nil)
        #expect(walker.problems.map(\.path) == ["$.s"])
        walker.problem(.root.key("s"), "said in words")
        #expect(walker.problems.last?.description == "f.json: $.s: said in words")
    }
}
