import Foundation
import Hummingbird
import Logging
import NIOCore
import StageMixQueue

/// `POST /v1/janus/events`: Janus's event handler (`janus.eventhandler.sampleevh`) as a client. Its
/// `backend_user` and `backend_pwd` are an API key and its secret (HTTP Basic; the key owns the rooms'
/// compositions). A body is one event or an array of them, gzip or not; the events a room keeps are
/// in the queue's database before the 200 is sent, so a Janus that sees the 200 may forget them, and a
/// retransmitted body counts once. Janus waits for each answer before it sends the next batch: the
/// route does nothing else.
struct JanusEventsRoute: Sendable {
    let store: any SQLJobStore
    let verifier: TokenVerifier
    /// False without `--janus-recordings`: the route answers 404.
    let enabled: Bool

    /// Largest body taken, compressed or inflated: far above a batch of Janus's events.
    static let maxBodyBytes = 16 << 20
    static let path = "/v1/janus/events"
    static let tooLarge = Problem(status: 413, title: "Content too large", detail: "the body is larger than \(maxBodyBytes) bytes, compressed or inflated",
                                  type: "too-large")

    func add(to router: Router<BasicRequestContext>) {
        router.post(RouterPath(Self.path)) { request, context in try await receive(request, context: context) }
    }

    func receive(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let caller: Caller
        do throws(Problem) {
            caller = try verifier.basicCaller(authorization: request.headers[.authorization])
        } catch {
            // Janus's handler sends Basic only: say so in the challenge.
            var response = APIResponse.problem(error)
            response.headers[.wwwAuthenticate] = "Basic realm=\"stagemix\""
            return response
        }
        guard enabled else {
            throw Problem.notFound("Janus's events are not taken: this service was started without --janus-recordings")
        }
        var body = request
        let buffer: ByteBuffer
        do {
            buffer = try await body.collectBody(upTo: Self.maxBodyBytes)
        } catch is NIOTooManyBytesError {
            throw Self.tooLarge
        }
        var bytes = Array(buffer.readableBytesView)
        switch request.headers[.contentEncoding]?.lowercased().trimmingCharacters(in: .whitespaces) {
        case nil, "", "identity":
            break
        case "gzip", "x-gzip":
            do throws(GzipBody.Failure) {
                bytes = try GzipBody.inflate(bytes, limit: Self.maxBodyBytes)
            } catch .tooLarge {
                throw Self.tooLarge
            } catch .corrupt(let reason) {
                throw Problem.malformed("the body is not valid gzip: \(reason)")
            }
        case let other?:
            throw Problem(status: 415, title: "Unsupported media type", detail: "Content-Encoding \(other.prefix(40)) is not taken; send gzip or nothing",
                          type: "unsupported-media-type")
        }
        let posted = try JanusPostedEvents.parse(bytes)
        let intake: JanusIntake
        do {
            intake = try await store.recordJanusEvents(posted.events, apiKey: caller.apiKey)
        } catch {
            // Janus keeps the batch and posts it again: a later try may find the database.
            context.logger.warning("janus events not kept: \(String(reflecting: error))")
            throw Problem.unavailable("the events could not be kept; post them again")
        }
        if intake.kept > 0 || intake.unmatched > 0 {
            context.logger.debug("janus events", metadata: [
                "kept": "\(intake.kept)", "duplicates": "\(intake.duplicates)", "unmatched": "\(intake.unmatched)", "dropped": "\(posted.dropped)",
            ])
        }
        return APIResponse.json(JanusIntakeView(intake, dropped: posted.dropped))
    }
}

/// The answer to a POST of Janus's events (Janus ignores it; it is for people and tests).
struct JanusIntakeView: Encodable {
    var kept: Int
    var duplicates: Int
    var unmatched: Int
    var dropped: Int

    init(_ intake: JanusIntake, dropped: Int) {
        kept = intake.kept
        duplicates = intake.duplicates
        unmatched = intake.unmatched
        self.dropped = dropped
    }
}
