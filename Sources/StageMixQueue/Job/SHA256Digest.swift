import Crypto
public import Foundation

/// SHA-256 as lower-case hex, through swift-crypto: job fingerprints, request keys, the names of
/// inline documents kept for a job.
public enum SHA256Digest {
    public static func hex(of bytes: some DataProtocol) -> String {
        SHA256.hash(data: bytes).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
