import Foundation
import Hummingbird

/// The Twilio-shaped routes answer errors as Twilio's API does, so Twilio's libraries raise them with
/// their message: `{"code", "message", "more_info", "status"}`. A request Twilio would call invalid is a
/// 400 (the JSON API's 422); codes are Twilio's generic ones (20003 authenticate, 20404 not found, 20001
/// an invalid parameter, 20409, 20503), `more_info` points at StageMix's documentation of the route.
struct TwilioErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    struct Body: Encodable {
        var code: Int
        var message: String
        var more_info: String
        var status: Int
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            return Self.response(problem)
        } catch {
            // Every other failure as the JSON API words it (too large, no such route, an internal error, logged there).
            return Self.response(ProblemMiddleware<Context>.problem(for: error, request: request, context: context).problem)
        }
    }
    static func response(_ problem: Problem) -> Response {
        let status = problem.status == 422 ? 400 : problem.status
        let code = switch status {
        case 400: 20001
        case 401: 20003
        default: 20000 + status
        }
        var headers: HTTPFields = [:]
        if status == 401 { headers[.wwwAuthenticate] = "Basic realm=\"stagemix\"" }
        let body = Body(code: code, message: problem.detail, more_info: "https://stagemix.dev/docs/twilio#errors", status: status)
        return APIResponse.json(body, status: .init(code: status), headers: headers)
    }
}
