import Foundation
import GRDB
import SyncKernel

/// A change to a movie's own fields, as queued in an `update` operation.
///
/// Queued payloads are JSON objects that the outbox merges key by key (a merge patch),
/// in which `null` would delete a key; so "clear this field" is written as
/// `{"clear": true}` and turned into `null` only when the request is sent.
struct MoviePatch: Sendable, Equatable {
    /// One field's change.
    enum Change: Sendable, Equatable {
        case text(String)
        case number(Int)
        case clear
    }

    /// The fields the server lets a client change.
    static let fields = ["status", "my_rating", "date_watched", "recommender"]
    /// The statuses the server knows.
    static let statuses = ["want_to_watch", "watching", "watched"]

    var changes: [String: Change] = [:]

    var isEmpty: Bool { changes.isEmpty }

    /// The queued payload.
    func payload() throws -> Data {
        var object: [String: Any] = [:]
        for (key, change) in changes {
            switch change {
            case .text(let text): object[key] = text
            case .number(let number): object[key] = number
            case .clear: object[key] = ["clear": true]
            }
        }
        return try SortedJSON.data(object)
    }

    /// Reads a queued payload.
    init(payload: Data) throws {
        guard let object = try JSONSerialization.jsonObject(with: payload) as? [String: Any] else {
            throw FerryError(.plugin, "a movies update payload is not a JSON object")
        }
        for (key, value) in object where Self.fields.contains(key) {
            switch value {
            case let text as String: changes[key] = .text(text)
            case let number as NSNumber: changes[key] = .number(number.intValue)
            default: changes[key] = .clear
            }
        }
    }

    init(changes: [String: Change] = [:]) {
        self.changes = changes
    }

    /// The body of `PATCH /v1/movies/{id}`.
    func requestBody() throws -> Data {
        var object: [String: Any] = [:]
        for (key, change) in changes {
            switch change {
            case .text(let text): object[key] = text
            case .number(let number): object[key] = number
            case .clear: object[key] = NSNull()
            }
        }
        return try SortedJSON.data(object)
    }

    /// The SQL assignments and values that apply the patch to a row.
    func assignments() -> (sql: String, values: [(any DatabaseValueConvertible)?]) {
        var parts: [String] = []
        var values: [(any DatabaseValueConvertible)?] = []
        for key in Self.fields {
            guard let change = changes[key] else { continue }
            parts.append("\(key) = ?")
            switch change {
            case .text(let text): values.append(text)
            case .number(let number): values.append(number)
            case .clear: values.append(nil)
            }
        }
        return (parts.joined(separator: ", "), values)
    }
}
