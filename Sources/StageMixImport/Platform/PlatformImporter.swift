public import Foundation

/// One platform's importer, what `stagemix import PLATFORM DIR --out CAPTURE` runs on the folder's
/// scan (``PlatformFolder``). It reads the platform's documents first, so a malformed one refuses the
/// import before any media is touched; it may write media it makes into `staging/media` (the capture
/// being written, which is discarded whole on failure) and returns the capture, assembled with
/// ``PlatformSession``. Adding a platform is a folder beside `Agora/` with one of these.
public protocol PlatformImporter: Sendable {
    /// The subcommand's name and `import.json`'s `platform`.
    static var platform: String { get }

    func read(_ folder: PlatformFolder, staging: URL) throws -> ImportedCapture
}
