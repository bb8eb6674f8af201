public import ArgumentParser
import Foundation
public import StageMixOptions

extension ExitCode {
    public init(_ status: ComposeChild.ExitStatus) { self.init(status.rawValue) }
    public static let usageError = ExitCode(ComposeChild.ExitStatus.usageError)
    public static let badInput = ExitCode(ComposeChild.ExitStatus.badInput)
    public static let internalFailure = ExitCode(ComposeChild.ExitStatus.internalFailure)
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
    switch error {
    case let exit as ExitCode:
        return exit
    case let option as OptionError:
        FileHandle.standardError.write(Data("stagemix: \(option)\n".utf8))
        return .usageError
    case let bad as BadInput:
        FileHandle.standardError.write(Data("stagemix: \(bad)\n".utf8))
        return .badInput
    default:
        FileHandle.standardError.write(Data("stagemix: internal error: \(error)\n".utf8))
        return .internalFailure
    }
}
