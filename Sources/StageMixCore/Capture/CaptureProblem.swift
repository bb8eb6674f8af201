/// One thing wrong with a capture: where (file and JSON path), what was expected, what was found.
public struct CaptureProblem: Sendable, Hashable, CustomStringConvertible {
    /// The file the problem is in, relative to the capture's parent or as given (`session.json`, a media file).
    public var file: String
    /// JSON path such as `$.events[3].participantId`; `$` for the whole document.
    public var path: String
    public var expected: String
    public var found: String

    public init(file: String, path: String, expected: String, found: String) {
        self.file = file; self.path = path; self.expected = expected; self.found = found
    }

    public var description: String { "\(file): \(path): expected \(expected), found \(found)" }
}

/// A capture that breaks the contract, with every problem found.
public struct CaptureError: Error, Sendable, CustomStringConvertible {
    public var problems: [CaptureProblem]
    public init(problems: [CaptureProblem]) { self.problems = problems }
    public var description: String {
        "invalid capture (\(problems.count) problem\(problems.count == 1 ? "" : "s")):\n"
            + problems.map { "  " + $0.description }.joined(separator: "\n")
    }
}
