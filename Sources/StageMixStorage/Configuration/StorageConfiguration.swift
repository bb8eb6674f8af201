public import Foundation

/// Where and as whom StageMix talks to an S3-compatible store, found the way the AWS CLI and SDKs
/// find it (docs/storage.md): the environment first, then the shared credentials and config files
/// of the profile in use.
public struct StorageConfiguration: Sendable, Hashable {
    /// How a bucket is addressed: in the path (`https://endpoint/bucket/key`, for custom endpoints:
    /// MinIO, Ceph RGW, R2, B2, GCS) or in the host name (`https://bucket.s3.region.amazonaws.com/key`, AWS).
    public enum AddressingStyle: String, Sendable, Hashable { case path, virtual }

    public var credentials: AWSCredentials?
    public var region: String
    /// A custom endpoint (`http://127.0.0.1:9000`); nil for AWS itself.
    public var endpoint: URL?
    public var addressingStyle: AddressingStyle
    /// The profile the files were read for.
    public var profile: String

    public init(credentials: AWSCredentials?, region: String, endpoint: URL?, addressingStyle: AddressingStyle, profile: String = "default") {
        self.credentials = credentials
        self.region = region
        self.endpoint = endpoint
        self.addressingStyle = addressingStyle
        self.profile = profile
    }

    /// This process's configuration: its environment, and the files under `$HOME/.aws`. Read afresh
    /// each time (two small files), so a process that changes its environment sees the change.
    public static func fromEnvironment() throws(StorageConfigurationError) -> StorageConfiguration {
        let environment = ProcessInfo.processInfo.environment
        return try resolve(environment: environment, home: environment["HOME"] ?? NSHomeDirectory())
    }

    /// Resolves from `environment` and the files it points to (by default under `home`/.aws).
    ///
    /// Credentials: `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` (with `AWS_SESSION_TOKEN`), else the
    /// profile (`AWS_PROFILE`, else `default`) in the credentials file, else in the config file.
    /// Region: `AWS_REGION`, `AWS_DEFAULT_REGION`, the profile's `region`, else `us-east-1`.
    /// Endpoint: `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL`, the profile's `s3 = endpoint_url`, its
    /// `endpoint_url`, else AWS. Addressing: the profile's `s3 = addressing_style` (`path`, `virtual`,
    /// `auto`), else path style for a custom endpoint and virtual-hosted on AWS.
    public static func resolve(environment: [String: String], home: String) throws(StorageConfigurationError) -> StorageConfiguration {
        func env(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let profile = env("AWS_PROFILE") ?? env("AWS_DEFAULT_PROFILE") ?? "default"
        let credentialsPath = env("AWS_SHARED_CREDENTIALS_FILE") ?? "\(home)/.aws/credentials"
        let configPath = env("AWS_CONFIG_FILE") ?? "\(home)/.aws/config"
        let credentialsFile = try read(credentialsPath, named: env("AWS_SHARED_CREDENTIALS_FILE") != nil)
        let configFile = try read(configPath, named: env("AWS_CONFIG_FILE") != nil)
        let shared = credentialsFile?.profile(profile, isConfigFile: false) ?? [:]
        let config = configFile?.profile(profile, isConfigFile: true) ?? [:]
        if profile != "default", env("AWS_PROFILE") != nil, shared.isEmpty, config.isEmpty,
           env("AWS_ACCESS_KEY_ID") == nil {
            throw StorageConfigurationError("AWS_PROFILE \(profile): profile not found in \(looked(credentialsPath, credentialsFile, isConfigFile: false))"
                                            + " or \(looked(configPath, configFile, isConfigFile: true))")
        }

        var credentials: AWSCredentials?
        if let id = env("AWS_ACCESS_KEY_ID") {
            guard let secret = env("AWS_SECRET_ACCESS_KEY") else {
                throw StorageConfigurationError("AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not")
            }
            credentials = AWSCredentials(accessKeyId: id, secretAccessKey: secret, sessionToken: env("AWS_SESSION_TOKEN"))
        } else {
            for keys in [shared, config] {
                guard let id = keys["aws_access_key_id"] else { continue }
                guard let secret = keys["aws_secret_access_key"] else {
                    throw StorageConfigurationError("profile \(profile) has aws_access_key_id but no aws_secret_access_key")
                }
                credentials = AWSCredentials(accessKeyId: id, secretAccessKey: secret, sessionToken: keys["aws_session_token"])
                break
            }
        }

        let region = env("AWS_REGION") ?? env("AWS_DEFAULT_REGION") ?? config["region"] ?? "us-east-1"
        let endpointText = env("AWS_ENDPOINT_URL_S3") ?? env("AWS_ENDPOINT_URL") ?? config["s3.endpoint_url"] ?? config["endpoint_url"]
        var endpoint: URL?
        if let endpointText {
            guard let url = URL(string: endpointText), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  url.host != nil else {
                throw StorageConfigurationError("endpoint \(endpointText): expected an http or https URL such as http://127.0.0.1:9000")
            }
            endpoint = url
        }
        let style: AddressingStyle
        switch config["s3.addressing_style"]?.lowercased() {
        case "path": style = .path
        case "virtual": style = .virtual
        case nil, "auto": style = endpoint == nil ? .virtual : .path
        case let other?:
            throw StorageConfigurationError("profile \(profile): s3 addressing_style must be path, virtual or auto, not \(other)")
        }
        return StorageConfiguration(credentials: credentials, region: region, endpoint: endpoint, addressingStyle: style, profile: profile)
    }

    /// A file looked in for a profile, with what it holds, so that a misspelt name is seen at once.
    private static func looked(_ path: String, _ file: AWSConfigFile?, isConfigFile: Bool) -> String {
        guard let file else { return "\(path) (no such file)" }
        let names = file.profileNames(isConfigFile: isConfigFile)
        return "\(path) (profiles: \(names.isEmpty ? "none" : names.joined(separator: ", ")))"
    }

    /// A missing default file is no file; one named in the environment must exist.
    private static func read(_ path: String, named: Bool) throws(StorageConfigurationError) -> AWSConfigFile? {
        guard FileManager.default.fileExists(atPath: path) else {
            if named { throw StorageConfigurationError("\(path): no such file (named by the environment)") }
            return nil
        }
        // Shared files are small; one larger than 1 MiB is not one.
        guard let data = FileManager.default.contents(atPath: path), data.count <= 1 << 20 else {
            throw StorageConfigurationError("\(path): unreadable or over 1 MiB")
        }
        return AWSConfigFile(text: String(decoding: data, as: UTF8.self))
    }
}

/// A configuration that cannot be used as it stands; the message names the variable, file or profile.
public struct StorageConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
