public import Foundation
public import AsyncHTTPClient
internal import Crypto
internal import NIOCore
internal import NIOHTTP1
internal import StageMixTime

/// The S3 requests StageMix makes (GET, HEAD, PUT, copy, list, DELETE, multipart uploads) over
/// AsyncHTTPClient, each signed with ``SigV4Signer``, addressed as ``StorageConfiguration`` says, and
/// tried again with back-off when the store is busy or unreachable (``S3RetryPolicy``). Errors name
/// the `s3://` location and S3's code, never a credential.
///
/// Every request is an ``S3Call``: awaited from async code, or waited for by a compose thread.
public struct S3Client: Sendable {
    public let configuration: StorageConfiguration
    public let retry: S3RetryPolicy
    private let http: HTTPClient

    public init(configuration: StorageConfiguration, retry: S3RetryPolicy = .standard, http: HTTPClient = S3Client.sharedHTTPClient) {
        self.configuration = configuration
        self.retry = retry
        self.http = http
    }

    /// The object's bytes, or those of `range` (inclusive byte offsets). At most `maxBytes` are read,
    /// so an object larger than the caller expects cannot exhaust memory.
    public func get(_ location: S3Location, range: ClosedRange<Int>? = nil, maxBytes: Int = 64 << 20) -> S3Call<Data> {
        var headers: [String: String] = [:]
        if let range { headers["range"] = "bytes=\(range.lowerBound)-\(range.upperBound)" }
        return call(send("GET", location, headers: headers, maxResponseBytes: maxBytes).map { Data($0.body.readableBytesView) })
    }

    /// A small object's bytes with the ETag they were read at, or nil when there is none: what a
    /// conditional write (``S3WriteCondition/matching(_:)``) that replaces exactly this version needs.
    public func getVersioned(_ location: S3Location, maxBytes: Int = 1 << 20) -> S3Call<S3StoredBody?> {
        call(send("GET", location, maxResponseBytes: maxBytes).map { response -> S3StoredBody? in
            S3StoredBody(data: Data(response.body.readableBytesView), etag: Self.unquoted(response.headers["etag"] ?? ""))
        }.flatMapErrorThrowing { error in
            if let error = error as? S3Error, error.status == 404 { return nil }
            throw error
        })
    }

    /// The object's size and ETag, or nil when there is none.
    public func head(_ location: S3Location) -> S3Call<S3Object?> {
        call(send("HEAD", location).map { response -> S3Object? in
            S3Object(key: location.key, size: Int(response.headers["content-length"] ?? "") ?? 0,
                     etag: Self.unquoted(response.headers["etag"] ?? ""))
        }.flatMapErrorThrowing { error in
            if let error = error as? S3Error, error.status == 404 { return nil }
            throw error
        })
    }

    /// Writes an object whole. S3 checks the body against its Content-MD5, and the ETag it answers
    /// is checked against the same digest here: a body changed on the way is an error, not an object.
    ///
    /// With a `condition`, the store writes only if it holds (`If-None-Match: *`, `If-Match`), and
    /// answers 412 (``S3Error/isPreconditionFailed``) otherwise: how two writers of one key learn
    /// that only one of them may.
    public func put(_ location: S3Location, body: Data, contentType: String? = nil, condition: S3WriteCondition? = nil) -> S3Call<S3Object> {
        let md5 = Data(Insecure.MD5.hash(data: body))
        var headers = ["content-md5": md5.base64EncodedString()]
        if let contentType { headers["content-type"] = contentType }
        switch condition {
        case .absent?: headers["if-none-match"] = "*"
        case .matching(let etag)?: headers["if-match"] = "\"\(etag)\""
        case nil: break
        }
        return call(send("PUT", location, headers: headers, body: body).flatMapThrowing { response in
            let etag = try Self.checkETag(response, expected: SigV4Signer.hex(md5), location)
            return S3Object(key: location.key, size: body.count, etag: etag)
        })
    }

    /// Copies an object inside the store (no bytes through StageMix); up to 5 GiB, S3's limit for one copy.
    public func copy(_ source: S3Location, to destination: S3Location) -> S3Call<Void> {
        let header = "/\(source.bucket)/" + SigV4Signer.encode(source.key, keepingSlash: true)
        return call(send("PUT", destination, headers: ["x-amz-copy-source": header]).flatMapThrowing { response in
            try Self.checkNoEmbeddedError(response, destination)
        })
    }

    /// Every object under `prefix`, in key order, a page of at most 1,000 at a time. A prefix holding
    /// more than `limit` objects is an error (`ListingTooLong`), never a silently partial list, and
    /// cannot exhaust memory.
    public func list(_ prefix: S3Location, limit: Int = 100_000) -> S3Call<[S3Object]> {
        let loop = http.eventLoopGroup.any()
        func page(_ token: String?, _ objects: [S3Object]) -> EventLoopFuture<[S3Object]> {
            var query = [("list-type", "2"), ("prefix", prefix.key), ("max-keys", "1000")]
            if let token { query.append(("continuation-token", token)) }
            return send("GET", S3Location(bucket: prefix.bucket, key: ""), query: query, maxResponseBytes: 16 << 20, shownAs: prefix)
                .flatMap { response in
                    let xml = S3XML.parse(Data(response.body.readableBytesView))
                    let found = objects + xml.contents.compactMap { entry in
                        entry["Key"].map { S3Object(key: $0, size: Int(entry["Size"] ?? "") ?? 0, etag: Self.unquoted(entry["ETag"] ?? "")) }
                    }
                    guard xml.values["IsTruncated"] == "true" else { return loop.makeSucceededFuture(found) }
                    // A part of a listing is never taken for the whole: a caller deciding what a prefix holds must know.
                    guard let next = xml.values["NextContinuationToken"], found.count < limit else {
                        return loop.makeFailedFuture(S3Error(location: prefix.description, status: 0, code: "ListingTooLong",
                                                             message: "more than \(limit) objects are listed under this prefix"))
                    }
                    return page(next, found)
                }
        }
        return call(page(nil, []))
    }

    public func delete(_ location: S3Location) -> S3Call<Void> {
        call(send("DELETE", location).map { _ in })
    }

    /// Makes a bucket (tests and first runs against a fresh store; StageMix never needs to).
    public func createBucket(_ name: String) -> S3Call<Void> {
        call(send("PUT", S3Location(bucket: name, key: "")).map { _ in })
    }

    // MARK: Multipart uploads

    /// Starts a multipart upload; its id.
    public func createMultipartUpload(_ location: S3Location, contentType: String? = nil) -> S3Call<String> {
        call(send("POST", location, query: [("uploads", "")], headers: contentType.map { ["content-type": $0] } ?? [:])
            .flatMapThrowing { response in
                let xml = S3XML.parse(Data(response.body.readableBytesView))
                guard let id = xml.values["UploadId"], !id.isEmpty else {
                    throw S3Error(location: location.description, status: response.status, code: "NoUploadId",
                                  message: "the store started a multipart upload without naming it")
                }
                return id
            })
    }

    /// Uploads part `number` (1-based) of an upload; its ETag, checked against the part's MD5.
    public func uploadPart(_ location: S3Location, uploadId: String, number: Int, body: Data) -> S3Call<String> {
        let md5 = Data(Insecure.MD5.hash(data: body))
        return call(send("PUT", location, query: [("partNumber", String(number)), ("uploadId", uploadId)],
                         headers: ["content-md5": md5.base64EncodedString()], body: body)
            .flatMapThrowing { response in try Self.checkETag(response, expected: SigV4Signer.hex(md5), location) })
    }

    /// Completes an upload from its parts' ETags, in part order. The object's ETag is checked against
    /// the parts' (the MD5 of their MD5s, `-` and the count), and an error S3 hides in a 200 is thrown.
    public func completeMultipartUpload(_ location: S3Location, uploadId: String, parts: [String]) -> S3Call<Void> {
        let body = "<CompleteMultipartUpload>" + parts.enumerated().map { index, etag in
            "<Part><PartNumber>\(index + 1)</PartNumber><ETag>\"\(etag)\"</ETag></Part>"
        }.joined() + "</CompleteMultipartUpload>"
        var joined = Data()
        for etag in parts { joined.append(Self.bytes(hex: etag)) }
        let expected = SigV4Signer.hex(Insecure.MD5.hash(data: joined)) + "-\(parts.count)"
        return call(send("POST", location, query: [("uploadId", uploadId)], headers: ["content-type": "application/xml"],
                         body: Data(body.utf8))
            .flatMapThrowing { response in
                try Self.checkNoEmbeddedError(response, location)
                let etag = Self.unquoted(S3XML.parse(Data(response.body.readableBytesView)).values["ETag"] ?? "")
                guard etag.isEmpty || etag == expected else {
                    throw S3Error(location: location.description, status: response.status, code: "CompletedWithOtherParts",
                                  message: "the store answered ETag \(etag) for parts whose digest is \(expected)")
                }
            }
            .flatMapError { error in
                // A completion whose answer was lost completed: tried again, it finds no upload. The object
                // with these parts' digest says so.
                guard let error = error as? S3Error, error.code == "NoSuchUpload" else { return self.http.eventLoopGroup.any().makeFailedFuture(error) }
                return self.head(location).future.flatMapThrowing { object in
                    guard object?.etag == expected else { throw error }
                }
            })
    }

    public func abortMultipartUpload(_ location: S3Location, uploadId: String) -> S3Call<Void> {
        call(send("DELETE", location, query: [("uploadId", uploadId)]).map { _ in }.flatMapErrorThrowing { error in
            // Already completed or aborted: nothing is left to abort.
            if let error = error as? S3Error, error.status == 404 { return }
            throw error
        })
    }

    /// Multipart uploads begun under `prefix` and neither completed nor aborted (at most 1,000).
    public func listMultipartUploads(_ prefix: S3Location) -> S3Call<[S3Upload]> {
        call(send("GET", S3Location(bucket: prefix.bucket, key: ""), query: [("uploads", ""), ("prefix", prefix.key)],
                  maxResponseBytes: 16 << 20, shownAs: prefix)
            .map { response in
                S3XML.parse(Data(response.body.readableBytesView), entries: "Upload").contents.compactMap { entry in
                    guard let key = entry["Key"], let id = entry["UploadId"] else { return nil }
                    return S3Upload(key: key, uploadId: id)
                }
            })
    }

    // MARK: Presigned reads

    /// A URL that reads `location` without further credentials for `expires` seconds (to hand a player
    /// or a browser one object; StageMix's own reads go through ``get(_:range:maxBytes:)``). It holds a
    /// signature: show `location` in messages, never this URL.
    public func presignedURL(_ location: S3Location, expires: Int = 12 * 3600, date: Date = Date()) throws(S3Error) -> URL {
        let credentials = try requireCredentials(location)
        let (scheme, host, path) = address(location)
        let text = SigV4Signer(credentials: credentials, region: configuration.region)
            .presign(scheme: scheme, host: host, path: path, expires: expires, date: date)
        guard let url = URL(string: text) else {
            throw S3Error(location: location.description, status: 0, code: "InvalidURL", message: "cannot make a URL for this key")
        }
        return url
    }

    /// The process's client for object storage: a failed connection fails its request at once (the
    /// retries here decide what happens next, with back-off), rather than being tried again until the
    /// request's deadline; connecting may take 10 s, and an answer may go quiet for 60 s.
    public static let sharedHTTPClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .seconds(10), read: .seconds(60))
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.decompression = .disabled
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    // MARK: Requests

    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: ByteBuffer
    }

    private func call<T>(_ future: EventLoopFuture<T>) -> S3Call<T> { S3Call(future: future) }

    private func requireCredentials(_ location: S3Location) throws(S3Error) -> AWSCredentials {
        guard let credentials = configuration.credentials else {
            throw S3Error(location: location.description, status: 0, code: "NoCredentials",
                          message: "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a profile (docs/storage.md)")
        }
        return credentials
    }

    /// Sends one request, signing each attempt afresh, and tries again after a transient failure
    /// (5xx, `SlowDown`, a reset or timed-out connection) as ``S3RetryPolicy`` allows. `shownAs` is
    /// the location errors name (a listing's prefix rather than its bucket).
    private func send(_ method: String, _ location: S3Location, query: [(String, String)] = [], headers: [String: String] = [:],
                      body: Data = Data(), maxResponseBytes: Int = 1 << 20, shownAs: S3Location? = nil) -> EventLoopFuture<Response> {
        let loop = http.eventLoopGroup.any()
        let shown = (shownAs ?? location).description
        let credentials: AWSCredentials
        do { credentials = try requireCredentials(shownAs ?? location) } catch { return loop.makeFailedFuture(error) }
        let (scheme, host, path) = address(location)
        let payload = SigV4Signer.payloadSHA256(body)
        let retry = self.retry
        let http = self.http
        let region = configuration.region
        @Sendable func attempt(_ number: Int) -> EventLoopFuture<Response> {
            let signed = SigV4Signer(credentials: credentials, region: region)
                .sign(method: method, scheme: scheme, host: host, path: path, query: query, headers: headers,
                      payloadSHA256: payload, date: Date())
            let once: EventLoopFuture<Response>
            do {
                var requestHeaders = HTTPHeaders()
                for (name, value) in signed.headers where name != "host" { requestHeaders.add(name: name, value: value) }
                let sendsBody = !body.isEmpty || method == "PUT" || method == "POST"
                let request = try HTTPClient.Request(url: signed.url, method: HTTPMethod(rawValue: method), headers: requestHeaders,
                                                     body: sendsBody ? .byteBuffer(ByteBuffer(bytes: body)) : nil)
                once = http.execute(request: request, delegate: S3ResponseCollector(limit: maxResponseBytes), eventLoop: .delegate(on: loop),
                                    deadline: .now() + .milliseconds(Int64(retry.requestTimeout * 1000)))
                    .futureResult
                    .flatMapThrowing { response in try Self.checkStatus(response, method: method, shown: shown) }
            } catch {
                once = loop.makeFailedFuture(error)
            }
            return once.flatMapError { error in
                let failure = S3Error(error, location: shown, endpoint: "\(scheme)://\(host)")
                guard failure.isTransient, number < retry.attempts else { return loop.makeFailedFuture(failure) }
                let delay = retry.backoff.delay(afterAttempt: number, random: Double.random(in: 0...1))
                return loop.scheduleTask(in: .milliseconds(Int64(delay * 1000))) {}.futureResult.flatMap { attempt(number + 1) }
            }
        }
        return attempt(1)
    }

    /// A 2xx answer, or the S3 error it carries.
    private static func checkStatus(_ response: Response, method: String, shown: String) throws -> Response {
        guard !(200..<300).contains(response.status) else { return response }
        let error = S3XML.parse(Data(response.body.readableBytesView))
        let code = error.values["Code"] ?? (response.status == 404 ? "NotFound" : response.status == 403 ? "AccessDenied" : "HTTP\(response.status)")
        throw S3Error(location: shown, status: response.status, code: code, message: error.values["Message"] ?? "")
    }

    /// Copy and complete answer 200 and may still have failed: the error is the body.
    private static func checkNoEmbeddedError(_ response: Response, _ location: S3Location) throws {
        let xml = S3XML.parse(Data(response.body.readableBytesView))
        guard xml.root == "Error" else { return }
        throw S3Error(location: location.description, status: 500, code: xml.values["Code"] ?? "InternalError",
                      message: xml.values["Message"] ?? "")
    }

    private static func checkETag(_ response: Response, expected: String, _ location: S3Location) throws -> String {
        let etag = unquoted(response.headers["etag"] ?? "")
        // With SSE-KMS or SSE-C the ETag is not the body's MD5; the store has checked Content-MD5 itself.
        let encrypted = response.headers["x-amz-server-side-encryption"] == "aws:kms"
            || response.headers["x-amz-server-side-encryption"] == "aws:kms:dsse"
            || response.headers["x-amz-server-side-encryption-customer-algorithm"] != nil
        guard etag == expected || encrypted else {
            throw S3Error(location: location.description, status: response.status, code: "BadDigest",
                          message: "the store answered ETag \(etag) for a body whose MD5 is \(expected)")
        }
        return etag
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
        // A bucket name with dots is not covered by the wildcard certificate of virtual-hosted names:
        // path style, as botocore does.
        if location.bucket.contains(".") { return ("https", regional, "/\(location.bucket)" + (location.key.isEmpty ? "" : key)) }
        switch configuration.addressingStyle {
        case .path: return ("https", regional, "/\(location.bucket)" + (location.key.isEmpty ? "" : key))
        case .virtual: return ("https", "\(location.bucket).\(regional)", key)
        }
    }

    static func unquoted(_ etag: String) -> String { etag.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }

    private static func bytes(hex: String) -> Data {
        var data = Data()
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            if let byte = UInt8(hex[index..<next], radix: 16) { data.append(byte) }
            index = next
        }
        return data
    }
}
