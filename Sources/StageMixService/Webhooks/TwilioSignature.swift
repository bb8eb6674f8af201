import Crypto
import Foundation

/// Twilio's request signature, `X-Twilio-Signature`: base64 of HMAC-SHA1, keyed with the secret (here
/// the API key's; at Twilio the account's auth token), over the full URL followed by each POST
/// parameter's name and value, sorted by name. A GET's parameters are in the URL, so the URL alone.
/// Twilio's libraries' `RequestValidator` checks it.
enum TwilioSignature {
    static func sign(url: String, parameters: [(name: String, value: String)], secret: String) -> String {
        let sorted = parameters.sorted { $0.name == $1.name ? $0.value < $1.value : $0.name < $1.name }
        let message = url + sorted.map { $0.name + $0.value }.joined()
        let code = HMAC<Insecure.SHA1>.authenticationCode(for: Data(message.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return Data(code).base64EncodedString()
    }
}
