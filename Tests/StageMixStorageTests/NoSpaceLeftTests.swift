import Foundation
import Testing
import StageMixStorage
import StageMixTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// What Foundation throws for a write to a full disk is known as one, naming the file; nothing else is.
@Suite("no space left")
struct NoSpaceLeftTests {
    @Test(.enabled(if: SmallFileSystem.canMount, "mounting a small file system needs root"))
    func foundationsWritesToAFullDiskAreKnownAndNameTheFile() throws {
        let disk = try SmallFileSystem(bytes: 1 << 20)
        defer { disk.unmount() }
        try disk.fill(leaving: 0)
        let file = disk.root.appendingPathComponent("report.json")
        for options in [Data.WritingOptions.atomic, []] {
            do {
                try Data(count: 200_000).write(to: file, options: options)
                Issue.record("a write of 200 kB fitted on a full disk")
            } catch {
                let full = try #require(NoSpaceLeft(error), "\(error)")
                #expect(full.code == ENOSPC)
                #expect(full.description.hasPrefix("no space left on device: cannot write \(disk.root.path)/"), "\(full)")
            }
        }
        do {
            let handle = try FileHandle(forWritingTo: disk.root.appendingPathComponent("filler.bin"))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(count: 200_000))
            Issue.record("an append fitted on a full disk")
        } catch {
            // FileHandle names no file: the caller's path is used.
            #expect(NoSpaceLeft(error, path: "/srv/out/x")?.path == "/srv/out/x", "\(error)")
        }
    }

    @Test func otherErrorsAreNotAFullDisk() {
        #expect(NoSpaceLeft(CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "/a"])) == nil)
        #expect(NoSpaceLeft(NSError(domain: NSPOSIXErrorDomain, code: Int(EACCES)), path: "/a") == nil)
        #expect(NoSpaceLeft(NSError(domain: NSPOSIXErrorDomain, code: Int(EDQUOT)), path: "/a")?.description
                == "no space left on device (disk quota exceeded): cannot write /a")
        // A relative path is made absolute: the message names the file wherever the command ran.
        #expect(NoSpaceLeft(path: "out/hls/segment_00001.ts").path.hasPrefix("/"))
    }
}
