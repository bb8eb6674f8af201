public import ArgumentParser
import Foundation
public import StageMixOptions
public import StageMixStorage
import StageMixCapture
import StageMixPublishing

extension ExitCode {
    public init(_ status: ComposeChild.ExitStatus) { self.init(status.rawValue) }
    public static let usageError = ExitCode(ComposeChild.ExitStatus.usageError)
    public static let badInput = ExitCode(ComposeChild.ExitStatus.badInput)
    public static let internalFailure = ExitCode(ComposeChild.ExitStatus.internalFailure)
    public static let temporaryFailure = ExitCode(ComposeChild.ExitStatus.temporaryFailure)
    public static let noRoom = ExitCode(ComposeChild.ExitStatus.noRoom)
    public static let noSpaceLeft = ExitCode(ComposeChild.ExitStatus.noSpaceLeft)
}

/// The full disk behind `error`, however it was wrapped on the way.
public func noSpaceLeft(in error: any Error) -> NoSpaceLeft? {
    if let bad = error as? BadInput { return noSpaceLeft(in: bad.underlying) }
    return NoSpaceLeft(error)
}

/// Runs a command body, mapping errors to the two exit codes with a message on stderr.
public func runReportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch {
        throw reported(error)
    }
}

/// The same for a command body that awaits.
public func runReportingErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch {
        throw reported(error)
    }
}

/// Prints `error` and returns the exit code it maps to.
private func reported(_ error: any Error) -> ExitCode {
    if let short = error as? NotEnoughSpace {
        try? FileHandle.standardError.write(contentsOf: Data("stagemix: \(short)\n".utf8))
        return .noRoom
    }
    if let full = noSpaceLeft(in: error) {
        // Not the input's fault nor ours: the machine's, and the same command succeeds once there is room.
        try? FileHandle.standardError.write(contentsOf: Data("stagemix: \(full)\n".utf8))
        return .noSpaceLeft
    }
    if let storage = storageFailure(error) {
        // The store's own words, naming the URL: wrong keys, a missing bucket or key, access denied
        // are the input's fault (65); a store that stayed unreachable or failing is temporary (75).
        try? FileHandle.standardError.write(contentsOf: Data("stagemix: \(storage.isTransient ? "object storage unavailable: " : "")\(storage)\n".utf8))
        return storage.isTransient ? .temporaryFailure : .badInput
    }
    if let configuration = storageConfigurationFailure(error) {
        // This machine's storage set-up (a misspelt AWS_PROFILE, a missing file): said as it is, as
        // the environment's fault rather than the input's, with the status README gives it.
        try? FileHandle.standardError.write(contentsOf: Data("stagemix: \(configuration)\n".utf8))
        return .badInput
    }
    switch error {
    case let exit as ExitCode:
        return exit
    case let option as OptionError:
        try? FileHandle.standardError.write(contentsOf: Data("stagemix: \(option)\n".utf8))
        return .usageError
    case let bad as BadInput where bad.underlying is OutputRefusal:
        return reported(bad.underlying)
    case let bad as BadInput:
        try? FileHandle.standardError.write(contentsOf: Data("stagemix: \(bad)\n".utf8))
        return .badInput
    case let refusal as OutputRefusal:
        try? FileHandle.standardError.write(contentsOf: Data("stagemix: \(refusal)\n".utf8))
        // Another run writing the destination: the same command succeeds once it is done.
        return refusal.isTemporary ? .temporaryFailure : .badInput
    default:
        try? FileHandle.standardError.write(contentsOf: Data("stagemix: internal error: \(error)\n".utf8))
        return .internalFailure
    }
}

/// The storage configuration's error behind `error`, however it was wrapped on the way.
private func storageConfigurationFailure(_ error: any Error) -> StorageConfigurationError? {
    switch error {
    case let configuration as StorageConfigurationError: configuration
    case let capture as CaptureError: capture.configuration
    case let bad as BadInput: storageConfigurationFailure(bad.underlying)
    default: nil
    }
}

/// The object store's error behind `error`, however it was wrapped on the way.
private func storageFailure(_ error: any Error) -> S3Error? {
    switch error {
    case let storage as S3Error: storage
    case let capture as CaptureError: capture.storage
    case let bad as BadInput: storageFailure(bad.underlying)
    default: nil
    }
}
