import StageMixTime

/// The Ogg/WebM Opus identification header ("OpusHead", RFC 7845 section 5.1),
/// channel mapping family 0 (mono or stereo).
struct OpusHead: Equatable {
    var channels: Int
    var preSkip: Int
    var inputSampleRate: Int

    var bytes: [UInt8] {
        var b = Array("OpusHead".utf8)
        b.append(1)  // version
        b.append(UInt8(channels))
        b += [UInt8(preSkip & 0xff), UInt8(preSkip >> 8 & 0xff)]
        b += (0..<4).map { UInt8(inputSampleRate >> ($0 * 8) & 0xff) }
        b += [0, 0]  // output gain
        b.append(0)  // mapping family 0
        return b
    }

    init(channels: Int, preSkip: Int, inputSampleRate: Int = MediaTime.sampleRate) {
        self.channels = channels
        self.preSkip = preSkip
        self.inputSampleRate = inputSampleRate
    }

    init(parsing b: [UInt8]) throws(MediaError) {
        guard b.count >= 19, b.starts(with: Array("OpusHead".utf8)) else {
            throw MediaError(.invalidData, "Opus extradata is not an OpusHead (\(b.count) bytes)")
        }
        guard b[18] == 0 else {
            throw MediaError(.unsupportedCodec, "Opus channel mapping family \(b[18]) not supported")
        }
        channels = Int(b[9])
        preSkip = Int(b[10]) | Int(b[11]) << 8
        inputSampleRate = (0..<4).reduce(0) { $0 | Int(b[12 + $1]) << ($1 * 8) }
    }
}
