import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore
import NIOHTTP1
import StageMixService
@testable import StageMixQueue
import StageMixQueueTestSupport

/// A real `stagemix serve` process on loopback over a real queue, with a capture root holding copies
/// of the sample capture, and the helpers a platform would use: tokens, JSON requests.
final class ServiceFixture: @unchecked Sendable {
    static let apiKey = "platform"
    static let secret = "s3cret-s3cret-s3cret-s3cret-0123456789"
    static let otherKey = "other"
    static let otherSecret = "another-secret-another-secret-0123456789"

    let directory: String
    let captureRoot: String
    let outputRoot: String
    let queueURL: String
    let composeScript: String
    let environment: EnvironmentFile?
    let port: Int
    private(set) var process: RunningProcess?
    private var launches = 0
    let serveArguments: [String]

    /// `workers` composing in the serve process (0: none); `fakeCompose`: the test's compose script;
    /// `outputRoot`: another than the fixture's own folder (an `s3://` prefix); `environment`: variables
    /// the serve process (and so its workers' compose children) has besides the test process's own.
    init(backend: QueueBackend, workers: Int = 1, fakeCompose: Bool = true, allowPrivate: Bool = true, extra: [String] = [],
         outputRoot: String? = nil, environment: [String: String]? = nil) async throws {
        let directory = try makeTemporaryDirectory(prefix: "stagemix-serve")
        self.directory = directory
        captureRoot = "\(directory)/captures"
        self.outputRoot = outputRoot ?? "\(directory)/compositions"
        self.environment = try environment.map { try EnvironmentFile($0, in: directory) }
        try FileManager.default.createDirectory(atPath: captureRoot, withIntermediateDirectories: true)
        queueURL = try await backend.makeURL()
        composeScript = try ComposeScript.install(in: directory)
        port = try freeLoopbackPort()
        let keys = #"{"keys": {"\#(Self.apiKey)": "\#(Self.secret)", "\#(Self.otherKey)": "\#(Self.otherSecret)"}}"#
        try keys.write(toFile: "\(directory)/keys.json", atomically: true, encoding: .utf8)
        var arguments = [
            "serve", "--listen", "127.0.0.1:\(port)", "--queue", queueURL, "--capture-root", captureRoot,
            "--keys", "\(directory)/keys.json", "--workers", "\(workers)", "--output-root", self.outputRoot,
            "--webhook-retry-base", "0.5", "--lease-seconds", "3", "--heartbeat-seconds", "0.3",
        ]
        if allowPrivate { arguments.append("--allow-private-callbacks") }
        if fakeCompose { arguments += ["--compose-command", "/bin/bash \(composeScript)"] }
        serveArguments = arguments + extra
        try await start()
    }

    /// The sample capture copied into the root as `name`, with the compose script's `behaviour`.
    @discardableResult
    func addCapture(_ name: String, behaviour: String = "") throws -> String {
        let path = "\(captureRoot)/\(name)"
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Samples/panel").path
        try FileManager.default.copyItem(atPath: sample, toPath: path)
        try behaviour.write(toFile: "\(path)/behaviour", atomically: true, encoding: .utf8)
        return path
    }

    /// Starts (or restarts) the serve process and waits until it answers /healthz.
    func start() async throws {
        launches += 1
        let binary = try WorkerProcesses.binary
        let command = EnvironmentFile.exec([binary] + serveArguments, with: environment) + " >>'\(directory)/serve.log' 2>&1"
        process = RunningProcess(child: try ChildProcess(arguments: ["/bin/bash", "-c", command]) { _ in })
        try await eventually(30, "serve answers /healthz") { (try? await self.request("GET", "/healthz", token: nil).status) == 200 }
    }

    func kill() async {
        await process?.stop()
    }

    func stop() async {
        await kill()
    }

    var log: String { (try? String(contentsOfFile: "\(directory)/serve.log", encoding: .utf8)) ?? "" }

    struct Reply: Sendable {
        var status: Int
        var body: String
        var headers: HTTPHeaders
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]) ?? [:] }
    }

    func request(_ method: String, _ path: String, token: String?, body: String? = nil) async throws -> Reply {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = HTTPMethod(rawValue: method)
        if let token { request.headers.add(name: "authorization", value: "Bearer \(token)") }
        if let body {
            request.headers.add(name: "content-type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let buffer = try await response.body.collect(upTo: 16 << 20)
        return Reply(status: Int(response.status.code), body: String(buffer: buffer), headers: response.headers)
    }

    /// A token for `key` signed with `secret`, valid for `ttl` seconds from `now + offset`.
    static func token(key: String = apiKey, secret: String = secret, grants: [Grant] = Grant.allCases, ttl: Double = 600,
                      notBefore: Date? = nil, expires: Date? = nil) async throws -> String {
        let now = Date()
        let claims = AccessClaims(apiKey: key, expires: expires ?? now.addingTimeInterval(ttl), notBefore: notBefore,
                                  issuedAt: now, grants: grants)
        let keys = await JWTKeyCollection().add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        return try await keys.sign(claims)
    }

    func composition(_ id: String) async throws -> [String: Any] {
        let reply = try await request("GET", "/v1/compositions/\(id)", token: try await Self.token())
        guard reply.status == 200 else { throw TestFailure("GET \(id): \(reply.status) \(reply.body)") }
        return reply.json
    }

    func waitFor(_ id: String, status: String, seconds: Double = 60) async throws -> [String: Any] {
        var last: [String: Any] = [:]
        do {
            try await eventually(seconds, "composition \(id) \(status)") {
                last = try await self.composition(id)
                return last["status"] as? String == status
            }
        } catch {
            throw TestFailure("\(error); last \(last); log:\n\(log.suffix(3000))")
        }
        return last
    }
}

extension ServiceFixture {
    /// A request as Twilio's libraries send one: HTTP Basic with `key` and `secret` (or no credentials),
    /// a form-encoded body.
    func twilio(_ method: String, _ path: String, key: String? = apiKey, secret: String = secret, form: String? = nil,
                contentType: String = "application/x-www-form-urlencoded") async throws -> Reply {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = HTTPMethod(rawValue: method)
        if let key { request.headers.add(name: "authorization", value: "Basic " + Data("\(key):\(secret)".utf8).base64EncodedString()) }
        if let form {
            request.headers.add(name: "content-type", value: contentType)
            request.body = .bytes(ByteBuffer(string: form))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let buffer = try await response.body.collect(upTo: 16 << 20)
        return Reply(status: Int(response.status.code), body: String(buffer: buffer), headers: response.headers)
    }
}
