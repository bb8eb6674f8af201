import Foundation


/// A location in a JSON document, written as in problem reports: `$.tracks[2].layers[0].file`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible {
    public private(set) var description: String

    public static let root = JSONPath(description: "$")

    /// A member; names that are not plain identifiers are written `['odd name']`.
    public func key(_ name: String) -> JSONPath {
        let plain = !name.isEmpty && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "_") }
            && !(name.unicodeScalars.first!.properties.numericType != nil)
        if plain { return JSONPath(description: description + "." + name) }
        let escaped = name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
        return JSONPath(description: description + "['" + escaped + "']")
    }

    /// The path without its root, as an API problem names a request field: `options.fps`,
    /// `options['odd name']`; empty for the root.
    public var fieldName: String {
        let relative = description.dropFirst()
        return String(relative.first == "." ? relative.dropFirst() : relative)
    }

    /// An array element.
    public func index(_ position: Int) -> JSONPath { JSONPath(description: description + "[\(position)]") }

    /// The array element whose `member` equals `value`, for places whose position is not kept.
    public func element(where member: String, is value: String) -> JSONPath {
        JSONPath(description: description + "[?(@.\(member)=='\(value)')]")
    }
}
