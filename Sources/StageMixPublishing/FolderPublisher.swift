public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How StageMix puts an output folder in place on this machine, for `compose`, `synth` and the worker alike.
///
/// Output is written into a staging folder beside the target and published in one step: renamed
/// into place where nothing was, or exchanged with an earlier StageMix output (`renameat2`
/// `RENAME_EXCHANGE`), so that a crash at any instant leaves the old output or the new one. It
/// never replaces what StageMix did not write: a regular file, a symbolic link, a folder holding
/// anything its marker does not list, the capture or a folder around it.
public struct FolderPublisher: OutputPublishing {
    /// The output folder, as given (standardised).
    public let target: URL
    /// May an earlier StageMix output be replaced?
    public let overwrite: Bool
    /// The queue job publishing, if any: a job may always replace its own earlier output.
    public let job: String?
    /// Folders the output must neither be, lie in, nor contain (the capture).
    public let inputs: [URL]

    public init(target: URL, overwrite: Bool = false, job: String? = nil, protecting inputs: [URL] = []) {
        self.target = target.standardizedFileURL
        self.overwrite = overwrite
        self.job = job
        self.inputs = inputs
    }

    private var parent: URL { target.deletingLastPathComponent() }
    private var name: String { target.lastPathComponent }

    /// Throws ``OutputRefusal`` if writing the target could destroy something StageMix did not write.
    public func check() throws {
        let resolved = ResolvedPath(target)
        for input in inputs {
            let capture = ResolvedPath(input)
            if resolved.isWithin(capture) || capture.isWithin(resolved) {
                let how = resolved == capture ? "is" : resolved.isWithin(capture) ? "is inside" : "contains"
                throw OutputRefusal(.overlapsCapture, "--out \(target.path) \(how) the capture \(input.path); choose a folder outside it")
            }
        }
        var info = stat()
        guard lstat(target.path, &info) == 0 else { return }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK: throw OutputRefusal(.notAFolder, "--out \(target.path) is a symbolic link; StageMix replaces only folders it wrote")
        default: throw OutputRefusal(.notAFolder, "--out \(target.path) is an existing file, not a StageMix output folder; refusing to replace it")
        }
        let entries = try FileManager.default.contentsOfDirectory(atPath: target.path)
        if entries.isEmpty { return }
        guard let marker = OutputMarker.read(in: target) else {
            throw OutputRefusal(.foreignFolder, "--out \(target.path) is a folder StageMix did not write (\(Self.sample(entries))); refusing to replace it")
        }
        let foreign = entries.filter { $0 != OutputMarker.fileName && !marker.entries.contains($0) }
        if !foreign.isEmpty {
            throw OutputRefusal(.foreignFolder, "--out \(target.path) is an earlier StageMix output, but also holds files StageMix did not write (\(Self.sample(foreign))); refusing to replace it")
        }
        if !overwrite && (job == nil || marker.job != job) {
            throw OutputRefusal(.earlierOutput, "--out \(target.path) holds an earlier StageMix output; pass --overwrite to replace it")
        }
    }

    /// Removes what processes that are gone left for this target: staging folders and, where the
    /// target is missing because a fallback publish was cut off, puts the earlier output back.
    public func sweepLeftovers() {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: parent.path) else { return }
        for leftover in names.compactMap(StagingName.init(parsing:)) where leftover.belongs(to: name) && !leftover.owner.isAlive {
            let url = parent.appendingPathComponent(leftover.name)
            if leftover.isOldOutput, leftover.target == name, !fm.fileExists(atPath: target.path),
               (try? AtomicRename.moveWithoutReplacing(url, to: target)) == .done {
                continue
            }
            try? fm.removeItem(at: url)
        }
    }

    /// A staging path beside the target for this process, not yet created: where a child writes.
    public func stagingPath() -> URL {
        parent.appendingPathComponent(StagingName(target: name).name)
    }

    /// Creates a new staging folder beside the target (and the target's parent if needed).
    public func makeStaging() throws -> URL {
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        let staging = stagingPath()
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
        StagingRegistry.shared.add(staging)
        return staging
    }

    /// Checks again, marks `staging` as a StageMix output, and puts it in place of the target.
    public func publish(_ staging: URL) throws {
        try check()
        let entries = try FileManager.default.contentsOfDirectory(atPath: staging.path).filter { $0 != OutputMarker.fileName }
        try OutputMarker(entries: entries, job: job).write(in: staging)
        // On the disk before it is in place: a power loss after publication cannot lose it.
        try Durability.syncTree(staging)
        var info = stat()
        if lstat(target.path, &info) != 0 {
            switch try AtomicRename.moveWithoutReplacing(staging, to: target) {
            case .done: break
            case .unsupported: try AtomicRename.rename(staging, to: target)
            }
        } else {
            switch try AtomicRename.exchange(staging, target) {
            case .done:
                // The staging path now holds the earlier output.
                try? FileManager.default.removeItem(at: staging)
            case .unsupported:
                try publishByTwoRenames(staging)
            }
        }
        StagingRegistry.shared.remove(staging)
        // The rename itself is durable once the folder holding it is flushed.
        try Durability.sync(parent.path)
    }

    /// Where the file system cannot exchange: the earlier output is moved aside under a name that
    /// ``sweepLeftovers()`` restores if this process dies before the new one is in place.
    private func publishByTwoRenames(_ staging: URL) throws {
        let aside = parent.appendingPathComponent(StagingName(target: name, isOldOutput: true).name)
        try AtomicRename.rename(target, to: aside)
        do {
            try AtomicRename.rename(staging, to: target)
        } catch {
            try? AtomicRename.rename(aside, to: target)
            throw error
        }
        try? FileManager.default.removeItem(at: aside)
    }

    /// Removes a staging folder after a failure or a cancellation.
    public func discard(_ staging: URL) {
        try? FileManager.default.removeItem(at: staging)
        StagingRegistry.shared.remove(staging)
    }

    private static func sample(_ names: [String]) -> String {
        let sorted = names.sorted()
        return sorted.prefix(3).joined(separator: ", ") + (sorted.count > 3 ? ", and \(sorted.count - 3) more" : "")
    }
}
