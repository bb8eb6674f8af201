import Foundation
import StageMixStorage

/// moto's S3 server (PyPI `moto[server]`) on a loopback port, with signature checking on: the first
/// three requests make an IAM user, its access key and a policy; every request after them must be
/// signed with that key, so a wrong signature is refused as AWS refuses it.
final class MotoServer: @unchecked Sendable {
    let process: Process
    let endpoint: URL
    let credentials: AWSCredentials

    init() throws {
        let port = try Self.python("import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        endpoint = URL(string: "http://127.0.0.1:\(port)")!
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", port]
        var environment = ProcessInfo.processInfo.environment
        environment["INITIAL_NO_AUTH_ACTION_COUNT"] = "3"
        process.environment = environment
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("stagemix-moto-\(port).log")
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
        credentials = AWSCredentials(accessKeyId: String(keys[0]), secretAccessKey: String(keys[1]).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    func configuration(secret: String? = nil) -> StorageConfiguration {
        var credentials = credentials
        if let secret { credentials.secretAccessKey = secret }
        return StorageConfiguration(credentials: credentials, region: "us-east-1", endpoint: endpoint, addressingStyle: .path)
    }

    /// moto's development server does not stop on SIGTERM: SIGKILL, then reap it.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    static func python(_ code: String) throws -> String {
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

    struct MotoError: Error, CustomStringConvertible {
        var message: String
        var description: String { "moto: \(message)" }
    }
}
