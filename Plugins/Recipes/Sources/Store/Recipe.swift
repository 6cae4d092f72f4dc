import Foundation
import GRDB

/// One recipe as this client knows it: a row of `recipes_recipes`.
public struct Recipe: Sendable, Equatable {
    /// The recipe's id, chosen by whoever created it; also its id on the remote.
    public var id: String
    public var title: String
    /// The recipe as a JSON object: the creator's fields, plus the remote's once known.
    public var document: Data
    /// The remote's version; nil until the remote has the recipe.
    public var version: Int?
    /// Created by the user on this machine (`ferry recipes add`, or listed as created in a legacy import).
    public var mine: Bool
    /// The SHA-256 of the photo the remote holds, if it holds one.
    public var remotePhotoSHA256: String?
    public var remotePhotoType: String?
    /// The photo's file name in the plugin's `photos` folder, if one is stored locally.
    public var photoFile: String?
    /// The SHA-256 of the local photo file.
    public var photoSHA256: String?
    /// When this row last changed locally.
    public var changedAt: Date
}

extension Recipe: FetchableRecord {
    public init(row: Row) throws {
        id = row["id"]
        title = row["title"]
        document = row["document"]
        version = row["version"]
        mine = row["mine"]
        remotePhotoSHA256 = row["remote_photo_sha256"]
        remotePhotoType = row["remote_photo_type"]
        photoFile = row["photo_file"]
        photoSHA256 = row["photo_sha256"]
        changedAt = Date(timeIntervalSince1970: row["changed_at"])
    }
}

extension Recipe {
    /// Inserts or replaces the row.
    func save(in db: Database) throws {
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO recipes_recipes
                    (id, title, document, version, mine, remote_photo_sha256, remote_photo_type, photo_file, photo_sha256, changed_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            id, title, document, version, mine, remotePhotoSHA256, remotePhotoType, photoFile, photoSHA256,
            changedAt.timeIntervalSince1970,
        ])
    }

    /// The recipe with `id`, if this client knows it.
    static func find(_ id: String, in db: Database) throws -> Recipe? {
        try Recipe.fetchOne(db.cachedStatement(sql: "SELECT * FROM recipes_recipes WHERE id = ?"), arguments: [id])
    }

    /// The recipe as the remote sent it (`entity`), keeping what only this client knows.
    static func fromRemote(_ entity: Data, keeping local: Recipe?, now: Date) throws -> Recipe {
        let document = try RecipeDocument(remote: entity)
        return Recipe(
            id: document.id,
            title: document.title,
            document: document.data,
            version: document.version,
            mine: local?.mine ?? false,
            remotePhotoSHA256: document.photoSHA256,
            remotePhotoType: document.photoType,
            photoFile: local?.photoFile,
            photoSHA256: local?.photoSHA256,
            changedAt: now
        )
    }

    /// The decoded document, for display.
    public var fields: RecipeDocument.Fields {
        RecipeDocument.Fields(document)
    }
}
