import StageMixTime

/// Each defaulted option as a composition runs it: the value given, or the default declared in
/// ``ComposeOptions``. Compose, plan and the stored job read these, never a default of their own.
extension ComposeOptions {
    public var layoutOrDefault: String { layout ?? Self.defaultLayout }
    public var segmentSecondsOrDefault: Double { segmentSeconds ?? Self.defaultSegmentSeconds }
    public var segmentFormatOrDefault: String { segmentFormat ?? Self.defaultSegmentFormat }
    public var presetOrDefault: String { preset ?? Self.defaultPreset }
    /// The video bitrate in bits a second (what `crf` leaves unused).
    public var videoBitrateOrDefault: Int { videoBitrate.flatMap(Self.bitrate) ?? Self.defaultVideoBitrate }
    public var audioBitrateOrDefault: Int { audioBitrate.flatMap(Self.bitrate) ?? Self.defaultAudioBitrate }
    public var encoderThreadsOrDefault: Int { encoderThreads ?? Self.defaultEncoderThreads }
    public var mp4OrDefault: Bool { mp4 ?? false }
    public var pauseGraceMsOrDefault: Int { MediaTime.ms(seconds: pauseGrace ?? Self.defaultPauseGraceSeconds) }
}
