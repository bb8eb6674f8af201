public import StageMixTime

internal import CFFmpeg

/// Converts Float audio of any rate and channel count to another rate and channel count with
/// libswresample, keeping its filter state between calls so a stream converts without seams.
public final class AudioResampler: @unchecked Sendable {
    private var context: OpaquePointer?
    public let inputRate: Int
    public let inputChannels: Int
    public let outputRate: Int
    public let outputChannels: Int

    public init(inputRate: Int, inputChannels: Int, outputRate: Int = MediaTime.sampleRate, outputChannels: Int = 1) throws(MediaError) {
        guard inputRate > 0, inputChannels > 0, outputRate > 0, outputChannels > 0 else {
            throw MediaError(.invalidArgument, "cannot resample \(inputChannels) ch at \(inputRate) Hz to \(outputChannels) ch at \(outputRate) Hz")
        }
        var inLayout = AVChannelLayout()
        var outLayout = AVChannelLayout()
        av_channel_layout_default(&inLayout, Int32(inputChannels))
        av_channel_layout_default(&outLayout, Int32(outputChannels))
        defer {
            av_channel_layout_uninit(&inLayout)
            av_channel_layout_uninit(&outLayout)
        }
        var ctx: OpaquePointer?
        _ = try ffCheck(swr_alloc_set_opts2(&ctx, &outLayout, AV_SAMPLE_FMT_FLT, Int32(outputRate),
                                            &inLayout, AV_SAMPLE_FMT_FLT, Int32(inputRate), 0, nil),
                        .invalidArgument, "resampler \(inputRate) Hz -> \(outputRate) Hz")
        context = ctx
        self.inputRate = inputRate
        self.inputChannels = inputChannels
        self.outputRate = outputRate
        self.outputChannels = outputChannels
        _ = try ffCheck(swr_init(ctx), .invalidArgument, "resampler \(inputRate) Hz -> \(outputRate) Hz")
    }

    deinit { swr_free(&context) }

    /// Converts one block; the output may be a few samples shorter or longer than the ratio says,
    /// as the filter holds back or releases its delay.
    public func convert(_ samples: AudioSamples) throws(MediaError) -> AudioSamples {
        guard samples.channels == inputChannels, samples.sampleRate == inputRate else {
            throw MediaError(.invalidArgument, "resampler expects \(inputChannels) ch at \(inputRate) Hz, got \(samples.channels) ch at \(samples.sampleRate) Hz")
        }
        let inCount = samples.frameCount
        let capacity = Int(swr_get_out_samples(context, Int32(inCount))) + 16
        var out = [Float](repeating: 0, count: capacity * outputChannels)
        let converted = samples.interleaved.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { dst in
                var input: UnsafePointer<UInt8>? = src.baseAddress?.assumingMemoryBound(to: UInt8.self)
                var output: UnsafeMutablePointer<UInt8>? = dst.baseAddress?.assumingMemoryBound(to: UInt8.self)
                return swr_convert(context, &output, Int32(capacity), &input, Int32(inCount))
            }
        }
        _ = try ffCheck(converted, .decodeFailed, "resampling \(inputRate) Hz -> \(outputRate) Hz")
        out.removeLast((capacity - Int(converted)) * outputChannels)
        return AudioSamples(sampleRate: outputRate, channels: outputChannels, interleaved: out)
    }
}
