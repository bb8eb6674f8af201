import Hummingbird
import NIOCore
import Logging

/// Turns every error into problem details (Twilio's error shape under `/v1/Compositions`): a ``Problem`` as it is, Hummingbird's own errors (no such
/// route, body too large) with their status, and anything else as a 500 that is logged.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let (problem, allowed) = Self.problem(for: error, request: request, context: context)
            // Under the Twilio-shaped prefix, what no route took (no such route, a method it does not take) is in Twilio's shape too.
            let twilio = request.uri.path == "/v1/Compositions" || request.uri.path.hasPrefix("/v1/Compositions/")
            var response = twilio ? TwilioErrorMiddleware<Context>.response(problem) : APIResponse.problem(problem)
            if let allowed { response.headers[.allow] = allowed.joined(separator: ", ") }
            return response
        }
    }

    /// The problem an error is answered with, and for a 405 the methods the path takes.
    static func problem(for error: any Error, request: Request, context: Context) -> (problem: Problem, allowed: [String]?) {
        switch error {
        case let problem as Problem:
            return (problem, nil)
        case is NIOTooManyBytesError:
            return (Problem(status: 413, title: "Content too large", detail: "the body is larger than \(CompositionRequest.maxBodyBytes) bytes", type: "too-large"), nil)
        case let error as HTTPError where error.status.code == 404 && Self.allowed(request.uri.path) != nil:
            // A route that exists, asked with a method it does not take.
            let allowed = Self.allowed(request.uri.path) ?? []
            return (Problem(status: 405, title: "Method Not Allowed",
                            detail: "\(request.method) is not allowed on \(request.uri.path); use \(allowed.joined(separator: ", "))",
                            type: "method-not-allowed"), allowed)
        case let error as HTTPError:
            let code = error.status.code
            let detail: String = switch code {
            case 404: "no such resource: \(request.method) \(request.uri.path)"
            case 405: "\(request.method) is not allowed on \(request.uri.path)"
            case 413: "the body is larger than \(CompositionRequest.maxBodyBytes) bytes"
            default: error.body ?? error.status.reasonPhrase
            }
            let type = code == 404 ? "not-found" : code == 405 ? "method-not-allowed" : code == 413 ? "too-large" : "http-error"
            return (Problem(status: code, title: error.status.reasonPhrase, detail: detail, type: type), nil)
        default:
            context.logger.error("request failed: \(String(reflecting: error))", metadata: ["path": "\(request.uri.path)"])
            return (Problem(status: 500, title: "Internal error", detail: "the request failed inside StageMix; it is logged", type: "internal"), nil)
        }
    }

    /// The methods a path takes, or nil when no route has it.
    static func allowed(_ path: String) -> [String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        switch Array(parts) {
        case ["v1", "compositions"]: return ["GET", "POST"]
        case let p where p.count == 3 && p[0] == "v1" && p[1] == "compositions" && !p[2].isEmpty: return ["GET", "DELETE"]
        case ["v1", "plans"]: return ["POST"]
        case ["v1", "janus", "events"]: return ["POST"]
        case let p where p.count == 4 && p[0] == "v1" && p[1] == "compositions" && p[3] == "report": return ["GET"]
        case ["v1", "Compositions"]: return ["GET", "POST"]
        case let p where p.count == 3 && p[0] == "v1" && p[1] == "Compositions" && !p[2].isEmpty: return ["GET", "DELETE"]
        case let p where p.count == 4 && p[0] == "v1" && p[1] == "Compositions" && p[3] == "Media": return ["GET"]
        case let p where p.count == 5 && p[0] == "v1" && p[1] == "Compositions" && p[3] == "Media" && p[4] == "composition.mp4": return ["GET", "HEAD"]
        case ["healthz"], ["readyz"], ["metrics"], ["openapi.json"]: return ["GET"]
        default: return nil
        }
    }
}
