/// One thing wrong with a JSON document (a capture, a layout, a tier or price table, an edit file, a
/// request body): where (file and JSON path), what was expected, what was found.
public struct JSONProblem: Sendable, Hashable, CustomStringConvertible {
    /// The file the problem is in, relative to the capture's parent or as given (`session.json`, a media file).
    public var file: String
    /// JSON path such as `$.events[3].participantId`; `$` for the whole document, empty when the
    /// problem is not about the content (a file or folder that is not there or cannot be read).
    public var path: String
    public var expected: String
    public var found: String
    /// Said in words instead, for what is not one value in place of another (`region runs past the
    /// canvas's right edge`); `expected` and `found` are then empty.
    public var message: String?

    public init(file: String, path: String, expected: String, found: String) {
        self.file = file; self.path = path; self.expected = expected; self.found = found
    }

    /// A file that is not JSON at all: where the parser stopped, at the document's root.
    public init(file: String, syntax error: JSONTextParser.SyntaxError) {
        self.init(file: file, path: "$", expected: "\(error.expected) (line \(error.line), column \(error.column))", found: error.found)
    }

    public init(file: String, path: String, message: String) {
        self.file = file; self.path = path; self.expected = ""; self.found = ""; self.message = message
    }

    /// `file: $.path: expected ..., found ...` (or the message); without the path when the problem is the file itself.
    public var description: String {
        let place = path.isEmpty ? file : "\(file): \(path)"
        if let message { return "\(place): \(message)" }
        return "\(place): expected \(expected), found \(found)"
    }
}
