import Foundation
import NIOConcurrencyHelpers

/// The API keys and their secrets, from a JSON file `{"keys": {"KEY": "SECRET"}}`, read at start and
/// again on ``reload()`` (SIGHUP). A reload that fails keeps the keys in use and says why.
public final class APIKeyStore: Sendable {
    public let path: String
    private let keys: NIOLockedValueBox<[String: String]>

    /// Secrets shorter than this are refused: an HS256 key should be at least as long as its hash (32 bytes).
    public static let minimumSecretBytes = 32

    public init(path: String) throws {
        self.path = path
        keys = NIOLockedValueBox(try Self.load(path))
    }

    public func secret(for key: String) -> String? {
        keys.withLockedValue { $0[key] }
    }

    public var count: Int { keys.withLockedValue { $0.count } }

    /// Reads the file again; on error the keys in use stay.
    public func reload() throws {
        let fresh = try Self.load(path)
        keys.withLockedValue { $0 = fresh }
    }

    static func load(_ path: String) throws -> [String: String] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ServiceSetupError("keys file \(path): cannot read it (\(error.localizedDescription))")
        }
        guard data.count <= 1 << 20 else { throw ServiceSetupError("keys file \(path): larger than 1 MiB") }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ServiceSetupError("keys file \(path): not a JSON object; expected {\"keys\": {\"KEY\": \"SECRET\"}}")
        }
        if let unknown = object.keys.first(where: { $0 != "keys" }) {
            throw ServiceSetupError("keys file \(path): unknown field $.\(unknown); expected {\"keys\": {\"KEY\": \"SECRET\"}}")
        }
        guard let keys = object["keys"] as? [String: Any] else {
            throw ServiceSetupError("keys file \(path): $.keys must be an object of API key to secret")
        }
        var out: [String: String] = [:]
        for (key, value) in keys {
            guard !key.isEmpty, key.count <= 128, key.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
                throw ServiceSetupError("keys file \(path): $.keys: API key '\(key.prefix(40))' must be 1 to 128 printable ASCII characters")
            }
            guard let secret = value as? String else {
                throw ServiceSetupError("keys file \(path): $.keys.\(key) must be a string (the secret)")
            }
            guard secret.utf8.count >= minimumSecretBytes else {
                throw ServiceSetupError("keys file \(path): $.keys.\(key): the secret must be at least \(minimumSecretBytes) bytes")
            }
            out[key] = secret
        }
        return out
    }
}
