/// What a reader does with a capture still being recorded (the contract's "A capture in progress":
/// `session.json` without `session.ended`, with `"recording": {"completeToMs": N}`).
public enum CaptureInProgress: Sendable {
    /// Refuse it, naming `$.recording` and `compose --follow`: every command but those below.
    case refuse
    /// Take what is final so far: the events before `completeToMs`, the session ended there for now,
    /// with a warning saying so (`stagemix plan`, and `compose --follow` chunk by chunk). Events at or
    /// after `completeToMs` are checked like the rest but left out: others may still come before them.
    case knownSoFar
}
