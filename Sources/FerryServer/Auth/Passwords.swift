import Foundation
import HummingbirdBcrypt
import Synchronization

/// Checks passwords with bcrypt on a thread of its own, never on the event loop, and at
/// the same cost whether the username exists or not, so that the time a login takes
/// does not tell which usernames exist.
final class Passwords: Sendable {
    private let cost: UInt8
    /// A hash at the configured cost to check against for an unknown username, made on
    /// first use (not at start: it costs as much as a login).
    private let unknownUserHash = Mutex<String?>(nil)

    init(cost: UInt8) {
        self.cost = max(4, min(31, cost))
    }

    /// Whether `password` matches `hash`; with no hash (an unknown user) it checks against
    /// a hash of the same cost and answers false.
    func verify(_ password: String, hash: String?) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                let matches = Bcrypt.verify(password, hash: hash ?? self.hashForUnknownUsers())
                continuation.resume(returning: hash != nil && matches)
            }
        }
    }

    func hashForUnknownUsers() -> String {
        unknownUserHash.withLock { stored in
            if let stored { return stored }
            let made = Bcrypt.hash("ferry-unknown-user", cost: cost)
            stored = made
            return made
        }
    }
}
