/// The recipes plugin's own keys in `config.yaml` (besides the kernel's `enabled`,
/// `remote`, `retry`, `pull_every` and `operations`).
///
/// ```yaml
/// plugins:
///   recipes:
///     download_photos: true
/// ```
public struct RecipesSettings: Codable, Sendable, Equatable {
    /// Whether pulls download the photos of saved recipes, so that they are there offline.
    public var downloadPhotos: Bool

    public init(downloadPhotos: Bool = true) {
        self.downloadPhotos = downloadPhotos
    }

    enum CodingKeys: String, CodingKey {
        case downloadPhotos = "download_photos"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        downloadPhotos = try container.decodeIfPresent(Bool.self, forKey: .downloadPhotos) ?? true
    }
}
