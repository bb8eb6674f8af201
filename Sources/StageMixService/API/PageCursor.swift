import Foundation

/// Where a page of compositions ends: the last one's creation time and id, opaque to the caller.
struct PageCursor: Sendable {
    var createdAt: Double
    var id: String

    var text: String { TokenVerifier.base64URL(Data("\(createdAt)|\(id)".utf8)) }

    init(createdAt: Double, id: String) {
        self.createdAt = createdAt
        self.id = id
    }

    init(_ text: String) throws(Problem) {
        guard text.count <= 200, let data = TokenVerifier.base64URL(Substring(text)),
              let decoded = String(data: data, encoding: .utf8), let bar = decoded.firstIndex(of: "|"),
              let createdAt = Double(decoded[..<bar]), createdAt.isFinite else {
            throw Problem.invalid("cursor", "is not a cursor this API gave out")
        }
        self.createdAt = createdAt
        self.id = String(decoded[decoded.index(after: bar)...])
    }
}
