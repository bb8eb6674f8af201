import Foundation
import Testing
import StageMixStorage
import StageMixTestSupport

/// Credentials, region, endpoint and addressing found as the AWS CLI finds them.
@Suite("Storage configuration")
struct StorageConfigurationTests {
    static let credentials = """
        [default]
        aws_access_key_id = AKIDDEFAULT
        aws_secret_access_key = default-secret

        # a comment
        [minio]
        aws_access_key_id=AKIDMINIO
        aws_secret_access_key=minio-secret
        aws_session_token = minio-token
        """
    static let config = """
        [default]
        region = eu-central-1

        [profile minio]
        region = us-west-2
        endpoint_url = http://10.0.0.1:9000
        s3 =
          addressing_style = virtual
          endpoint_url = http://127.0.0.1:9000

        [profile r2]
        endpoint_url = https://account.r2.cloudflarestorage.com
        aws_access_key_id = AKIDR2
        aws_secret_access_key = r2-secret
        """

    func home() -> ScratchDirectory {
        let scratch = ScratchDirectory("aws")
        scratch.write(Self.credentials, to: ".aws/credentials")
        scratch.write(Self.config, to: ".aws/config")
        return scratch
    }

    @Test func theDefaultProfileIsAWSVirtualHosted() throws {
        let home = home()
        defer { home.remove() }
        let c = try StorageConfiguration.resolve(environment: [:], home: home.url.path)
        #expect(c.credentials == AWSCredentials(accessKeyId: "AKIDDEFAULT", secretAccessKey: "default-secret"))
        #expect(c.region == "eu-central-1" && c.endpoint == nil && c.addressingStyle == .virtual)
    }

    @Test func aProfileTakesItsNestedS3Settings() throws {
        let home = home()
        defer { home.remove() }
        let c = try StorageConfiguration.resolve(environment: ["AWS_PROFILE": "minio"], home: home.url.path)
        #expect(c.credentials == AWSCredentials(accessKeyId: "AKIDMINIO", secretAccessKey: "minio-secret", sessionToken: "minio-token"))
        #expect(c.region == "us-west-2")
        #expect(c.endpoint?.absoluteString == "http://127.0.0.1:9000", "the s3 block's endpoint_url wins over the profile's")
        #expect(c.addressingStyle == .virtual, "addressing_style overrides the custom endpoint's path style")
    }

    @Test func credentialsInTheConfigFileAndPathStyleForACustomEndpoint() throws {
        let home = home()
        defer { home.remove() }
        let c = try StorageConfiguration.resolve(environment: ["AWS_PROFILE": "r2"], home: home.url.path)
        #expect(c.credentials?.accessKeyId == "AKIDR2" && c.region == "us-east-1")
        #expect(c.addressingStyle == .path)
    }

    @Test func theEnvironmentComesFirst() throws {
        let home = home()
        defer { home.remove() }
        let env = ["AWS_PROFILE": "minio", "AWS_ACCESS_KEY_ID": "AKIDENV", "AWS_SECRET_ACCESS_KEY": "env-secret",
                   "AWS_SESSION_TOKEN": "env-token", "AWS_REGION": "ap-south-1", "AWS_DEFAULT_REGION": "sa-east-1",
                   "AWS_ENDPOINT_URL": "http://127.0.0.1:1", "AWS_ENDPOINT_URL_S3": "http://127.0.0.1:5000"]
        let c = try StorageConfiguration.resolve(environment: env, home: home.url.path)
        #expect(c.credentials == AWSCredentials(accessKeyId: "AKIDENV", secretAccessKey: "env-secret", sessionToken: "env-token"))
        #expect(c.region == "ap-south-1" && c.endpoint?.absoluteString == "http://127.0.0.1:5000")
        let fallback = try StorageConfiguration.resolve(environment: ["AWS_DEFAULT_REGION": "sa-east-1", "AWS_ENDPOINT_URL": "http://127.0.0.1:1"],
                                                        home: home.url.path)
        #expect(fallback.region == "sa-east-1" && fallback.endpoint?.absoluteString == "http://127.0.0.1:1" && fallback.addressingStyle == .path)
    }

    @Test func filesMovedByTheEnvironment() throws {
        let elsewhere = ScratchDirectory("aws-files")
        defer { elsewhere.remove() }
        elsewhere.write("[default]\naws_access_key_id = AKIDMOVED\naws_secret_access_key = moved\n", to: "creds.ini")
        elsewhere.write("[default]\nregion = ca-central-1\n", to: "config.ini")
        let c = try StorageConfiguration.resolve(environment: ["AWS_SHARED_CREDENTIALS_FILE": elsewhere.file("creds.ini").path,
                                                               "AWS_CONFIG_FILE": elsewhere.file("config.ini").path],
                                                 home: "/nonexistent")
        #expect(c.credentials?.accessKeyId == "AKIDMOVED" && c.region == "ca-central-1")
    }

    @Test func mistakesAreNamedWithoutTheSecret() throws {
        let home = home()
        defer { home.remove() }
        let problems: [[String: String]] = [
            ["AWS_PROFILE": "nope"],
            ["AWS_ACCESS_KEY_ID": "AKIDONLY"],
            ["AWS_ENDPOINT_URL": "ftp://example.com"],
            ["AWS_CONFIG_FILE": "/nonexistent/config"],
        ]
        for env in problems {
            #expect(throws: StorageConfigurationError.self, "\(env)") { try StorageConfiguration.resolve(environment: env, home: home.url.path) }
        }
        do {
            _ = try StorageConfiguration.resolve(environment: ["AWS_PROFILE": "nope", "AWS_SECRET_ACCESS_KEY": "hidden-secret"], home: home.url.path)
            Issue.record("a missing profile was accepted")
        } catch {
            #expect("\(error)".contains("nope") && !"\(error)".contains("hidden-secret"))
        }
    }
}
