import Foundation
import SyncKernel

/// How a `ferry` command ends: the one table of exit codes, which `ferry help exit-codes`
/// prints and the README repeats (sysexits where one fits).
public enum ExitStatus: Int32, CaseIterable, Sendable {
    case success = 0
    case failure = 1
    case usage = 64
    case notFound = 66
    case unavailable = 69
    case ioError = 74
    case tryLater = 75
    case needsLogin = 77
    case configuration = 78
    /// sysexits has no code for "the remote disagreed": this is the first code past its range.
    case conflict = 79

    /// The status's stable name, as the `exit_code` of a JSON error is explained in docs/json.md.
    public var name: String {
        switch self {
        case .success: "success"
        case .failure: "failure"
        case .usage: "usage"
        case .notFound: "not_found"
        case .unavailable: "unavailable"
        case .ioError: "io_error"
        case .tryLater: "try_later"
        case .needsLogin: "needs_login"
        case .configuration: "configuration"
        case .conflict: "conflict"
        }
    }

    /// What the status means, in words a person reads.
    public var meaning: String {
        switch self {
        case .success: "done; for `ferry run --once`: nothing is left that can be done now"
        case .failure: "something failed: a dead letter, a failed pull, a download that failed"
        case .usage: "bad input, or a question answered no (`--yes` answers it)"
        case .notFound: "no such thing (an id, a group, a conflict)"
        case .unavailable: "a connection is needed, or the remote is unavailable"
        case .ioError: "the store or a file cannot be read or written"
        case .tryLater:
            "try again later: `run --once` left work waiting (a login, a connection, an unmetered network, a configuration change, another account's sign-in)"
        case .needsLogin: "a login is needed (`ferry auth login`)"
        case .configuration: "the configuration is wrong, or a plugin is not enabled"
        case .conflict: "the remote disagreed with a write (a conflict); `ferry conflicts list` shows it"
        }
    }

    /// The status for an error the kernel or a plugin threw.
    public init(for code: FerryError.Code) {
        switch code {
        case .usage: self = .usage
        case .notFound: self = .notFound
        case .requiresConnection, .remoteUnavailable: self = .unavailable
        case .storage, .storageUnavailable, .file: self = .ioError
        case .conflict: self = .conflict
        case .needsLogin: self = .needsLogin
        case .configuration, .plugin: self = .configuration
        default: self = .failure
        }
    }

    /// The table as `ferry help exit-codes` prints it.
    public static var table: String {
        "Every ferry command exits with one of these (sysexits where one fits):\n\n"
            + Output.render(["CODE", "MEANING"], allCases.map { ["\($0.rawValue)", $0.meaning] })
    }

    /// The table as the README's "Exit codes" section writes it, in Markdown.
    public static var markdownTable: String {
        (["| code | meaning |", "| --- | --- |"] + allCases.map { "| \($0.rawValue) | \($0.meaning) |" })
            .joined(separator: "\n")
    }
}
