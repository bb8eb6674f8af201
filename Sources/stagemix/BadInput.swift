import ArgumentParser
import Foundation

/// Input the user can fix (capture, layout, options): printed as is, exit code 65.
/// Anything else that escapes a command is an internal failure: exit code 70.
struct BadInput: Error, CustomStringConvertible {
    var underlying: any Error
    init(_ underlying: any Error) { self.underlying = underlying }
    var description: String { "\(underlying)" }
}

extension ExitCode {
    static let badInput = ExitCode(65)
    static let internalFailure = ExitCode(70)
}

/// Runs a command body, mapping errors to the two exit codes with a message on stderr.
func runReportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as BadInput {
        FileHandle.standardError.write(Data("stagemix: \(error)\n".utf8))
        throw ExitCode.badInput
    } catch let error as ExitCode {
        throw error
    } catch {
        FileHandle.standardError.write(Data("stagemix: internal error: \(error)\n".utf8))
        throw ExitCode.internalFailure
    }
}
