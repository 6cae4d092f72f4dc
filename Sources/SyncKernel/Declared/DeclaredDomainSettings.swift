import Foundation

/// A domain declared in `config.yaml` alone: its remote, its operations as HTTP calls,
/// and optionally a changes feed to pull.
///
/// Without `operations`, the domain uses the documents API of docs/protocol.md (§17):
/// `put`, `patch` and `delete` on `/v1/domains/<name>/documents/{entity}` (or
/// `/v1/shared/<name>/...` with `scope: shared`), pulled from `/v1/domains/<name>/changes`,
/// so a new domain needs no server change:
///
/// ```yaml
/// domains:
///   bookmarks: {}
///   notes:
///     pull: /v1/notes/changes
///     operations:
///       put: {method: PUT, path: "/v1/notes/{entity}", coalesce: replace}
///       delete: {method: DELETE, path: "/v1/notes/{entity}", supersedes: [put]}
/// ```
public struct DeclaredDomainSettings: Codable, Sendable, Equatable {
    /// A base URL for this domain only; default: the top-level `server`.
    public var remote: String?
    /// With the documents API: `user` (each user's own documents, the default) or `shared`.
    public var scope: DocumentScope?
    /// The path of a changes feed in the format of docs/protocol.md, section 6.
    public var pull: String?
    /// Keeps only the pulled documents whose fields have these values (a feed shared with
    /// other kinds of documents); a document that stops matching leaves.
    public var pullOnly: [String: String]?
    /// `pull_every`, as written. The runner reads `pull_every` from plugin sections only, so a
    /// declared domain pulls every `sync.pull_every` whatever this says.
    public var pullEvery: Seconds?
    /// The backoff of the domain's operations, over the top-level `retry:`.
    public var retry: RetryOverride?
    /// The domain's operations, by kind; none: the documents API's.
    public var operations: [String: DeclaredOperation]
    /// How a document's key comes from the document itself, when it is not given.
    public var key: DocumentKey?
    /// The conflict policy of every operation that names none (`last_write_wins` by default).
    public var conflict: ConflictPolicy?

    /// A key taken from a field of the document, as it is or hashed (for values such as
    /// URLs that cannot be a key on the remote).
    public struct DocumentKey: Codable, Sendable, Equatable {
        /// The field whose value makes the key, such as `url`.
        public var field: String
        /// Whether the key is a hash of the value (the first 16 hex digits of its SHA-256),
        /// the same on every device; default: false, the value itself.
        public var hash: Bool?

        /// The key of `document`.
        ///
        /// - Throws: a `usage` error when the field is missing, or not a string or a number.
        public func derive(from document: Data, domain: String) throws -> String {
            let object = try? JSONSerialization.jsonObject(with: document) as? [String: Any]
            let value = object?[field].flatMap { value -> String? in
                if let text = value as? String, !text.isEmpty { return text }
                if let number = value as? NSNumber, !(value is Bool) { return number.stringValue }
                return nil
            }
            guard let value else {
                throw FerryError(
                    .usage,
                    "domain \(domain) takes each document's key from its field \(field), and this document has no \(field) (a string or a number); add it, or give the key"
                )
            }
            return hash == true ? "k" + String(SHA256Hasher.hex(Data(value.utf8)).prefix(16)) : value
        }
    }

    /// Whose documents a domain on the documents API keeps.
    public enum DocumentScope: String, Codable, Sendable, Equatable {
        /// Each signed-in user's own (`/v1/domains/<name>`).
        case user
        /// One set every signed-in user shares (`/v1/shared/<name>`).
        case shared
    }

    enum CodingKeys: String, CodingKey {
        case remote, scope, pull
        case pullOnly = "pull_only"
        case pullEvery = "pull_every"
        case retry, operations, key, conflict
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        remote = try container.decodeIfPresent(String.self, forKey: .remote)
        scope = try container.decodeIfPresent(DocumentScope.self, forKey: .scope)
        pull = try container.decodeIfPresent(String.self, forKey: .pull)
        pullOnly = try container.decodeIfPresent([String: String].self, forKey: .pullOnly)
        pullEvery = try container.decodeIfPresent(Seconds.self, forKey: .pullEvery)
        retry = try container.decodeIfPresent(RetryOverride.self, forKey: .retry)
        operations = try container.decodeIfPresent([String: DeclaredOperation].self, forKey: .operations) ?? [:]
        key = try container.decodeIfPresent(DocumentKey.self, forKey: .key)
        conflict = try container.decodeIfPresent(ConflictPolicy.self, forKey: .conflict)
    }

    /// The settings with the documents API's operations and feed when none are declared.
    ///
    /// - Throws: a `configuration` error when the domain's name cannot be a documents API
    ///   domain, or `scope` is given with operations of its own.
    func completed(name: String, file: String) throws -> DeclaredDomainSettings {
        for (kind, operation) in operations.sorted(by: { $0.key < $1.key }) {
            let placeholders = Self.placeholders(in: operation.path)
            if let wrong = placeholders.first(where: { $0 != "{entity}" }) {
                throw FerryError(
                    .configuration,
                    "\(file): domains.\(name).operations.\(kind).path has \(wrong); the only placeholder is {entity}, the entity's key"
                )
            }
        }
        guard operations.isEmpty else {
            if scope != nil {
                throw FerryError(
                    .configuration,
                    "\(file): domains.\(name).scope applies to the documents API only; remove it, or remove operations to use that API"
                )
            }
            var completed = self
            for (kind, operation) in operations where operation.conflict == nil {
                completed.operations[kind]?.conflict = conflict
            }
            return completed
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789_-")
        guard (1...64).contains(name.count), name.allSatisfy(allowed.contains), name.first.map(Set("_-").contains) == false
        else {
            throw FerryError(
                .configuration,
                "\(file): domains.\(name) has no operations, so it uses the documents API, whose domain names are 1-64 lower-case letters, digits, _ and -; rename it or declare its operations"
            )
        }
        let base = (scope == .shared ? "/v1/shared/" : "/v1/domains/") + name
        let path = base + "/documents/{entity}"
        var completed = self
        completed.operations = [
            "put": DeclaredOperation(method: "PUT", path: path, coalesce: .replace),
            "patch": DeclaredOperation(method: "PATCH", path: path, coalesce: .merge),
            "delete": DeclaredOperation(method: "DELETE", path: path, supersedes: ["put", "patch"]),
        ].mapValues { operation in
            var operation = operation
            operation.conflict = conflict
            return operation
        }
        completed.pull = pull ?? base + "/changes"
        return completed
    }

    /// Every `{...}` in `path`.
    static func placeholders(in path: String) -> [String] {
        var found: [String] = []
        var rest = path[...]
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else {
                found.append(String(rest[open...]))
                break
            }
            found.append(String(rest[open...close]))
            rest = rest[rest.index(after: close)...]
        }
        return found
    }

    /// Whether the domain uses the documents API (its operations were not declared).
    public var usesDocumentsAPI: Bool {
        operations.values.allSatisfy { $0.path.hasPrefix("/v1/domains/") || $0.path.hasPrefix("/v1/shared/") }
    }
}

/// One operation of a declared domain: an HTTP call and the operation's policy.
public struct DeclaredOperation: Codable, Sendable, Equatable {
    /// GET, PUT, POST, PATCH or DELETE (compared without case). PUT and POST store the body
    /// as the local document, PATCH merges it in, DELETE removes the document.
    public var method: String
    /// The path below the remote; `{entity}` is replaced by the entity key, percent-encoded.
    public var path: String
    /// `delivery`: `queued` (the default) or `online_only`.
    public var delivery: Delivery?
    /// `requires`: `network` (the default) or `unmetered`.
    public var requires: NetworkRequirement?
    /// `coalesce`: how a new write folds into an unsent one of the same entity.
    public var coalesce: CoalesceMode?
    /// `cancels`: kinds of this domain whose unsent operation and this one cancel out.
    public var cancels: [String]?
    /// `supersedes`: kinds of this domain whose unsent operations this one drops.
    public var supersedes: [String]?
    /// `conflict`: what happens when the remote answers 409 or 412.
    public var conflict: ConflictPolicy?
    /// `retry`: the operation's own backoff, over the domain's.
    public var retry: RetryOverride?

    /// The policy these keys describe, over the kernel's defaults.
    var policy: OperationPolicy {
        var override = OperationOverride()
        override.delivery = delivery
        override.requires = requires
        override.coalesce = coalesce
        override.cancels = cancels
        override.supersedes = supersedes
        override.conflict = conflict
        override.retry = retry
        return override.applied(to: OperationPolicy())
    }

    /// Whether the local row goes away when this operation is queued.
    var removes: Bool { method.uppercased() == "DELETE" }

    /// `create_only`: a PUT that only creates (`If-None-Match: *`); a document that exists
    /// already is a 409 for the conflict policy (`first_write_wins` adopts it).
    public var createOnly: Bool?

    enum CodingKeys: String, CodingKey {
        case method, path, delivery, requires, coalesce, cancels, supersedes, conflict, retry
        case createOnly = "create_only"
    }

    /// Whether it changes an existing document, and so carries `If-Match` with the version
    /// it was made on (PUT, PATCH and DELETE; POST creates).
    var isConditional: Bool { ["PUT", "PATCH", "DELETE"].contains(method.uppercased()) && createOnly != true }

    /// An operation with its method, path and the policy keys given.
    init(method: String, path: String, coalesce: CoalesceMode? = nil, supersedes: [String]? = nil) {
        self.method = method
        self.path = path
        self.coalesce = coalesce
        self.supersedes = supersedes
    }
}
