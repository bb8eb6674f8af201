import Crypto
import Foundation

/// Standard Webhooks signing: `webhook-signature: v1,<base64 of HMAC-SHA256 over "id.timestamp.body">`,
/// keyed with the UTF-8 bytes of the API key's secret.
public enum WebhookSignature {
    public static func sign(id: String, timestamp: Int, body: String, secret: String) -> String {
        let message = Data("\(id).\(timestamp).\(body)".utf8)
        let code = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: Data(secret.utf8)))
        return "v1," + Data(code).base64EncodedString()
    }

    /// True if any `v1,` signature in `header` (space-separated) is the right one; compared in constant time.
    public static func verify(header: String, id: String, timestamp: Int, body: String, secret: String) -> Bool {
        let message = Data("\(id).\(timestamp).\(body)".utf8)
        let key = SymmetricKey(data: Data(secret.utf8))
        for part in header.split(separator: " ") where part.hasPrefix("v1,") {
            if let mac = Data(base64Encoded: String(part.dropFirst(3))),
               HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: message, using: key) {
                return true
            }
        }
        return false
    }
}
