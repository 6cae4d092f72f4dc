/// An error a person can act on: a stable code, a message that says what went wrong
/// and how to fix it, the underlying cause and where it happened.
///
/// Compare errors by `code`. Exit codes are chosen at the CLI boundary from the code.
public struct FerryError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is; stable across releases.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's stable name, such as `needs_login`.
        public let name: String
        /// A code named `name`; the kernel's codes are the static members below.
        public init(_ name: String) { self.name = name }
        /// The code's name.
        public var description: String { name }

        /// The configuration file is missing, unreadable or invalid.
        public static let configuration = Code("configuration")
        /// The local store could not be opened, migrated or written.
        public static let storage = Code("storage")
        /// The disk under the local store is full or failing (SQLite FULL or IOERR); the
        /// transaction rolled back whole.
        public static let storageUnavailable = Code("storage_unavailable")
        /// No operation, conflict or entity with that id.
        public static let notFound = Code("not_found")
        /// The command needs a connection and there is none; a send that throws it waits for
        /// connectivity.
        public static let requiresConnection = Code("requires_connection")
        /// The remote refused the credentials; someone must log in. A send that throws it
        /// holds its plugin's queue for a login.
        public static let needsLogin = Code("needs_login")
        /// The remote rejected the request for good.
        public static let rejected = Code("rejected")
        /// The remote reported a conflict.
        public static let conflict = Code("conflict")
        /// The remote failed in a way that may pass; a send that throws it is retried with
        /// backoff.
        public static let remoteUnavailable = Code("remote_unavailable")
        /// A plugin declared something the kernel cannot use.
        public static let plugin = Code("plugin")
        /// Bad input from the person at the keyboard.
        public static let usage = Code("usage")
        /// A file operation failed.
        public static let file = Code("file")
    }

    /// What kind of failure this is; compare errors by it.
    public let code: Code
    /// What went wrong and how to fix it, in words a person reads.
    public let message: String
    /// The error that caused this one, if any, for logs.
    public let underlying: (any Error)?
    /// What a person can do about it, for the front end to name in its own words.
    public let remedy: Remedy?
    /// The source file that threw it (`#fileID`), for logs.
    public let file: String
    /// The line in `file` that threw it.
    public let line: Int

    /// Creates an error; `file` and `line` default to the caller's place.
    ///
    /// ```swift
    /// throw FerryError(.notFound, "no operation \(id)", remedy: .listQueue)
    /// ```
    public init(
        _ code: Code,
        _ message: String,
        underlying: (any Error)? = nil,
        remedy: Remedy? = nil,
        file: String = #fileID,
        line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.underlying = underlying
        self.remedy = remedy
        self.file = file
        self.line = line
    }

    /// The message.
    public var description: String { message }
}
