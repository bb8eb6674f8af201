import Testing
import StageMixJSON

/// Where two JSON values first differ as JSON values: member order and a number's spelling are not
/// differences; a string's scalars, a member or element gone or added are.
@Suite("JSON differences")
struct JSONDifferenceTests {
    static func parse(_ text: String) throws -> JSONValue { try JSONTextParser.parse(Array(text.utf8)) }

    static func first(_ a: String, _ b: String) throws -> JSONDifference? {
        JSONDifference.first(from: try parse(a), to: try parse(b))
    }

    @Test func equalValuesWrittenOtherwiseHaveNoDifference() throws {
        #expect(try Self.first(#"{"a": 1000, "b": [true, null, "x"]}"#, #"{"b": [true, null, "x"], "a": 1e3}"#) == nil)
        #expect(try Self.first(#"[1.5, {}]"#, #"[1.50, {}]"#) == nil)
    }

    @Test func theFirstDifferenceIsNamedWithBothSides() throws {
        let changed = try #require(try Self.first(#"{"e": [{"at": 1, "t": "x"}, {"at": 2}]}"#, #"{"e": [{"at": 1, "t": "x"}, {"at": 3}]}"#))
        #expect(changed.path.description == "$.e[1].at" && changed.earlier?.jsonText == "2" && changed.later?.jsonText == "3")

        let gone = try #require(try Self.first(#"{"a": 1, "b": 2}"#, #"{"b": 2}"#))
        #expect(gone.path.description == "$.a" && gone.later == nil)
        let added = try #require(try Self.first(#"[1]"#, #"[1, 2]"#))
        #expect(added.path.description == "$[1]" && added.earlier == nil && added.later?.jsonText == "2")
        #expect(try Self.first(#"{"n": 1}"#, #"{"n": "1"}"#)?.path.description == "$.n")
        // "é" precomposed and decomposed: equal to Swift's ==, two different strings in a file.
        #expect(try Self.first("[\"\u{E9}\"]", "[\"e\u{301}\"]")?.path.description == "$[0]")
    }
}
