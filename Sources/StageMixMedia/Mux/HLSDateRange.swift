import Foundation

/// An `#EXT-X-DATERANGE` tag (RFC 8216 4.3.2.7): an id, a class, a start date, and client
/// attributes (`X-...`), for players to show or jump to moments of the stream.
public struct HLSDateRange: Sendable, Hashable {
    public var id: String
    public var classID: String
    /// Seconds from the start of the output.
    public var offset: Double
    /// Client attributes, such as `["X-EVENT": "joined-stage"]`; names must be `X-` and A-Z, 0-9, `-`.
    public var attributes: [(String, String)]

    public init(id: String, classID: String, offset: Double, attributes: [(String, String)]) {
        self.id = id
        self.classID = classID
        self.offset = offset
        self.attributes = attributes
    }

    public static func == (a: HLSDateRange, b: HLSDateRange) -> Bool {
        a.id == b.id && a.classID == b.classID && a.offset == b.offset && a.attributes.map(\.0) == b.attributes.map(\.0)
            && a.attributes.map(\.1) == b.attributes.map(\.1)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// The tag, with the start date `start + offset`. Quoted strings cannot hold `"` or line breaks: they become `'` and spaces.
    func tag(start: Date, formatter: ISO8601DateFormatter) -> String {
        func quoted(_ s: String) -> String {
            "\"" + s.map { $0 == "\"" ? "'" : ($0.isNewline ? " " : $0) }.map(String.init).joined() + "\""
        }
        var parts = ["ID=\(quoted(id))", "CLASS=\(quoted(classID))",
                     "START-DATE=\(quoted(formatter.string(from: start.addingTimeInterval(offset))))"]
        parts += attributes.map { "\($0.0)=\(quoted($0.1))" }
        return "#EXT-X-DATERANGE:" + parts.joined(separator: ",")
    }
}
