import Foundation
import GRDB
import SyncKernel

/// One bookmark: a URL and its title, under an id made from the URL.
public struct Bookmark: Codable, Sendable, Equatable {
    public var id: String
    public var url: String
    public var title: String

    /// A bookmark of `url`; its id is a hash of the URL, the same on every device.
    public init(url: String, title: String? = nil) throws {
        guard let parsed = URL(string: url), let scheme = parsed.scheme, ["http", "https"].contains(scheme),
            parsed.host != nil
        else {
            throw FerryError(.usage, "'\(url)' is not a web address; give one such as https://swift.org")
        }
        self.id = "bm-" + Self.hash(url)
        self.url = url
        self.title = title ?? parsed.host ?? url
    }

    /// FNV-1a, 64 bits, in hex: short, stable and the same on every platform.
    static func hash(_ text: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(value, radix: 16)
    }

    func save(in db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO bookmarks_bookmarks (id, url, title) VALUES (?, ?, ?)",
            arguments: [id, url, title]
        )
    }

    static func delete(_ id: String, in db: Database) throws {
        try db.execute(sql: "DELETE FROM bookmarks_bookmarks WHERE id = ?", arguments: [id])
    }

    /// Every bookmark here, by title.
    public static func all(in db: Database) throws -> [Bookmark] {
        try Row.fetchAll(db, sql: "SELECT id, url, title FROM bookmarks_bookmarks ORDER BY title COLLATE NOCASE")
            .map { Bookmark(id: $0["id"], url: $0["url"], title: $0["title"]) }
    }

    private init(id: String, url: String, title: String) {
        self.id = id
        self.url = url
        self.title = title
    }
}
