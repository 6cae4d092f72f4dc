import Foundation
import SyncKernel

/// An error as a command reports it on standard error: `error: MESSAGE` for people, or
/// with `--json` one line `{"error": {"code": ..., "message": ..., "exit_code": ...}}`.
public struct ErrorReport: Encodable, Sendable {
    public struct Body: Encodable, Sendable {
        /// A stable name: the `FerryError` code (`not_found`, `needs_login`, ...), or
        /// `usage` for a command line the parser refused.
        public let code: String
        /// What went wrong and how to fix it.
        public let message: String
        /// The status the process exits with (`ferry help exit-codes`).
        public let exitCode: Int32
    }

    public let error: Body

    public init(code: String, message: String, status: ExitStatus) {
        error = Body(code: code, message: message, exitCode: status.rawValue)
    }

    /// The report of an error the kernel, a plugin or a remote raised; nil for any other
    /// error (the argument parser's own).
    public init?(_ error: any Error) {
        if let error = error as? FerryError {
            self.init(code: error.code.name, message: error.rendered, status: ExitStatus(for: error.code))
            return
        }
        // A remote's refusal or silence that a command did not turn into a FerryError,
        // classified as the kernel classifies it.
        guard error is RemoteFailure || error is TransportFailure else { return nil }
        switch FailureClass.classify(error, now: Date()) {
        case .offline(let reason), .transient(let reason, _):
            self.init(code: FerryError.Code.remoteUnavailable.name, message: reason, status: .unavailable)
        case .unauthorized(let reason):
            self.init(code: FerryError.Code.needsLogin.name, message: reason, status: .needsLogin)
        case .conflict(_, let reason, _):
            self.init(code: FerryError.Code.conflict.name, message: reason, status: .conflict)
        case .misconfigured(let reason):
            self.init(code: FerryError.Code.configuration.name, message: reason, status: .configuration)
        case .rejected(let reason), .waitsFor(_, let reason):
            self.init(code: FerryError.Code.rejected.name, message: reason, status: .failure)
        }
    }

    /// The exit status to end with.
    public var status: Int32 { error.exitCode }

    /// Writes the report to standard error, as JSON with `json`.
    public func print(json: Bool) {
        guard json, let line = try? JSONOutput.encode(self, oneLine: true) else {
            return Output.warn("error: \(error.message)")
        }
        FileHandle.standardError.write(line + Data("\n".utf8))
    }
}
