/// A queue error with a code, as `PSQLError` has.
public struct QueueError: Error, CustomStringConvertible, Sendable {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        public var description: String { name }
        public static let badURL = Code(name: "badURL")
        public static let noSuchJob = Code(name: "noSuchJob")
        public static let duplicateActiveJob = Code(name: "duplicateActiveJob")
        public static let corruptRow = Code(name: "corruptRow")
        public static let serverUnavailable = Code(name: "serverUnavailable")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
}
