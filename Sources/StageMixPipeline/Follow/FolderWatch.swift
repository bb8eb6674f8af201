import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Waits for something to change in a folder without polling: Linux inotify on the folder, woken by a
/// file renamed into it (a recorder replacing `session.json`), written and closed, or created. Where
/// inotify cannot be had (a file system without it, the watch limit reached) it waits the time out
/// instead, which is a look every `timeout` at most.
final class FolderWatch {
    private let descriptor: Int32

    init(_ folder: URL) {
        let fd = inotify_init1(Int32(IN_CLOEXEC) | Int32(IN_NONBLOCK))
        if fd >= 0, inotify_add_watch(fd, folder.path, UInt32(IN_MOVED_TO) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_CREATE)) < 0 {
            close(fd)
            descriptor = -1
        } else {
            descriptor = fd
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Returns when the folder changed or after `timeout` seconds, whichever comes first.
    func wait(timeout: Double) {
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
