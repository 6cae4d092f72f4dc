import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

/// Which PostgreSQL failures mean "the database cannot be used now" (answered 503, safe to
/// retry) rather than "this statement is wrong", and how to name them without connection
/// details.
enum PostgresFailure {
    /// SQLSTATE classes and codes of an unusable database: connection exceptions (08),
    /// insufficient resources (53), operator intervention (57: shutdown, cannot connect
    /// now), system errors (58), a lock not granted within `lock_timeout` (55P03: another
    /// writer holds the database), a read-only standby (25006), and serialization
    /// failures and deadlocks (40001, 40P01), which roll back a transaction that may be retried.
    static let unavailableStates: Set<String> = ["55P03", "25006", "40001", "40P01"]
    static let unavailableClasses: Set<String> = ["08", "53", "57", "58"]

    /// `error` as a ``StorageUnavailable`` when it says the database cannot be used now.
    static func unavailable(_ error: any Error) -> StorageUnavailable? {
        if let unavailable = error as? StorageUnavailable { return unavailable }
        if let error = error as? PSQLError {
            if let state = error.serverInfo?[.sqlState] {
                let unusable = unavailableStates.contains(state) || unavailableClasses.contains(String(state.prefix(2)))
                return unusable ? StorageUnavailable(reason: "SQLSTATE \(state)") : nil
            }
            switch error.code {
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
                return StorageUnavailable(reason: summary(of: error))
            default:
                return nil
            }
        }
        if error is ChannelError || error is IOError { return StorageUnavailable(reason: summary(of: error)) }
        return nil
    }

    /// `error` as the server should see it: ``StorageUnavailable`` when the database cannot
    /// be used now, ``StorageFailure`` for a statement PostgreSQL refused, else itself.
    static func classified(_ error: any Error) -> any Error {
        if let unavailable = unavailable(error) { return unavailable }
        if let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] {
            return StorageFailure(description: "SQLSTATE \(state): \(error.serverInfo?[.message] ?? "")")
        }
        return error
    }

    /// A short name for `error` that carries no URL, user or password: postgres-nio's own
    /// descriptions of a PSQLError are redacted, and NIO's errors name only addresses.
    static func summary(of error: any Error) -> String {
        if let error = error as? PSQLError {
            if let state = error.serverInfo?[.sqlState] { return "SQLSTATE \(state)" }
            if error.code == .sslUnsupported { return "the database does not offer TLS, which its URL's sslmode requires" }
            return error.underlying.map { "\(error.code): \(summary(of: $0))" } ?? "\(error.code)"
        }
        if let error = error as? NIOConnectionError, let first = error.connectionErrors.first {
            return summary(of: first.error)
        }
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        // TLS errors name certificates and OpenSSL's reasons, never a URL or password.
        if error is NIOSSLError || error is BoringSSLError {
            let reason = "\(error)"
            if reason.contains("CERTIFICATE_VERIFY_FAILED") {
                return "TLS: the database's certificate is not signed by an authority this server trusts, or does not name the URL's host (name the authority's PEM file with sslrootcert, or use sslmode=require)"
            }
            return "TLS: \(reason.split(separator: " at /").first ?? Substring(reason))"
        }
        return String(describing: type(of: error))
    }
}
