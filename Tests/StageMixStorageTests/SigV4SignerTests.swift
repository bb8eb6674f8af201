import Foundation
import Testing
@testable import StageMixStorage

/// Our SigV4 against botocore's, request by request: reserved characters in the query, unicode and
/// spaces in keys, empty and large payloads, ranges, session tokens.
@Suite("Signature Version 4")
struct SigV4SignerTests {
    struct Case {
        var method: String
        var path: String
        var query: [(String, String)] = []
        var headers: [String: String] = [:]
        var body = Data()
        var token: String? = nil
        var region = "us-east-1"
    }

    static let cases: [Case] = [
        Case(method: "GET", path: "/captures/session.json"),
        Case(method: "GET", path: "/captures/media/TR_ana_cam-high.webm", headers: ["range": "bytes=0-65535"]),
        Case(method: "HEAD", path: "/b/a key with spaces/é ü 名前.webm", region: "eu-west-3"),
        Case(method: "GET", path: "/bucket", query: [("list-type", "2"), ("prefix", "shows/2026/11 25/"), ("delimiter", "/"),
                                                      ("continuation-token", "a+b=c/d~e_f.g"), ("max-keys", "1000")]),
        Case(method: "GET", path: "/bucket", query: [("uploads", ""), ("prefix", "ünï code&=?#")]),
        Case(method: "PUT", path: "/out/c-1/hls/segment00001.ts", headers: ["content-type": "video/mp2t"],
             body: Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })),
        Case(method: "PUT", path: "/out/c-1/composition.mp4", query: [("partNumber", "3"), ("uploadId", "VXBsb2FkIElE+/=")],
             body: Data("part".utf8), token: "FwoGZXIvYXdzEJr//////////wEaDH+token/with=stuff"),
        Case(method: "DELETE", path: "/out/c-1/.stagemix-output", token: "session-token"),
        Case(method: "POST", path: "/out/c-1/composition.mp4", query: [("uploadId", "abc")],
             headers: ["content-type": "application/xml", "x-amz-checksum-sha256": "  spaced   value "],
             body: Data("<CompleteMultipartUpload/>".utf8)),
    ]

    @Test func everyRequestIsSignedAsBotocoreSignsIt() throws {
        let date = Date(timeIntervalSince1970: 1_795_000_000)
        var ours: [String] = []
        var requests: [BotocoreSigner.Request] = []
        for c in Self.cases {
            let credentials = AWSCredentials(accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", sessionToken: c.token)
            let signer = SigV4Signer(credentials: credentials, region: c.region)
            let signed = signer.sign(method: c.method, scheme: "http", host: "127.0.0.1:9000", path: c.path, query: c.query,
                                     headers: c.headers, payloadSHA256: SigV4Signer.payloadSHA256(c.body), date: date)
            ours.append(signed.headers["authorization"]!)
            // botocore adds host, x-amz-date, x-amz-content-sha256 and the token itself.
            var headers = c.headers
            headers.removeValue(forKey: "host")
            requests.append(.init(method: c.method, url: signed.url, headers: headers, body: c.body.base64EncodedString(),
                                  accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey,
                                  sessionToken: c.token, region: c.region, timestamp: SigV4Signer.timestamp(date)))
        }
        let theirs = try BotocoreSigner.authorizations(requests)
        #expect(theirs.count == ours.count)
        for (index, (a, b)) in zip(ours, theirs).enumerated() {
            #expect(a == b, "case \(index) \(Self.cases[index].method) \(Self.cases[index].path)")
        }
    }

    @Test func presignedURLsCarryTheSignatureBotocoreComputes() throws {
        let date = Date(timeIntervalSince1970: 1_795_000_000)
        let paths = ["/captures/session.json", "/b/a key with spaces/é ü 名前.webm", "/b/plus+equals=tilde~.webm"]
        for token in [nil, "FwoGZXIvYXdzEJr//////////wEaDH+token/with=stuff"] as [String?] {
            let credentials = AWSCredentials(accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", sessionToken: token)
            let signer = SigV4Signer(credentials: credentials, region: "eu-west-3")
            let ours = paths.map { signer.presign(scheme: "http", host: "127.0.0.1:9000", path: $0, expires: 3600, date: date) }
            let theirs = try BotocoreSigner.authorizations(zip(paths, ours).map { _, url in
                // botocore is given the bare URL; it adds the query itself.
                .init(method: "GET", url: String(url.prefix { $0 != "?" }), headers: [:], body: "", accessKeyId: credentials.accessKeyId,
                      secretAccessKey: credentials.secretAccessKey, sessionToken: token, region: "eu-west-3",
                      timestamp: SigV4Signer.timestamp(date), expires: 3600)
            })
            for (a, b) in zip(ours, theirs) {
                #expect(Self.query(a) == Self.query(b), "\(a)\n\(b)")
            }
        }
    }

    /// A URL's query as a set of encoded `name=value` pairs (the order of the two may differ).
    static func query(_ url: String) -> Set<String> {
        Set(url.split(separator: "?", maxSplits: 1).last.map { $0.split(separator: "&").map(String.init) } ?? [])
    }

    @Test func theURLSentIsTheOneSigned() {
        let signer = SigV4Signer(credentials: AWSCredentials(accessKeyId: "AK", secretAccessKey: "SK"), region: "us-east-1")
        let signed = signer.sign(method: "GET", scheme: "https", host: "s3.example.com", path: "/b/a b/é.webm",
                                 query: [("prefix", "x/y z"), ("a", "1")], payloadSHA256: SigV4Signer.emptyPayloadSHA256,
                                 date: Date(timeIntervalSince1970: 0))
        #expect(signed.url == "https://s3.example.com/b/a%20b/%C3%A9.webm?a=1&prefix=x%2Fy%20z")
        #expect(signed.headers["x-amz-date"] == "19700101T000000Z")
        #expect(signed.headers["x-amz-content-sha256"] == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func theSecretIsNeverInADescription() {
        let credentials = AWSCredentials(accessKeyId: "AKIAEXAMPLE", secretAccessKey: "very-secret-value", sessionToken: "token-value")
        for text in [credentials.description, credentials.debugDescription, "\(credentials)", String(reflecting: credentials)] {
            #expect(!text.contains("very-secret-value") && !text.contains("token-value"), "\(text)")
        }
    }
}
