import SyncKernel

/// The `movies:` section of `config.yaml` (the kernel's keys aside).
///
/// ```yaml
/// movies:
///   cache_policy: cache_then_network
///   match_ties: ask
///   tmdb: {url: /tmdb/3, image_base: /tmdb, token: ferry-demo-tmdb-token}
///   posters: {size: w342, max_age: 90d, max_size: 500MB}
/// ```
public struct MoviesSettings: Codable, Sendable {
    /// How `movies list` and `movies show` read: the cache at once, then the network by default.
    public var cachePolicy: CachePolicy
    /// What enrichment does when two TMDB candidates are equally good.
    public var matchTies: TieBreak
    /// The TMDB API the enrichment speaks to.
    public var tmdb: TMDBSettings
    /// The poster cache.
    public var posters: PosterSettings

    /// What enrichment does with a tie between equally good candidates.
    public enum TieBreak: String, Codable, Sendable, CaseIterable {
        /// Leave the movie pending with the candidates; a person resolves it (the default).
        case ask
        /// Take the candidate TMDB rates most popular.
        case mostPopular = "most_popular"
    }

    /// The defaults: the shipped configuration.
    public init() {
        cachePolicy = .cacheThenNetwork
        matchTies = .ask
        tmdb = TMDBSettings()
        posters = PosterSettings()
    }

    enum CodingKeys: String, CodingKey {
        case cachePolicy = "cache_policy"
        case matchTies = "match_ties"
        case tmdb, posters
    }

    public init(from decoder: any Decoder) throws {
        let defaults = MoviesSettings()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        cachePolicy = try container.decodeIfPresent(CachePolicy.self, forKey: .cachePolicy) ?? defaults.cachePolicy
        matchTies = try container.decodeIfPresent(TieBreak.self, forKey: .matchTies) ?? defaults.matchTies
        tmdb = try container.decodeIfPresent(TMDBSettings.self, forKey: .tmdb) ?? defaults.tmdb
        posters = try container.decodeIfPresent(PosterSettings.self, forKey: .posters) ?? defaults.posters
    }
}
