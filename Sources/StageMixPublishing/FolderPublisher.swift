public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How StageMix puts an output folder in place on this machine, for `compose`, `synth` and the worker alike.
///
/// Output is written into a staging folder beside the target and published in one step: renamed
/// into place where nothing was (`renameat2` `RENAME_NOREPLACE`), or exchanged with an earlier
/// StageMix output (`RENAME_EXCHANGE`), so that a crash at any instant leaves the old output or the
/// new one. It never replaces what StageMix did not write: a regular file, a symbolic link, a
/// folder holding anything its marker does not list, the capture or a folder around it.
///
/// Two runs into one folder: the first look (``check()``) refuses while another live process is
/// writing an output there (its staging folder is beside the target), and a run that found no
/// output when it started never replaces one that appeared since (it is refused with
/// ``OutputRefusal/Reason/publishedMeanwhile``, unless `--overwrite`), so of two runs into a new
/// folder one publishes and the other's output is dropped, never the first's.
public struct FolderPublisher: OutputPublishing {
    /// The output folder, as given (standardised).
    public let target: URL
    /// May an earlier StageMix output be replaced?
    public let overwrite: Bool
    /// The queue job publishing, if any: a job may always replace its own earlier output.
    public let job: String?
    /// Folders the output must neither be, lie in, nor contain (the capture).
    public let inputs: [URL]
    /// Was there an output at the target when this publisher first looked?
    private let firstLook = FirstLook()

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
        let first = firstLook.isFirst()
        if first && !overwrite, let other = otherWriter() {
            throw OutputRefusal(.busy, "--out \(target.path): another StageMix run (pid \(other.pid)) is writing an output there; "
                + "nothing there was changed. Wait for it to finish, or choose another folder")
        }
        var info = stat()
        guard lstat(target.path, &info) == 0 else {
            if first { firstLook.record(hadOutput: false) }
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: break
        case S_IFLNK: throw OutputRefusal(.notAFolder, "--out \(target.path) is a symbolic link; StageMix replaces only folders it wrote")
        default: throw OutputRefusal(.notAFolder, "--out \(target.path) is an existing file, not a StageMix output folder; refusing to replace it")
        }
        let entries = try FileManager.default.contentsOfDirectory(atPath: target.path)
        if first { firstLook.record(hadOutput: !entries.isEmpty) }
        if entries.isEmpty { return }
        guard let marker = OutputMarker.read(in: target) else {
            throw OutputRefusal(.foreignFolder, "--out \(target.path) is a folder StageMix did not write (\(Self.sample(entries))); refusing to replace it")
        }
        let foreign = marker.unlisted(entries)
        if !foreign.isEmpty {
            throw OutputRefusal(.foreignFolder, "--out \(target.path) is an earlier StageMix output, but also holds files StageMix did not write (\(Self.sample(foreign))); refusing to replace it")
        }
        if !overwrite && (job == nil || marker.job != job) {
            if firstLook.hadOutput == false { throw OutputRefusal.publishedMeanwhile(at: target.path) }
            throw OutputRefusal(.earlierOutput, "--out \(target.path) holds an earlier StageMix output; pass --overwrite to replace it")
        }
    }

    /// A live process other than this one with a staging folder for this very target: another run
    /// writing here. (A worker's compose child stages under its worker's staging name, not the target's.)
    private func otherWriter() -> ProcessIdentity? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent.path) else { return nil }
        return names.compactMap(StagingName.init(parsing:))
            .first { $0.target == name && !$0.isOldOutput && $0.owner.pid != ProcessIdentity.current.pid && $0.owner.isAlive }?.owner
    }

    public func isPublishedByJob() -> Bool {
        guard let job else { return false }
        return OutputMarker.read(in: target)?.job == job
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
        if lstat(target.path, &info) == 0, (try? FileManager.default.contentsOfDirectory(atPath: target.path))?.isEmpty == true {
            // An empty folder is nobody's output: removed (only if still empty) and renamed over below.
            _ = rmdir(target.path)
        }
        if lstat(target.path, &info) != 0 {
            try moveIntoPlace(staging)
        } else {
            try replace(with: staging)
        }
        StagingRegistry.shared.remove(staging)
        // The rename itself is durable once the folder holding it is flushed.
        try Durability.sync(parent.path)
    }

    /// Renames `staging` to the target where nothing is, never over what appeared there since the
    /// last look: an output another run published meanwhile is refused, not replaced.
    private func moveIntoPlace(_ staging: URL) throws {
        do {
            switch try AtomicRename.moveWithoutReplacing(staging, to: target) {
            case .done: return
            case .unsupported: break
            }
        } catch let error as NSError where error.domain == NSPOSIXErrorDomain && (error.code == Int(EEXIST) || error.code == Int(ENOTEMPTY)) {
            // Refused unless this run may replace what appeared (--overwrite).
            try check()
            try replace(with: staging)
            return
        }
        // No RENAME_NOREPLACE here: link(2) cannot take folders, so the last look decides, as rename(2) must.
        try AtomicRename.rename(staging, to: target)
    }

    /// Exchanges `staging` with the earlier output at the target. The staging path then holds what
    /// was at the target: deleted only if it is a StageMix output, as check() found; anything that
    /// took its place meanwhile is put back.
    private func replace(with staging: URL) throws {
        switch try AtomicRename.exchange(staging, target) {
        case .done:
            if !Self.isStageMixOutput(staging) {
                _ = try? AtomicRename.exchange(staging, target)
                throw OutputRefusal(.foreignFolder, "--out \(target.path) changed while this run published (it now holds files StageMix did not write); "
                    + "refusing to replace it")
            }
            try? FileManager.default.removeItem(at: staging)
        case .unsupported:
            try publishByTwoRenames(staging)
        }
    }

    /// A folder with StageMix's marker and nothing the marker does not list.
    static func isStageMixOutput(_ folder: URL) -> Bool {
        guard let marker = OutputMarker.read(in: folder),
              let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return false }
        return marker.unlisted(entries).isEmpty
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
