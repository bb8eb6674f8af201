import Crypto

/// SHA-256 as lower-case hex, through swift-crypto.
enum SHA256Digest {
    static func hex(of bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
