/// The RFC 6381 `CODECS` name of an H.264 stream, `avc1.PPCCLL` (profile, constraint flags and
/// level in hex), as HLS master playlists list it. Read from the stream's sequence parameter set,
/// found in an `avcC` record or in Annex B bytes (extradata, or a keyframe packet).
public enum H264CodecString {
    public static func from(_ bytes: [UInt8]) -> String? {
        // avcC: version 1, then profile, compatibility, level.
        if bytes.count >= 4, bytes[0] == 1 { return name(bytes[1], bytes[2], bytes[3]) }
        var i = 0
        while i + 3 < bytes.count {
            // A start code (00 00 01; a four-byte 00 00 00 01 ends in the same three).
            if bytes[i] == 0, bytes[i + 1] == 0, bytes[i + 2] == 1 {
                let header = i + 3
                if bytes[header] & 0x1F == 7, header + 3 < bytes.count {
                    return name(bytes[header + 1], bytes[header + 2], bytes[header + 3])
                }
                i = header
            } else {
                i += 1
            }
        }
        return nil
    }

    private static func name(_ profile: UInt8, _ constraints: UInt8, _ level: UInt8) -> String {
        "avc1." + [profile, constraints, level].map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return hex.count == 1 ? "0" + hex : hex
        }.joined()
    }
}
