import Hummingbird
import StageMixQueue

/// `GET /metrics` for Prometheus: a worker's metrics and the queue's jobs by state, in the text
/// format. `stagemix serve` answers it beside the API; `stagemix worker --metrics` serves it alone
/// (``router(_:queue:)``), on the same HTTP stack.
enum MetricsEndpoint {
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    static func response(_ metrics: WorkerMetrics, queue: (any JobQueue)?) async -> Response {
        APIResponse.text(await metrics.scrape(queue), contentType: contentType)
    }

    /// The worker's own endpoint: `GET /metrics`, and 404 for anything else.
    static func router(_ metrics: WorkerMetrics, queue: (any JobQueue)?) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: NotFoundHint())
        router.get("/metrics") { _, _ in await response(metrics, queue: queue) }
        return router
    }

    /// A request for anything but `GET /metrics` gets a 404 that says where the metrics are.
    private struct NotFoundHint<Context: RequestContext>: RouterMiddleware {
        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            do {
                return try await next(request, context)
            } catch let error as HTTPError where error.status == .notFound {
                return Response(status: .notFound, headers: [.contentType: "text/plain"],
                                body: .init(byteBuffer: ByteBuffer(string: "not found: try /metrics\n")))
            }
        }
    }
}
