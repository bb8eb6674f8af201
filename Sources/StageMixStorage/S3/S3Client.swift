public import Foundation
public import AsyncHTTPClient
internal import Crypto
internal import NIOCore
internal import NIOHTTP1

/// The S3 requests StageMix makes (GET, ranged GET, HEAD, PUT, list, DELETE) over AsyncHTTPClient,
/// each signed with ``SigV4Signer`` and addressed as ``StorageConfiguration`` says. Errors name the
/// `s3://` location and S3's code, never a credential.
public struct S3Client: Sendable {
    public let configuration: StorageConfiguration
    private let http: HTTPClient

    public init(configuration: StorageConfiguration, http: HTTPClient = .shared) {
        self.configuration = configuration
        self.http = http
    }

    /// The object's bytes, or those of `range` (inclusive byte offsets). At most `maxBytes` are read,
    /// so an object larger than the caller expects cannot exhaust memory.
    public func get(_ location: S3Location, range: ClosedRange<Int>? = nil, maxBytes: Int = 64 << 20) async throws -> Data {
        var headers: [String: String] = [:]
        if let range { headers["range"] = "bytes=\(range.lowerBound)-\(range.upperBound)" }
        return try await send("GET", location, headers: headers, maxResponseBytes: maxBytes).body
    }

    /// The object's size and ETag, or nil when there is none.
    public func head(_ location: S3Location) async throws -> S3Object? {
        do {
            let response = try await send("HEAD", location)
            return S3Object(key: location.key, size: Int(response.headers["content-length"] ?? "") ?? 0,
                            etag: Self.unquoted(response.headers["etag"] ?? ""))
        } catch let error as S3Error where error.status == 404 {
            return nil
        }
    }

    /// Writes an object whole. S3 checks the body against its Content-MD5, and the ETag it answers
    /// is checked against the same digest here: a body changed on the way is an error, not an object.
    @discardableResult
    public func put(_ location: S3Location, body: Data, contentType: String? = nil) async throws -> S3Object {
        let md5 = Data(Insecure.MD5.hash(data: body))
        var headers = ["content-md5": md5.base64EncodedString()]
        if let contentType { headers["content-type"] = contentType }
        let response = try await send("PUT", location, headers: headers, body: body)
        let etag = Self.unquoted(response.headers["etag"] ?? "")
        let expected = SigV4Signer.hex(md5)
        guard etag == expected else {
            throw S3Error(location: location.description, status: response.status, code: "BadDigest",
                          message: "the store answered ETag \(etag) for a body whose MD5 is \(expected)")
        }
        return S3Object(key: location.key, size: body.count, etag: etag)
    }

    /// Every object under `prefix`, in key order, a page of at most 1,000 at a time; at most
    /// `limit` objects, so a prefix holding millions cannot exhaust memory.
    public func list(_ prefix: S3Location, limit: Int = 100_000) async throws -> [S3Object] {
        var objects: [S3Object] = []
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", prefix.key), ("max-keys", "1000")]
            if let token { query.append(("continuation-token", token)) }
            let response = try await send("GET", S3Location(bucket: prefix.bucket, key: ""), query: query, maxResponseBytes: 16 << 20)
            let page = S3XML.parse(response.body)
            objects += page.contents.compactMap { entry in
                entry["Key"].map { S3Object(key: $0, size: Int(entry["Size"] ?? "") ?? 0, etag: Self.unquoted(entry["ETag"] ?? "")) }
            }
            token = page.values["IsTruncated"] == "true" ? page.values["NextContinuationToken"] : nil
        } while token != nil && objects.count < limit
        return Array(objects.prefix(limit))
    }

    /// Makes a bucket (tests and first runs against a fresh store; StageMix never needs to).
    public func createBucket(_ name: String) async throws {
        _ = try await send("PUT", S3Location(bucket: name, key: ""))
    }

    public func delete(_ location: S3Location) async throws {
        _ = try await send("DELETE", location)
    }

    // MARK: Requests

    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    private func send(_ method: String, _ location: S3Location, query: [(String, String)] = [], headers: [String: String] = [:],
                      body: Data = Data(), maxResponseBytes: Int = 1 << 20) async throws -> Response {
        guard let credentials = configuration.credentials else {
            throw S3Error(location: location.description, status: 0, code: "NoCredentials",
                          message: "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile (docs/storage.md)")
        }
        let (scheme, host, path) = address(location)
        let signed = SigV4Signer(credentials: credentials, region: configuration.region)
            .sign(method: method, scheme: scheme, host: host, path: path, query: query, headers: headers,
                  payloadSHA256: SigV4Signer.payloadSHA256(body), date: Date())
        var request = HTTPClientRequest(url: signed.url)
        request.method = HTTPMethod(rawValue: method)
        for (name, value) in signed.headers where name != "host" { request.headers.add(name: name, value: value) }
        if !body.isEmpty || method == "PUT" {
            request.body = .bytes(ByteBuffer(bytes: body))
            request.headers.replaceOrAdd(name: "content-length", value: String(body.count))
        }
        let response = try await http.execute(request, timeout: .seconds(60))
        let status = Int(response.status.code)
        var answered: [String: String] = [:]
        for header in response.headers { answered[header.name.lowercased()] = header.value }
        let bytes = method == "HEAD" ? ByteBuffer() : try await response.body.collect(upTo: maxResponseBytes)
        let data = Data(bytes.readableBytesView)
        guard (200..<300).contains(status) else {
            let error = S3XML.parse(data)
            let code = error.values["Code"] ?? (status == 404 ? "NotFound" : status == 403 ? "AccessDenied" : "HTTP\(status)")
            throw S3Error(location: location.description, status: status, code: code, message: error.values["Message"] ?? "")
        }
        return Response(status: status, headers: answered, body: data)
    }

    /// Scheme, host (with its port) and unencoded path of a location, by the configured addressing.
    func address(_ location: S3Location) -> (scheme: String, host: String, path: String) {
        let key = "/" + location.key
        if let endpoint = configuration.endpoint {
            let scheme = endpoint.scheme?.lowercased() ?? "https"
            let host = (endpoint.host ?? "") + (endpoint.port.map { ":\($0)" } ?? "")
            switch configuration.addressingStyle {
            case .path: return (scheme, host, "/\(location.bucket)" + (location.key.isEmpty ? "" : key))
            case .virtual: return (scheme, "\(location.bucket).\(host)", key)
            }
        }
        let regional = "s3.\(configuration.region).amazonaws.com"
        switch configuration.addressingStyle {
        case .path: return ("https", regional, "/\(location.bucket)" + (location.key.isEmpty ? "" : key))
        case .virtual: return ("https", "\(location.bucket).\(regional)", key)
        }
    }

    static func unquoted(_ etag: String) -> String { etag.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
}
