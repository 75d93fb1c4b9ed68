#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import NIOConcurrencyHelpers

/// Whether this process is the only one using a SQLite store right now, and has been since it last
/// asked. On SQLite no signal reaches another process (`LiveBus` works in memory), so what a process
/// keeps about people (`PersonChanges`) is good only while no other process (a second server, a
/// `fieldhouse user` command) could have written.
///
/// Every process that opens the store holds a shared `flock` on `<database>-processes` beside it for its
/// whole life and adds a byte to the file as it starts. Asking tries for an exclusive lock without
/// waiting (granted only if no other process holds one) and takes the shared one back; a file
/// longer than at the last look means a process started in between, even one already gone. Both
/// are a few system calls, cheap enough for every request.
final class StoreNeighbours: Sendable {
    private let descriptor: Int32
    private let lastSize = NIOLockedValueBox<Int64>(-1)

    /// Nil when the lock file cannot be opened: the process then never counts as alone.
    init?(database: String) {
        let path = database + "-processes"
        // As open to others as the database itself: whoever may write the store (a `fieldhouse`
        // command run by another account of the same group) must be able to say so.
        var store = stat()
        let mode = stat(database, &store) == 0 ? mode_t(store.st_mode) & 0o666 : 0o600
        let descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, mode)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_SH) == 0 else {
            close(descriptor)
            return nil
        }
        var byte: UInt8 = 0x2E
        _ = write(descriptor, &byte, 1)
        self.descriptor = descriptor
        // Its own start is seen already.
        var status = stat()
        if fstat(descriptor, &status) == 0 { lastSize.withLockedValue { $0 = Int64(status.st_size) } }
    }

    deinit { close(descriptor) }

    func alone() -> Bool {
        lastSize.withLockedValue { lastSize in
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { return false }
            let started = status.st_size != lastSize
            lastSize = Int64(status.st_size)
            // Changing a shared lock to an exclusive one drops the shared one first, so it is taken
            // again either way (waiting, if another process is asking at this very moment).
            let exclusive = flock(descriptor, LOCK_EX | LOCK_NB) == 0
            _ = flock(descriptor, LOCK_SH)
            return exclusive && !started
        }
    }
}
