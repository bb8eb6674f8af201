import Foundation
import Hummingbird

/// JSON answers: sorted keys, slashes unescaped, `application/json` (problems: `application/problem+json`).
enum APIResponse {
    static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func problem(_ problem: Problem) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(problem)) ?? Data()
        var headers: HTTPFields = [.contentType: "application/problem+json"]
        if problem.status == 401 { headers[.wwwAuthenticate] = "Bearer realm=\"stagemix\"" }
        return Response(status: .init(code: problem.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func text(_ text: String, contentType: String) -> Response {
        Response(status: .ok, headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
