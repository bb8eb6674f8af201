public import Foundation
internal import Crypto

/// AWS Signature Version 4 for S3, written once: the canonical request, the string to sign and the
/// signing key, as docs.aws.amazon.com describes them and botocore computes them (the tests compare
/// the two request by request). The path and query are encoded here, and the request is sent with
/// exactly the encoding that was signed.
public struct SigV4Signer: Sendable {
    public let credentials: AWSCredentials
    public let region: String
    public let service: String

    public init(credentials: AWSCredentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// The hash of an empty body, the one every GET, HEAD and DELETE sends.
    public static let emptyPayloadSHA256 = hex(SHA256.hash(data: Data()))

    /// The SHA-256 of a body, in hex, for `x-amz-content-sha256`.
    public static func payloadSHA256(_ body: Data) -> String { hex(SHA256.hash(data: body)) }

    /// Signs a request to `scheme://host` (the host with its port when not the default) for `path`
    /// (unencoded, starting with `/`: `/bucket/a key/é.webm`) and `query` (unencoded names and values).
    /// `headers` are further headers to sign and send (`range`, `content-type`, `content-md5`).
    public func sign(method: String, scheme: String, host: String, path: String, query: [(String, String)] = [],
                     headers: [String: String] = [:], payloadSHA256: String, date: Date) -> SignedRequest {
        let amzDate = Self.timestamp(date)
        let day = String(amzDate.prefix(8))
        var all: [String: String] = [:]
        for (name, value) in headers { all[name.lowercased()] = Self.trimmed(value) }
        all["host"] = host
        all["x-amz-date"] = amzDate
        all["x-amz-content-sha256"] = payloadSHA256
        if let token = credentials.sessionToken { all["x-amz-security-token"] = token }
        let names = all.keys.sorted()
        let signedHeaders = names.joined(separator: ";")
        let canonicalHeaders = names.map { "\($0):\(all[$0]!)\n" }.joined()
        let encodedPath = Self.encode(path, keepingSlash: true)
        let canonicalQuery = Self.canonicalQuery(query)
        let canonicalRequest = [method, encodedPath, canonicalQuery, canonicalHeaders, signedHeaders, payloadSHA256].joined(separator: "\n")
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let signature = sign(canonicalRequest, amzDate: amzDate, scope: scope)
        all["authorization"] = "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyId)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)"
        let target = encodedPath + (canonicalQuery.isEmpty ? "" : "?" + canonicalQuery)
        return SignedRequest(method: method, url: "\(scheme)://\(host)\(target)", headers: all)
    }

    /// A presigned URL (the signature in the query string, `UNSIGNED-PAYLOAD`), valid for `expires`
    /// seconds from `date`: what StageMix hands FFmpeg to read a media object, whose own HTTP client
    /// then fetches exactly the byte ranges the demuxer asks for. Only `host` is signed, so the
    /// reader's `Range` headers need no signature of their own.
    public func presign(method: String = "GET", scheme: String, host: String, path: String, expires: Int, date: Date) -> String {
        let amzDate = Self.timestamp(date)
        let scope = "\(amzDate.prefix(8))/\(region)/\(service)/aws4_request"
        var query = [("X-Amz-Algorithm", "AWS4-HMAC-SHA256"), ("X-Amz-Credential", "\(credentials.accessKeyId)/\(scope)"),
                     ("X-Amz-Date", amzDate), ("X-Amz-Expires", String(expires)), ("X-Amz-SignedHeaders", "host")]
        if let token = credentials.sessionToken { query.append(("X-Amz-Security-Token", token)) }
        let encodedPath = Self.encode(path, keepingSlash: true)
        let canonicalQuery = Self.canonicalQuery(query)
        let canonicalRequest = [method, encodedPath, canonicalQuery, "host:\(host)\n", "host", "UNSIGNED-PAYLOAD"].joined(separator: "\n")
        let signature = sign(canonicalRequest, amzDate: amzDate, scope: scope)
        return "\(scheme)://\(host)\(encodedPath)?\(canonicalQuery)&X-Amz-Signature=\(signature)"
    }

    /// The signature of a canonical request: the string to sign, HMAC'd with the day's derived key.
    private func sign(_ canonicalRequest: String, amzDate: String, scope: String) -> String {
        let stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8)))].joined(separator: "\n")
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [String(amzDate.prefix(8)), region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
    }

    /// Names and values encoded, sorted by name then value, joined with `&`.
    static func canonicalQuery(_ query: [(String, String)]) -> String {
        query.map { (encode($0.0, keepingSlash: false), encode($0.1, keepingSlash: false)) }
            .sorted { ($0.0, $0.1) < ($1.0, $1.1) }
            .map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    /// RFC 3986 encoding as SigV4 wants it: unreserved characters as they are, every other UTF-8 byte
    /// as `%XX` in capitals; `/` kept in a path.
    static func encode(_ text: String, keepingSlash: Bool) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                out.append(Character(UnicodeScalar(byte)))
            case UInt8(ascii: "/") where keepingSlash:
                out.append("/")
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// A header value as signed: outer spaces trimmed, runs of spaces inside made one.
    static func trimmed(_ value: String) -> String {
        value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// `20261125T143000Z`.
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}

/// A signed request: the URL as it must be sent (encoded as signed) and every header to send.
public struct SignedRequest: Sendable, Hashable {
    public var method: String
    public var url: String
    /// Lower-case names, including `authorization`, `host`, `x-amz-date` and `x-amz-content-sha256`.
    public var headers: [String: String]
}
