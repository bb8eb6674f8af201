import NIOCore
import NIOHTTP1
import NIOPosix

/// A minimal HTTP endpoint for Prometheus: `GET /metrics` answers the worker's metrics; anything
/// else is 404. It runs on SwiftNIO's event loops, beside the worker, until closed.
public final class MetricsServer: Sendable {
    private let channel: any Channel
    /// Where it listens (the port is the one the system chose when asked for 0).
    public var address: SocketAddress? { channel.localAddress }

    /// Serves `metrics`, and the jobs of `queue` by state when given (read at each scrape, 2 s at most).
    public static func start(host: String, port: Int, metrics: WorkerMetrics, queue: (any JobQueue)? = nil) async throws -> MetricsServer {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline().flatMap {
                    channel.pipeline.addHandler(Handler(metrics: metrics, queue: queue))
                }
            }
            .bind(host: host, port: port)
            .get()
        return MetricsServer(channel: channel)
    }

    private init(channel: any Channel) { self.channel = channel }

    public func close() async {
        try? await channel.close()
    }

    private final class Handler: ChannelInboundHandler, Sendable {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        let metrics: WorkerMetrics
        let queue: (any JobQueue)?
        init(metrics: WorkerMetrics, queue: (any JobQueue)?) {
            self.metrics = metrics
            self.queue = queue
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .head(let request) = unwrapInboundIn(data) else { return }
            let found = request.method == .GET && (request.uri == "/metrics" || request.uri.hasPrefix("/metrics?"))
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            guard found else {
                respond(bound.value, to: request, found: false, body: "not found: try /metrics\n")
                return
            }
            // The queue is asked off the event loop; a queue that does not answer in time leaves its
            // gauge out of this scrape rather than holding the scrape up.
            let (metrics, queue) = (metrics, queue)
            context.eventLoop.makeFutureWithTask {
                var counts: [JobState: Int]?
                if let queue { counts = try? await withDeadline(2) { try await queue.countByState() } }
                return metrics.render(queue: counts)
            }.whenSuccess { body in
                self.respond(bound.value, to: request, found: true, body: body)
            }
        }

        private func respond(_ context: ChannelHandlerContext, to request: HTTPRequestHead, found: Bool, body: String) {
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: found ? "text/plain; version=0.0.4; charset=utf-8" : "text/plain")
            headers.add(name: "Content-Length", value: "\(body.utf8.count)")
            headers.add(name: "Connection", value: "close")
            let head = HTTPResponseHead(version: request.version, status: found ? .ok : .notFound, headers: headers)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
        }
    }
}
