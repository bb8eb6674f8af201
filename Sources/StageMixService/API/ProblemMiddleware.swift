import Hummingbird
import NIOCore
import Logging

/// Turns every error into problem details: a ``Problem`` as it is, Hummingbird's own errors (no such
/// route, body too large) with their status, and anything else as a 500 that is logged.
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            return APIResponse.problem(problem)
        } catch is NIOTooManyBytesError {
            return APIResponse.problem(Problem(status: 413, title: "Content too large",
                                               detail: "the body is larger than \(CompositionRequest.maxBodyBytes) bytes", type: "too-large"))
        } catch let error as HTTPError {
            let code = error.status.code
            let detail: String = switch code {
            case 404: "no such resource: \(request.method) \(request.uri.path)"
            case 405: "\(request.method) is not allowed on \(request.uri.path)"
            case 413: "the body is larger than \(CompositionRequest.maxBodyBytes) bytes"
            default: error.body ?? error.status.reasonPhrase
            }
            let type = code == 404 ? "not-found" : code == 405 ? "method-not-allowed" : code == 413 ? "too-large" : "http-error"
            return APIResponse.problem(Problem(status: code, title: error.status.reasonPhrase, detail: detail, type: type))
        } catch {
            context.logger.error("request failed: \(String(reflecting: error))", metadata: ["path": "\(request.uri.path)"])
            return APIResponse.problem(Problem(status: 500, title: "Internal error", detail: "the request failed inside StageMix; it is logged", type: "internal"))
        }
    }
}
