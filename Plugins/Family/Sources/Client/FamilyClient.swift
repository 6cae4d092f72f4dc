import Foundation
import SyncKernel

/// The family plugin's library API, used by its commands and by apps: reads that fall
/// back to the cache when offline, and writes that follow each operation's policy.
///
/// ```swift
/// let family = FamilyClient(runtime: runtime)
/// let round = try await family.round("r_demo_round")
/// let result = try await family.pick(round: "r_demo_round", tmdbID: 129)
/// ```
public struct FamilyClient: Sendable {
    /// The member key of a vote cast by the user as themself.
    public static let selfKey = "self"
    /// The prefix of ids given to entities created while queued.
    public static let localPrefix = "local-"

    /// The opened runtime the client works on.
    public let runtime: FerryRuntime

    /// A client over an opened runtime with the family plugin enabled.
    public init(runtime: FerryRuntime) {
        self.runtime = runtime
    }

    var settings: FamilySettings {
        get throws { try runtime.plugin(FamilyPlugin.self).settings }
    }

    /// Whether the remote is reachable now, as the connectivity monitor sees it.
    var isOnline: Bool {
        get async { await runtime.connectivity.current().satisfies(.network) }
    }

    static func newLocalID() -> String {
        localPrefix + UUID().lowercasedString
    }

    /// Checks an id typed by a person before it goes into a path.
    static func validate(_ id: String, _ what: String) throws {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard !id.isEmpty, id.count <= 128, id.unicodeScalars.allSatisfy(allowed.contains), !id.contains(".."),
            id.first != "." && id.first != "-" && id.first != "_"
        else {
            throw FerryError(
                .usage,
                "'\(id.prefix(64))' is not a valid \(what) id; ids are letters, digits, '.', '_' and '-' (see `ferry family groups`)"
            )
        }
    }

    static func validateTMDB(_ tmdbID: Int) throws {
        guard tmdbID > 0 else {
            throw FerryError(
                .usage,
                "\(tmdbID) is not a TMDB id; use the movie's positive TMDB number, e.g. 603 for The Matrix"
            )
        }
    }
}
