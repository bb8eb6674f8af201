import AsyncHTTPClient
import Foundation
import NIOCore
import StageMixQueueTestSupport

/// What Janus's sample event handler would post for a VideoRoom, written as Janus writes it (compact
/// JSON, ids as numbers), and the POSTs themselves: HTTP Basic, JSON, gzip on request.
struct JanusPoster {
    let fixture: ServiceFixture
    var emitter = "janus-test"
    /// Janus's clock, in microseconds; each event made moves it on by a millisecond.
    private(set) var clock: Int64 = 1_795_768_660_000_000

    init(fixture: ServiceFixture) { self.fixture = fixture }

    /// A VideoRoom event (`joined`, `published`, `unpublished`, `leaving`, `destroyed`...) on `handle`.
    mutating func videoRoom(_ name: String, room: Int, publisher: Int? = nil, handle: Int? = nil) -> String {
        clock += 1000
        let handleFields = handle.map { #","session_id":\#($0 + 1),"handle_id":\#($0),"opaque_id":"pub-\#($0)""# } ?? ""
        let id = publisher.map { #","id":\#($0)"# } ?? ""
        let display = name == "joined" || name == "published" ? #","display":"Publisher \#(publisher ?? 0)""# : ""
        return #"{"emitter":"\#(emitter)","type":64,"timestamp":\#(clock)\#(handleFields),"event":{"plugin":"janus.plugin.videoroom","data":{"event":"\#(name)","room":\#(room)\#(id)\#(display)}}}"#
    }

    /// A handle's own event: type 16 (`{"connection": ...}`) or type 32 (`{"media": ..., "receiving": ...}`).
    mutating func handleEvent(type: Int, handle: Int, body: String) -> String {
        clock += 1000
        return #"{"emitter":"\#(emitter)","type":\#(type),"subtype":1,"timestamp":\#(clock),"session_id":\#(handle + 1),"handle_id":\#(handle),"event":\#(body)}"#
    }

    /// A session's or transport's event, which no room keeps.
    mutating func sessionEvent() -> String {
        clock += 1000
        return #"{"emitter":"\#(emitter)","type":1,"timestamp":\#(clock),"session_id":77,"event":{"name":"created"}}"#
    }

    /// POSTs `body` as Janus does; `gzip` compresses it first (`compress = true`).
    func post(_ body: String, gzip: Bool = false, key: String? = ServiceFixture.apiKey, secret: String = ServiceFixture.secret,
              bearer: String? = nil) async throws -> ServiceFixture.Reply {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(fixture.port)/v1/janus/events")
        request.method = .POST
        if let key { request.headers.add(name: "authorization", value: "Basic " + Data("\(key):\(secret)".utf8).base64EncodedString()) }
        if let bearer { request.headers.add(name: "authorization", value: "Bearer \(bearer)") }
        request.headers.add(name: "content-type", value: "application/json")
        var bytes = Data(body.utf8)
        if gzip {
            bytes = try Self.gzip(bytes)
            request.headers.add(name: "content-encoding", value: "gzip")
        }
        request.body = .bytes(ByteBuffer(bytes: bytes))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let buffer = try await response.body.collect(upTo: 1 << 20)
        return ServiceFixture.Reply(status: Int(response.status.code), body: String(buffer: buffer), headers: response.headers)
    }

    /// `data` through the system's gzip.
    static func gzip(_ data: Data) throws -> Data {
        let directory = try makeTemporaryDirectory(prefix: "stagemix-gzip")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let input = "\(directory)/body"
        try data.write(to: URL(fileURLWithPath: input))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/gzip")
        process.arguments = ["-n", input]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("gzip exited \(process.terminationStatus)") }
        return try Data(contentsOf: URL(fileURLWithPath: input + ".gz"))
    }
}
