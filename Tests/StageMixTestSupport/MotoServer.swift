public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// moto's S3 server (PyPI `moto[server]`) on a loopback port, with signature checking on: the first
/// three requests make an IAM user, its access key and a policy; every request after them must be
/// signed with that key, so a wrong signature is refused as AWS refuses it. Its request log (one line
/// per request, as the server saw it) is how tests see which objects were fetched.
public final class MotoServer: @unchecked Sendable {
    let process: Process
    public let endpoint: URL
    public let accessKeyId: String
    public let secretAccessKey: String
    /// The server's log: `"GET /bucket/key?... HTTP/1.1" 206 -` per request.
    public let log: URL

    public init() throws {
        let port = try Self.freePort()
        endpoint = URL(string: "http://127.0.0.1:\(port)")!
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", port]
        var environment = ProcessInfo.processInfo.environment
        environment["INITIAL_NO_AUTH_ACTION_COUNT"] = "3"
        process.environment = environment
        log = FileManager.default.temporaryDirectory.appendingPathComponent("stagemix-moto-\(port).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        let keys = try Self.python(#"""
            import boto3, json, time, botocore
            iam = boto3.client("iam", endpoint_url="\#(endpoint.absoluteString)", region_name="us-east-1",
                               aws_access_key_id="setup", aws_secret_access_key="setup")
            for attempt in range(200):
                try:
                    iam.create_user(UserName="stagemix")
                    break
                except botocore.exceptions.EndpointConnectionError:
                    time.sleep(0.1)
            key = iam.create_access_key(UserName="stagemix")["AccessKey"]
            iam.put_user_policy(UserName="stagemix", PolicyName="all", PolicyDocument=json.dumps(
                {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]}))
            print(key["AccessKeyId"], key["SecretAccessKey"])
            """#).split(separator: " ")
        guard keys.count == 2 else { throw MotoError(message: "moto gave no access key: \(keys)") }
        accessKeyId = String(keys[0])
        secretAccessKey = String(keys[1]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The environment a `stagemix` process reaches this server with, as a user's would: keys,
    /// region and endpoint in `AWS_*` variables, and no shared files.
    public func environment(secret: String? = nil, endpoint: URL? = nil) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in environment.keys where name.hasPrefix("AWS_") { environment.removeValue(forKey: name) }
        environment["AWS_ACCESS_KEY_ID"] = accessKeyId
        environment["AWS_SECRET_ACCESS_KEY"] = secret ?? secretAccessKey
        environment["AWS_REGION"] = "us-east-1"
        environment["AWS_ENDPOINT_URL"] = (endpoint ?? self.endpoint).absoluteString
        // A home without `.aws`: what the process knows of the store is what these variables say.
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("stagemix-home-without-aws")
        try? FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        environment["HOME"] = home.path
        return environment
    }

    /// Runs boto3 code against this server with its keys: `s3` is a client, `E` the endpoint.
    @discardableResult
    public func boto3(_ code: String) throws -> String {
        try Self.python("""
            import boto3, json, os, sys
            s3 = boto3.client("s3", endpoint_url="\(endpoint.absoluteString)", region_name="us-east-1",
                              aws_access_key_id="\(accessKeyId)", aws_secret_access_key="\(secretAccessKey)")
            \(code.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n"))
            """)
    }

    /// Uploads every file under `folder` to `s3://bucket/prefix/…` (making the bucket if needed).
    public func upload(_ folder: URL, bucket: String, prefix: String) throws {
        try boto3("""
            try:
                s3.create_bucket(Bucket="\(bucket)")
            except s3.exceptions.BucketAlreadyOwnedByYou:
                pass
            root = "\(folder.path)"
            for d, _, files in os.walk(root):
                for f in files:
                    p = os.path.join(d, f)
                    s3.upload_file(p, "\(bucket)", "\(prefix)/" + os.path.relpath(p, root))
            """)
    }

    /// Every object under `s3://bucket/prefix` (its relative key to its bytes' SHA-256), listed by boto3.
    public func objects(bucket: String, prefix: String) throws -> [String: String] {
        let text = try boto3("""
            import hashlib
            out = {}
            for page in s3.get_paginator("list_objects_v2").paginate(Bucket="\(bucket)", Prefix="\(prefix)"):
                for o in page.get("Contents", []):
                    body = s3.get_object(Bucket="\(bucket)", Key=o["Key"])["Body"].read()
                    out[o["Key"][len("\(prefix)"):].lstrip("/")] = hashlib.sha256(body).hexdigest()
            print(json.dumps(out))
            """)
        return try JSONDecoder().decode([String: String].self, from: Data(text.utf8))
    }

    /// The bytes of one object.
    public func object(bucket: String, key: String) throws -> Data {
        let text = try boto3("""
            import base64
            print(base64.b64encode(s3.get_object(Bucket="\(bucket)", Key="\(key)")["Body"].read()).decode())
            """)
        return Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? Data()
    }

    /// Multipart uploads begun and neither completed nor aborted in `bucket`.
    public func openMultipartUploads(bucket: String) throws -> Int {
        Int(try boto3("""
            print(len(s3.list_multipart_uploads(Bucket="\(bucket)").get("Uploads", [])))
            """).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// How long the log is now: requests after this point are a later run's.
    public func logMark() -> Int { (try? Data(contentsOf: log).count) ?? 0 }

    /// Request lines logged since `mark`: method and path (without the query).
    public func requests(since mark: Int) -> [(method: String, path: String)] {
        guard let data = try? Data(contentsOf: log), data.count >= mark else { return [] }
        return String(decoding: data[mark...], as: UTF8.self).split(separator: "\n").compactMap { line in
            guard let open = line.firstIndex(of: "\"") else { return nil }
            let parts = line[line.index(after: open)...].split(separator: " ")
            guard parts.count >= 2 else { return nil }
            let path = parts[1].split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
            return (String(parts[0]), path.removingPercentEncoding ?? path)
        }
    }

    /// moto's development server does not stop on SIGTERM: SIGKILL, then reap it.
    public func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: log)
    }

    /// A loopback port nothing listens on now, for a test server to take.
    public static func freePort() throws -> String {
        try python("import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public static func python(_ code: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", code]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problem = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw MotoError(message: String(decoding: problem, as: UTF8.self)) }
        return String(decoding: data, as: UTF8.self)
    }

    public struct MotoError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { "moto: \(message)" }
    }
}
