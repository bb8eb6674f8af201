import Foundation
import Testing
import StageMixJSON

/// The one JSON value type and path that captures, tables, edit files and request bodies share
///.
@Suite("JSON values")
struct JSONValueTests {
    static func parse(_ text: String) throws -> JSONValue { try JSONTextParser.parse(Array(text.utf8)) }

    @Test func aDuplicateKeyIsFoundAnywhereAndNamedAsARequestField() throws {
        #expect(try Self.parse(#"{"a": [{"b": 1}, {"c": {"d": 1, "d": 2}}]}"#).duplicateKeyPath()?.description == "$.a[1].c.d")
        #expect(try Self.parse(#"{"a": 1, "b": {"a": 1}}"#).duplicateKeyPath() == nil)
        #expect(JSONPath.root.key("options").key("fps").fieldName == "options.fps")
        #expect(JSONPath.root.key("options").key("odd name").fieldName == "options['odd name']")
        #expect(JSONPath.root.fieldName == "")
    }

    @Test func aValueIsWrittenBackAsJSONEncoderWritesIt() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(try Self.parse(#"{"z": [1, 2.5, true, null], "a": "x/y"}"#))
        #expect(String(decoding: data, as: UTF8.self) == #"{"a":"x/y","z":[1,2.5,true,null]}"#)
    }
}
