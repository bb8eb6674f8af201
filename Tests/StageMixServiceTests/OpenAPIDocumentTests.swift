import Foundation
import StageMixService
import Testing

@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    @Test("docs/openapi.json is embedded byte for byte (run scripts/embed-openapi after editing it)")
    func embeddedDocumentIsTheFile() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let file = try String(contentsOf: root.appendingPathComponent("docs/openapi.json"), encoding: .utf8)
        #expect(OpenAPIDocument.json == file)
    }
}
