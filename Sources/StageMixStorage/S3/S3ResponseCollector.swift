internal import AsyncHTTPClient
internal import NIOCore
internal import NIOHTTP1

/// Collects an S3 answer: status, headers and at most `limit` bytes of body. A body larger than the
/// caller expects ends the request with an error instead of growing in memory.
final class S3ResponseCollector: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = S3Client.Response

    private let limit: Int
    private var status = 0
    private var headers: [String: String] = [:]
    private var body = ByteBuffer()

    init(limit: Int) { self.limit = limit }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        status = Int(head.status.code)
        for header in head.headers { headers[header.name.lowercased()] = header.value }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ part: ByteBuffer) -> EventLoopFuture<Void> {
        guard body.readableBytes + part.readableBytes <= limit else {
            return task.eventLoop.makeFailedFuture(BodyTooLarge(limit: limit))
        }
        var part = part
        body.writeBuffer(&part)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        Response(status: status, headers: headers, body: body)
    }

    struct BodyTooLarge: Error, CustomStringConvertible {
        var limit: Int
        var description: String { "the answer is larger than the \(limit) bytes expected" }
    }
}
