#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a composition asks of the thread it runs on: a name that shows in `top -H` and `perf`, and
/// the CPU time it has used (for `report.json`'s breakdown of where the time went).
public enum CurrentThread {
    /// Names the calling thread; the kernel keeps the first 15 bytes. (Through /proc, as Swift's
    /// Glibc module does not export pthread_setname_np; elsewhere this does nothing.)
    public static func setName(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }

    /// CPU seconds (user + system) the calling thread has used so far.
    public static var cpuSeconds: Double { seconds(of: CLOCK_THREAD_CPUTIME_ID) }

    /// CPU seconds (user + system) the whole process, every thread, has used so far.
    public static var processCPUSeconds: Double { seconds(of: CLOCK_PROCESS_CPUTIME_ID) }

    private static func seconds(of clock: clockid_t) -> Double {
        var ts = timespec()
        guard clock_gettime(clock, &ts) == 0 else { return 0 }
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
