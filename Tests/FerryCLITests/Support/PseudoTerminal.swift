import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pseudo-terminal pair: the child gets `terminal` (a real TTY, as a person's shell
/// would give it), the test keeps `controller` open and reads the terminal's settings.
final class PseudoTerminal: @unchecked Sendable {
    let controller: Int32
    let terminal: Int32

    init() throws {
        controller = PTY.open(O_RDWR | O_NOCTTY)
        guard controller >= 0, PTY.grant(controller) == 0, PTY.unlock(controller) == 0, let name = PTY.name(controller)
        else {
            throw Failure(description: "no pseudo-terminal available (errno \(errno))")
        }
        terminal = open(String(cString: name), O_RDWR | O_NOCTTY)
        guard terminal >= 0 else { throw Failure(description: "cannot open \(String(cString: name))") }
    }

    deinit {
        close(terminal)
        close(controller)
    }

    /// The terminal end as a file handle for a child's standard input.
    var handle: FileHandle { FileHandle(fileDescriptor: terminal, closeOnDealloc: false) }

    /// Whether the terminal echoes what is typed.
    var echoes: Bool {
        var settings = termios()
        tcgetattr(terminal, &settings)
        return settings.c_lflag & tcflag_t(ECHO) != 0
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}

/// The C library's pseudo-terminal functions. Glibc's module map leaves them out (they
/// need `_XOPEN_SOURCE`), so on Linux they are looked up by name; they are always in libc.
private enum PTY {
    #if canImport(Glibc)
    typealias Call = @convention(c) (Int32) -> Int32
    typealias NameCall = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    static func symbol<T>(_ name: String, as type: T.Type) -> T {
        unsafeBitCast(dlsym(nil, name), to: type)
    }

    static func open(_ flags: Int32) -> Int32 { symbol("posix_openpt", as: Call.self)(flags) }
    static func grant(_ fd: Int32) -> Int32 { symbol("grantpt", as: Call.self)(fd) }
    static func unlock(_ fd: Int32) -> Int32 { symbol("unlockpt", as: Call.self)(fd) }
    static func name(_ fd: Int32) -> UnsafeMutablePointer<CChar>? { symbol("ptsname", as: NameCall.self)(fd) }
    #else
    static func open(_ flags: Int32) -> Int32 { posix_openpt(flags) }
    static func grant(_ fd: Int32) -> Int32 { grantpt(fd) }
    static func unlock(_ fd: Int32) -> Int32 { unlockpt(fd) }
    static func name(_ fd: Int32) -> UnsafeMutablePointer<CChar>? { ptsname(fd) }
    #endif
}
