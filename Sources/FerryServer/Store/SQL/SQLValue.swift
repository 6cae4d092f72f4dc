import Foundation

/// One value bound to a statement or read from a row, in the few storage classes the server
/// uses on every engine: SQLite's own, and PostgreSQL's BIGINT, DOUBLE PRECISION, TEXT and
/// BYTEA (a BOOLEAN or INTEGER column reads as ``integer(_:)``).
enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
}

/// A Swift type that binds as an ``SQLValue`` and reads back from one.
///
/// Reading is tolerant across engines: an `Int` reads from an integer or a whole real, a
/// `Double` from a real or an integer, a `Bool` from an integer (0 is false).
protocol SQLValueConvertible: Sendable {
    /// The value to bind.
    var sqlValue: SQLValue { get }
    /// The Swift value of a column, nil when it is null or of another kind.
    init?(sqlValue: SQLValue)
}

extension String: SQLValueConvertible {
    var sqlValue: SQLValue { .text(self) }
    init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .text(let text): self = text
        case .blob(let data): self.init(decoding: data, as: UTF8.self)
        default: return nil
        }
    }
}

extension Int: SQLValueConvertible {
    var sqlValue: SQLValue { .integer(Int64(self)) }
    init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .integer(let integer): self.init(integer)
        case .real(let real): self.init(exactly: real)
        default: return nil
        }
    }
}

extension Double: SQLValueConvertible {
    var sqlValue: SQLValue { .real(self) }
    init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .real(let real): self = real
        case .integer(let integer): self.init(integer)
        default: return nil
        }
    }
}

extension Bool: SQLValueConvertible {
    var sqlValue: SQLValue { .integer(self ? 1 : 0) }
    init?(sqlValue: SQLValue) {
        guard case .integer(let integer) = sqlValue else { return nil }
        self = integer != 0
    }
}

extension Data: SQLValueConvertible {
    var sqlValue: SQLValue { .blob(self) }
    init?(sqlValue: SQLValue) {
        switch sqlValue {
        case .blob(let data): self = data
        case .text(let text): self.init(text.utf8)
        default: return nil
        }
    }
}
