import Foundation

/// An error answer as RFC 9457 problem details (`application/problem+json`): a status, a title, the
/// detail in words, and, for bad input, the field it is about (`capture`, `options.fps`...).
public struct Problem: Error, Sendable, Codable, Hashable {
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String
    /// The request field at fault, as a dotted path; also in `invalidParams`.
    public var field: String?
    public var invalidParams: [InvalidParam]?

    public struct InvalidParam: Sendable, Codable, Hashable {
        public var name: String
        public var reason: String
    }

    /// `type` is a short name; it becomes a URI under the API's documentation.
    public init(status: Int, title: String, detail: String, type: String, field: String? = nil, reason: String? = nil) {
        self.type = "https://stagemix.dev/problems/\(type)"
        self.title = title
        self.status = status
        self.detail = detail
        self.field = field
        self.invalidParams = field.map { [InvalidParam(name: $0, reason: reason ?? detail)] }
    }

    /// 422: the request is well-formed JSON but `field` is wrong.
    public static func invalid(_ field: String, _ reason: String) -> Problem {
        Problem(status: 422, title: "Invalid request", detail: "\(field): \(reason)", type: "invalid-request", field: field, reason: reason)
    }

    /// 400: the request cannot be read at all.
    public static func malformed(_ detail: String, field: String? = nil) -> Problem {
        Problem(status: 400, title: "Malformed request", detail: detail, type: "malformed-request", field: field)
    }

    public static func notFound(_ detail: String) -> Problem {
        Problem(status: 404, title: "Not found", detail: detail, type: "not-found")
    }

    public static func conflict(_ detail: String) -> Problem {
        Problem(status: 409, title: "Conflict", detail: detail, type: "conflict")
    }

    public static func unavailable(_ detail: String) -> Problem {
        Problem(status: 503, title: "Service unavailable", detail: detail, type: "unavailable")
    }
}
