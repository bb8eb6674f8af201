import Crypto
import Foundation
import Hummingbird
import StageMixPublishing
import StageMixQueue
import StageMixStorage

/// Where `GET /v1/Compositions/{Sid}/Media` sends the caller, as Twilio's does: a URL that reads the
/// composition's MP4 without further credentials for `Ttl` seconds. An output in a bucket gets a
/// presigned GET of its `composition.mp4`; a local output, a link to this service's own
/// `.../Media/composition.mp4?Expires=...&Signature=...`, signed with the API key's secret (HMAC-SHA256
/// over the SID and the expiry), which serves the file with byte ranges for players.
enum TwilioMedia {
    static let defaultTtl = 3600
    static let maxTtl = 3600 * 24 * 7

    static func localFile(_ composition: Composition) -> String? {
        composition.destination.folder?.appendingPathComponent(OutputFiles.mp4).path
    }

    static func size(_ path: String) -> Int? {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue
    }

    /// The URL to send the caller to.
    static func link(_ composition: Composition, base: String, ttl: Int, secret: String, now: Double) throws(Problem) -> String {
        let sid = TwilioParameters.sid(of: composition.id)
        switch composition.destination {
        case .folder:
            let expires = Int(now) + ttl
            return "\(base)/v1/Compositions/\(sid)/Media/\(OutputFiles.mp4)?Expires=\(expires)&Signature=\(signature(sid: sid, expires: expires, secret: secret))"
        case .bucket(let prefix):
            let object = S3Location(bucket: prefix.bucket, key: prefix.key.isEmpty ? OutputFiles.mp4 : "\(prefix.key)/\(OutputFiles.mp4)")
            do {
                let client = S3Client(configuration: try StorageConfiguration.fromEnvironment())
                return try client.presignedURL(object, expires: ttl).absoluteString
            } catch {
                throw Problem.unavailable("cannot sign a link to \(object): \(error)")
            }
        }
    }

    static func signature(sid: String, expires: Int, secret: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data("GET \(sid) \(expires)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return TokenVerifier.base64URL(Data(code))
    }

    static func verify(_ given: String, sid: String, expires: Int, secret: String) -> Bool {
        // Compared as digests: constant time.
        SHA256.hash(data: Data(given.utf8)) == SHA256.hash(data: Data(signature(sid: sid, expires: expires, secret: secret).utf8))
    }

    /// The file, whole (200) or the one byte range asked for (206), or 416 for a range past its end.
    static func serve(_ path: String, range: String?, context: some RequestContext) async throws -> Response {
        guard let size = size(path), size > 0 else { throw Problem.notFound("the composition's media file is gone") }
        var headers: HTTPFields = [.contentType: "video/mp4", .acceptRanges: "bytes"]
        let fileIO = FileIO(threadPool: .singleton)
        guard let range, let bytes = byteRange(range, size: size) else {
            headers[.contentLength] = "\(size)"
            return Response(status: .ok, headers: headers, body: try await fileIO.loadFile(path: path, context: context))
        }
        guard let bytes = bytes else {
            headers[.contentRange] = "bytes */\(size)"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        }
        headers[.contentRange] = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(size)"
        headers[.contentLength] = "\(bytes.count)"
        return Response(status: .partialContent, headers: headers, body: try await fileIO.loadFile(path: path, range: bytes, context: context))
    }

    /// A single `bytes=` range: nil when the header is not one (served whole), `.some(nil)` when it lies past the end.
    static func byteRange(_ header: String, size: Int) -> ClosedRange<Int>?? {
        guard header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst("bytes=".count).split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard spec.count == 2 else { return nil }
        let first = spec[0].trimmingCharacters(in: .whitespaces), last = spec[1].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            guard let suffix = Int(last) else { return nil }
            // An empty suffix selects nothing: not satisfiable (RFC 9110 section 14.1.2).
            guard suffix > 0 else { return .some(nil) }
            return .some(max(0, size - suffix)...(size - 1))
        }
        guard let start = Int(first), start >= 0 else { return nil }
        guard start < size else { return .some(nil) }
        let end = last.isEmpty ? size - 1 : (Int(last).map { min($0, size - 1) } ?? -1)
        guard end >= start else { return nil }
        return .some(start...end)
    }
}
