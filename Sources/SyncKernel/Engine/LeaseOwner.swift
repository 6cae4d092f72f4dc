import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who holds an in-flight operation: `host:pid`, so that a later start can tell a lease
/// left by a killed process from one held by a live runner.
public struct LeaseOwner: Sendable, Equatable {
    /// The host name of the owner's machine.
    public let host: String
    /// The owner's process id on that host.
    public let pid: Int32

    /// This process.
    public static var current: LeaseOwner {
        LeaseOwner(host: ProcessInfo.processInfo.hostName, pid: getpid())
    }

    /// `host:pid`, as the outbox stores it.
    public var text: String { "\(host):\(pid)" }

    /// The process `pid` on `host`.
    public init(host: String, pid: Int32) {
        self.host = host
        self.pid = pid
    }

    /// Reads `host:pid` as `text` writes it; nil when it does not end in `:` and a pid.
    public init?(text: String) {
        guard let colon = text.lastIndex(of: ":"), let pid = Int32(text[text.index(after: colon)...]) else {
            return nil
        }
        self.init(host: String(text[..<colon]), pid: pid)
    }

    /// False when the owner is a process on this host that no longer exists. An owner on
    /// another host counts as alive: its leases are reclaimed only once they run out.
    public var isAlive: Bool {
        guard host == ProcessInfo.processInfo.hostName else { return true }
        return kill(pid, 0) == 0 || errno != ESRCH
    }
}
