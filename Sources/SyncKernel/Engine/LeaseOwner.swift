import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who holds an in-flight operation: `host:pid`, so that a later start can tell a lease
/// left by a killed process from one held by a live runner.
public struct LeaseOwner: Sendable, Equatable {
    public let host: String
    public let pid: Int32

    public static var current: LeaseOwner {
        LeaseOwner(host: ProcessInfo.processInfo.hostName, pid: getpid())
    }

    public var text: String { "\(host):\(pid)" }

    public init(host: String, pid: Int32) {
        self.host = host
        self.pid = pid
    }

    public init?(text: String) {
        guard let colon = text.lastIndex(of: ":"), let pid = Int32(text[text.index(after: colon)...]) else {
            return nil
        }
        self.init(host: String(text[..<colon]), pid: pid)
    }

    /// False when the owner is a process on this host that no longer exists.
    public var isAlive: Bool {
        guard host == ProcessInfo.processInfo.hostName else { return true }
        return kill(pid, 0) == 0 || errno != ESRCH
    }
}
