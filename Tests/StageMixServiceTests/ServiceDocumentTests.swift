import Foundation
@testable import StageMixService
import Testing

/// docs/service.md against what the service takes (issue 32: `chunkSeconds` was taken but not listed).
@Suite("docs/service.md")
struct ServiceDocumentTests {
    static let text: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/service.md"), encoding: .utf8)) ?? ""
    }()

    @Test func everyOptionTheAPITakesIsListed() throws {
        // The `options` item of POST /v1/compositions: from "- `options`:" to the next item.
        let item = try #require(Self.text.components(separatedBy: "\n- `options`:").dropFirst().first?.components(separatedBy: "\n- ").first)
        for name in CompositionRequest.optionKinds.keys.sorted() {
            #expect(item.contains("`\(name)`") || item.contains("`\(name):"), "options.\(name) is taken by the API but not in docs/service.md")
        }
    }
}
