internal import CFFmpeg

/// One compressed packet (AVPacket) with timestamps in its `timeBase`.
/// Immutable once made; the payload is reference-counted, so passing it on is cheap.
public final class Packet: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVPacket>

    /// Takes ownership of `pointer`.
    init(taking pointer: UnsafeMutablePointer<AVPacket>, timeBase: Rational) {
        self.pointer = pointer
        pointer.pointee.time_base = timeBase.av
    }

    /// A packet carrying `bytes`, e.g. an Opus packet made by libopus.
    public convenience init(bytes: [UInt8], pts: Int64?, duration: Int64, timeBase: Rational,
                            isKeyframe: Bool = true, streamIndex: Int = 0) throws(MediaError) {
        guard let p = av_packet_alloc() else { throw .outOfMemory("packet") }
        self.init(taking: p, timeBase: timeBase)
        try ffCheck(av_new_packet(p, Int32(bytes.count)), .outOfMemory, "packet payload")
        p.pointee.time_base = timeBase.av  // av_new_packet reset it
        bytes.withUnsafeBufferPointer { src in
            if let base = src.baseAddress { p.pointee.data.update(from: base, count: bytes.count) }
        }
        p.pointee.pts = pts ?? cff_AV_NOPTS_VALUE()
        p.pointee.dts = p.pointee.pts
        p.pointee.duration = duration
        p.pointee.stream_index = Int32(streamIndex)
        p.pointee.flags = isKeyframe ? AV_PKT_FLAG_KEY : 0
    }

    /// A new reference to this packet's payload with its timestamps and duration restamped, in
    /// `timeBase`: for containers that do not keep them (NUT keeps neither decoding times nor durations).
    public func restamped(pts: Int64, dts: Int64, duration: Int64, timeBase: Rational) throws(MediaError) -> Packet {
        guard let p = av_packet_alloc() else { throw .outOfMemory("packet") }
        let copy = Packet(taking: p, timeBase: timeBase)
        try ffCheck(av_packet_ref(p, pointer), .outOfMemory, "packet reference")
        p.pointee.time_base = timeBase.av
        p.pointee.pts = pts
        p.pointee.dts = dts
        p.pointee.duration = duration
        return copy
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&p)
    }

    public var streamIndex: Int { Int(pointer.pointee.stream_index) }
    public var pts: Int64? { optionalTimestamp(pointer.pointee.pts) }
    public var dts: Int64? { optionalTimestamp(pointer.pointee.dts) }
    public var duration: Int64 { pointer.pointee.duration }
    public var timeBase: Rational { Rational(pointer.pointee.time_base) }
    public var isKeyframe: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }
    public var size: Int { Int(pointer.pointee.size) }

    /// Presentation time in seconds, when the packet has one.
    public var ptsSeconds: Double? { pts.map { Double($0) * timeBase.doubleValue } }
    public var dtsSeconds: Double? { dts.map { Double($0) * timeBase.doubleValue } }

    /// A copy of the payload.
    public var bytes: [UInt8] {
        guard let data = pointer.pointee.data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Samples the container asks to drop from the start and end of this
    /// packet's decoded audio (AV_PKT_DATA_SKIP_SAMPLES), e.g. Ogg/Opus end trimming.
    public var skipSamples: (start: Int, end: Int) {
        var size: Int = 0
        guard let side = av_packet_get_side_data(pointer, AV_PKT_DATA_SKIP_SAMPLES, &size), size >= 8 else {
            return (0, 0)
        }
        func le32(_ at: Int) -> Int {
            Int(UInt32(side[at]) | UInt32(side[at + 1]) << 8 | UInt32(side[at + 2]) << 16 | UInt32(side[at + 3]) << 24)
        }
        return (le32(0), le32(4))
    }
}

func optionalTimestamp(_ value: Int64) -> Int64? {
    value == cff_AV_NOPTS_VALUE() ? nil : value
}
