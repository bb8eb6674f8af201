/// One thing wrong with a JSON document (a capture, a layout, a tier or price table, an edit file, a
/// request body): where (file and JSON path), what was expected, what was found.
public struct JSONProblem: Sendable, Hashable, CustomStringConvertible {
    /// The file the problem is in, relative to the capture's parent or as given (`session.json`, a media file).
    public var file: String
    /// JSON path such as `$.events[3].participantId`; `$` for the whole document, empty when the
    /// problem is not about the content (the file cannot be read).
    public var path: String
    public var expected: String
    public var found: String
    /// Said in words instead, for what is not one value in place of another (`region runs past the
    /// canvas's right edge`); `expected` and `found` are then empty.
    public var message: String?

    public init(file: String, path: String, expected: String, found: String) {
        self.file = file; self.path = path; self.expected = expected; self.found = found
    }

    public init(file: String, path: String, message: String) {
        self.file = file; self.path = path; self.expected = ""; self.found = ""; self.message = message
    }

    public var description: String {
        let place = path.isEmpty ? file : "\(file): \(path)"
        return "\(place): \(message ?? "expected \(expected), found \(found)")"
    }
}
