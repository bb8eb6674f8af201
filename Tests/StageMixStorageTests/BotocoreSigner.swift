import Foundation

/// botocore's own S3 signer (Python, preinstalled), asked to sign the same requests: the reference
/// our SigV4 is checked against, request by request.
enum BotocoreSigner {
    struct Request: Codable {
        var method: String
        var url: String
        var headers: [String: String]
        /// Base64: a binary body survives the trip through JSON byte for byte.
        var body: String
        var accessKeyId: String
        var secretAccessKey: String
        var sessionToken: String?
        var region: String
        var timestamp: String
        /// Set: a presigned URL valid this many seconds, instead of an Authorization header.
        var expires: Int? = nil
    }

    static let script = #"""
        import base64, json, sys, datetime
        import botocore.auth
        from botocore.awsrequest import AWSRequest
        from botocore.credentials import Credentials
        out = []
        for r in json.load(sys.stdin):
            fixed = datetime.datetime.strptime(r["timestamp"], "%Y%m%dT%H%M%SZ")
            # The signer reads the clock; give it the request's instant.
            if hasattr(botocore.auth, "get_current_datetime"):
                botocore.auth.get_current_datetime = lambda fixed=fixed: fixed
            class Clock(datetime.datetime):
                @classmethod
                def utcnow(cls, fixed=fixed): return fixed
            botocore.auth.datetime.datetime = Clock
            request = AWSRequest(method=r["method"], url=r["url"], headers=dict(r["headers"]), data=base64.b64decode(r["body"]))
            creds = Credentials(r["accessKeyId"], r["secretAccessKey"], r.get("sessionToken"))
            if r.get("expires") is not None:
                botocore.auth.S3SigV4QueryAuth(creds, "s3", r["region"], expires=r["expires"]).add_auth(request)
                out.append(request.url)
            else:
                botocore.auth.S3SigV4Auth(creds, "s3", r["region"]).add_auth(request)
                out.append(request.headers["Authorization"])
        print(json.dumps(out))
        """#

    /// The Authorization header botocore computes for each request (the presigned URL for a request with `expires`).
    static func authorizations(_ requests: [Request]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(try JSONEncoder().encode(requests))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problem = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BotocoreError(message: String(decoding: problem, as: UTF8.self))
        }
        return try JSONDecoder().decode([String].self, from: data)
    }

    struct BotocoreError: Error, CustomStringConvertible {
        var message: String
        var description: String { "botocore failed: \(message)" }
    }
}
