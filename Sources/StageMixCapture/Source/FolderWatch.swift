public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Waits for something to change in a folder without polling: Linux inotify on the folder, woken by a
/// file renamed into it (a recorder replacing `session.json`), written and closed, or created, and,
/// with `growth`, by any write to a file in it (a recorder appending to a file it keeps open). Where
/// inotify cannot be had (a file system without it, the watch limit reached) it waits the time out
/// instead, which is a look every `timeout` at most.
public final class FolderWatch {
    private let descriptor: Int32

    public convenience init(_ folder: URL) { self.init([folder]) }

    /// Watches every folder of `folders` (one that cannot be watched is looked at by the time out).
    public init(_ folders: [URL], growth: Bool = false) {
        let fd = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        var mask = UInt32(IN_MOVED_TO) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_CREATE)
        if growth { mask |= UInt32(IN_MODIFY) }
        var watched = 0
        if fd >= 0 {
            for folder in Set(folders.map(\.standardizedFileURL.path)) where inotify_add_watch(fd, folder, mask) >= 0 { watched += 1 }
        }
        if fd >= 0, watched == 0 {
            close(fd)
            descriptor = -1
        } else {
            descriptor = fd
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Returns when the folder changed or after `timeout` seconds, whichever comes first.
    public func wait(timeout: Double) {
        guard descriptor >= 0 else {
            Thread.sleep(forTimeInterval: timeout)
            return
        }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, Int32(timeout * 1000))
        // Drain what arrived: the next wait waits for something new.
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(descriptor, &buffer, buffer.count) > 0 {}
    }
}
