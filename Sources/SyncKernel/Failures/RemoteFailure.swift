import Foundation

/// A remote answered with a status that is not a success.
///
/// Handlers throw it (the transport does it for them) and the kernel classifies it.
public struct RemoteFailure: Error, Sendable, CustomStringConvertible {
    /// The HTTP status, outside 200..<300.
    public let status: Int
    /// Response headers, lower-cased names.
    public let headers: [String: String]
    /// The answer's body as the remote sent it.
    public let body: Data
    /// On a 401, the fingerprint of the credential the remote refused (nil when none was
    /// sent): a queue held for a login resumes once the provider has another.
    var refusedCredential: String?

    /// Creates a failure; pass `headers` with lower-cased names.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The remote's own reason: the `message` of Ferry's error shape (docs/protocol.md), or
    /// a short excerpt of the body. A plugin that talks to a remote with another error shape
    /// reads `body` itself.
    ///
    /// It is a clause that messages go on after (`...; try again later`), so the message's
    /// final full stop is left out.
    public var reason: String {
        if let shape = try? JSONDecoder().decode(ErrorShape.self, from: body) {
            var message = Substring(shape.error.message.trimmingCharacters(in: .whitespacesAndNewlines))
            while message.hasSuffix(".") { message = message.dropLast() }
            return "\(status) \(shape.error.code): \(message)"
        }
        let text = String(decoding: body.prefix(200), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "HTTP \(status)" : "HTTP \(status): \(text)"
    }

    /// The `error.code` of Ferry's error shape, if the body has one.
    public var code: String? {
        (try? JSONDecoder().decode(ErrorShape.self, from: body))?.error.code
    }

    /// The `details.current` entity a 409 or 412 carries, if any.
    public var currentEntity: Data? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let error = object["error"] as? [String: Any],
            let details = error["details"] as? [String: Any],
            let current = details["current"]
        else { return nil }
        return try? SortedJSON.data(current)
    }

    /// Whether the body is there but is not JSON: an answer cut short or replaced on the
    /// way (a proxy's page), rather than what the remote said.
    var isUnreadable: Bool {
        !body.isEmpty && (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) == nil
    }

    /// The remote's reason.
    public var description: String { reason }

    private struct ErrorShape: Decodable {
        struct Inner: Decodable {
            let code: String
            let message: String
        }
        let error: Inner
    }
}

/// The request never got an answer: no route, DNS, refused, reset, timed out, cut TLS.
public struct TransportFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, for logs and the queue.
    public let reason: String
    /// Creates a failure that says `reason`.
    public init(reason: String) { self.reason = reason }
    /// The reason.
    public var description: String { reason }
}

/// The remote's answer was larger than `sync.max_answer`: it was not read, and the request
/// counts as rejected with this reason (raise the limit, then retry the operation).
public struct AnswerTooLarge: Error, Sendable, CustomStringConvertible {
    /// The limit, in bytes.
    public let limit: Int
    /// Creates the failure for an answer over `limit` bytes.
    public init(limit: Int) { self.limit = limit }
    /// The reason stored on the dead letter: the limit and the key that sets it.
    public var description: String {
        "the answer is larger than \(ByteCount(Int64(limit))), the limit sync.max_answer sets; raise it in config.yaml if the remote's answers are that large"
    }
}
