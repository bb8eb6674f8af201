/// One thing wrong with a JSON document (a capture, a layout, a tier or price table, an edit file, a
/// request body): where (file and JSON path), what was expected, what was found.
public struct JSONProblem: Sendable, Hashable, CustomStringConvertible {
    /// The file the problem is in, relative to the capture's parent or as given (`session.json`, a media file).
    public var file: String
    /// JSON path such as `$.events[3].participantId`; `$` for the whole document, empty for a file or folder that is not there.
    public var path: String
    public var expected: String
    public var found: String

    public init(file: String, path: String, expected: String, found: String) {
        self.file = file; self.path = path; self.expected = expected; self.found = found
    }

    /// `file: $.path: expected ..., found ...`; without the path when the problem is the file itself.
    public var description: String {
        path.isEmpty ? "\(file): expected \(expected), found \(found)" : "\(file): \(path): expected \(expected), found \(found)"
    }
}
