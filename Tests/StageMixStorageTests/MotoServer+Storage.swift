import Foundation
import StageMixStorage
import StageMixTestSupport

extension MotoServer {
    var credentials: AWSCredentials { AWSCredentials(accessKeyId: accessKeyId, secretAccessKey: secretAccessKey) }

    func configuration(secret: String? = nil) -> StorageConfiguration {
        var credentials = credentials
        if let secret { credentials.secretAccessKey = secret }
        return StorageConfiguration(credentials: credentials, region: "us-east-1", endpoint: endpoint, addressingStyle: .path)
    }
}
