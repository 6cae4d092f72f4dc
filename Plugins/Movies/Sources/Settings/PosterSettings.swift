import SyncKernel

/// The poster cache: which size to fetch, how long to keep posters and how much room they may take.
public struct PosterSettings: Codable, Sendable {
    /// The TMDB image size: `w92`, `w154`, `w185`, `w342`, `w500`, `w780` or `original`.
    public var size: String
    /// How long a poster is kept after it was downloaded (90 days).
    public var maxAge: Seconds
    /// The most room posters may take; least recently used ones go first (500 MB).
    public var maxSize: ByteCount
    /// The network poster downloads need: `network` or `unmetered`.
    public var requires: NetworkRequirement

    /// The sizes TMDB serves.
    public static let sizes = ["w92", "w154", "w185", "w342", "w500", "w780", "original"]

    /// 90 days, 500 MB, `w342`, any network.
    public init() {
        size = "w342"
        maxAge = Seconds(90 * 86_400)
        maxSize = .megabytes(500)
        requires = .network
    }

    enum CodingKeys: String, CodingKey {
        case size
        case maxAge = "max_age"
        case maxSize = "max_size"
        case requires
    }

    public init(from decoder: any Decoder) throws {
        let defaults = PosterSettings()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        size = try container.decodeIfPresent(String.self, forKey: .size) ?? defaults.size
        maxAge = try container.decodeIfPresent(Seconds.self, forKey: .maxAge) ?? defaults.maxAge
        maxSize = try container.decodeIfPresent(ByteCount.self, forKey: .maxSize) ?? defaults.maxSize
        requires = try container.decodeIfPresent(NetworkRequirement.self, forKey: .requires) ?? defaults.requires
        guard Self.sizes.contains(size) else {
            throw DecodingError.dataCorruptedError(
                forKey: .size,
                in: container,
                debugDescription:
                    "'\(size)' is not a TMDB poster size; use one of \(Self.sizes.joined(separator: ", "))"
            )
        }
    }
}
