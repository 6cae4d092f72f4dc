import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`, for `FerryExecutable` and `ferry-sim`'s workers.
///
/// Not Foundation's `Process`: on Linux, `Process.run()` of Swift 6.3.1 reads each entry
/// of `/proc/self/fd` as a whole 256-byte `dirent` name and now and then reads past the end
/// of glibc's buffer, which crashed the test process (swift-corelibs-foundation pull
/// request 5472). The members tests use keep `Process`'s names.
public final class ChildProcess: Sendable {
    /// How the child ended.
    public enum TerminationReason: Sendable {
        case exit
        case uncaughtSignal
    }

    public let processIdentifier: Int32
    /// The child's wait status once it has been reaped.
    private let waitStatus = Mutex<Int32?>(nil)

    /// Starts `executable` with `arguments` in `directory`, its standard streams on
    /// `streams` (input, output, error); every other descriptor is closed in the child.
    public init(executable: String, arguments: [String], environment: [String: String], directory: String, streams: [Int32])
        throws
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, source) in streams.enumerated() {
            try Self.check(posix_spawn_file_actions_adddup2(&actions, source, Int32(target)), "route a stream")
        }
        try Self.check(Spawn.closeFrom(&actions, 3), "close the other descriptors")
        try Self.check(Spawn.changeDirectory(&actions, directory), "change to \(directory)")
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        #if canImport(Darwin)
        try Self.check(posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT)), "set the flags")
        #endif
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        try Self.check(posix_spawn(&pid, executable, &actions, &attributes, argv, envp), "start \(executable)")
        processIdentifier = pid
    }

    private static func check(_ result: Int32, _ doing: String) throws {
        guard result == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL, userInfo: [NSLocalizedDescriptionKey: "could not \(doing)"])
        }
    }

    /// Whether the child still runs (it is reaped once it has ended).
    public var isRunning: Bool {
        waitStatus.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            guard waitpid(processIdentifier, &raw, WNOHANG) == processIdentifier else { return true }
            status = raw
            return false
        }
    }

    /// Blocks until the child has ended.
    public func waitUntilExit() {
        while isRunning { usleep(2_000) }
    }

    /// The exit status, or the signal that ended it; valid once it has ended.
    public var terminationStatus: Int32 {
        let raw = waitStatus.withLock { $0 } ?? 0
        return raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
    }

    public var terminationReason: TerminationReason {
        (waitStatus.withLock { $0 } ?? 0) & 0x7f == 0 ? .exit : .uncaughtSignal
    }

    /// Sends `SIGTERM`.
    public func terminate() {
        _ = kill(processIdentifier, SIGTERM)
    }
}

/// The spawn file actions not every C library declares: looked up by name.
private enum Spawn {
    typealias Actions = UnsafeMutablePointer<posix_spawn_file_actions_t>
    private typealias CloseFrom = @convention(c) (Actions, Int32) -> Int32
    private typealias ChangeDirectory = @convention(c) (Actions, UnsafePointer<CChar>) -> Int32

    private static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        dlsym(dlopen(nil, RTLD_NOW), name)
    }

    /// Closes every descriptor from `lowest` in the child (glibc 2.34 and later; Darwin
    /// closes them through `POSIX_SPAWN_CLOEXEC_DEFAULT` instead).
    static func closeFrom(_ actions: Actions, _ lowest: Int32) -> Int32 {
        #if canImport(Darwin)
        return 0
        #else
        guard let function = symbol("posix_spawn_file_actions_addclosefrom_np") else { return ENOSYS }
        return unsafeBitCast(function, to: CloseFrom.self)(actions, lowest)
        #endif
    }

    static func changeDirectory(_ actions: Actions, _ path: String) -> Int32 {
        guard let function = symbol("posix_spawn_file_actions_addchdir_np") else { return ENOSYS }
        return unsafeBitCast(function, to: ChangeDirectory.self)(actions, path)
    }
}
