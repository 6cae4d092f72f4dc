import Foundation

/// What `list` shows: recipes from the local cache, never from the network.
public struct RecipeListing: Sendable, Encodable, Equatable {
    /// One recipe of the list.
    public struct Item: Sendable, Encodable, Equatable {
        public var id: String
        /// The title, or nil for a saved recipe whose document has not been fetched yet.
        public var title: String?
        public var saved: Bool
        /// Created by the user here.
        public var mine: Bool
        /// Whether the server has the recipe (as far as this client knows).
        public var onServer: Bool
        /// Kinds of operations on this recipe not yet delivered, oldest first.
        public var pending: [String]
        /// Operations on this recipe the server refused for good (see `ferry queue`).
        public var failed: [String]
        /// The local photo file, if any.
        public var photo: String?
    }

    public var recipes: [Item]
    /// When the plugin last pulled from the server; nil if never.
    public var lastSyncedAt: Date?
    /// Always true: lists answer from the local cache.
    public var fromCache: Bool = true
}
