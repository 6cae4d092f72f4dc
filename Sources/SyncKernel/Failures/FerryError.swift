/// An error a person can act on: a stable code, a message that says what went wrong
/// and how to fix it, the underlying cause and where it happened.
///
/// Compare errors by `code`. Exit codes are chosen at the CLI boundary from the code.
public struct FerryError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is; stable across releases.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        public init(_ name: String) { self.name = name }
        public var description: String { name }

        /// The configuration file is missing, unreadable or invalid.
        public static let configuration = Code("configuration")
        /// The local store could not be opened, migrated or written.
        public static let storage = Code("storage")
        /// The local store ran out of space (SQLite FULL or IOERR).
        public static let storageUnavailable = Code("storage_unavailable")
        /// No operation, conflict or entity with that id.
        public static let notFound = Code("not_found")
        /// The command needs a connection and there is none.
        public static let requiresConnection = Code("requires_connection")
        /// The remote refused the credentials; someone must log in.
        public static let needsLogin = Code("needs_login")
        /// The remote rejected the request for good.
        public static let rejected = Code("rejected")
        /// The remote reported a conflict.
        public static let conflict = Code("conflict")
        /// The remote failed in a way that may pass.
        public static let remoteUnavailable = Code("remote_unavailable")
        /// A plugin declared something the kernel cannot use.
        public static let plugin = Code("plugin")
        /// Bad input from the person at the keyboard.
        public static let usage = Code("usage")
        /// A file operation failed.
        public static let file = Code("file")
    }

    public let code: Code
    public let message: String
    public let underlying: (any Error)?
    /// What a person can do about it, for the front end to name in its own words.
    public let remedy: Remedy?
    public let file: String
    public let line: Int

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

    public var description: String { message }
}
