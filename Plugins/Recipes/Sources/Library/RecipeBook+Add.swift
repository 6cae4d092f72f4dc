import Foundation
import GRDB
import SyncKernel

extension RecipeBook {
    /// Adds a recipe the user wrote (a JSON file) with an optional photo: stored locally,
    /// saved, and queued for upload (the recipe and its photo) before the save.
    ///
    /// The recipe keeps the file's `id` when it has one, else gets a fresh one.
    @discardableResult
    public func add(documentAt path: String, photoAt photoPath: String? = nil) async throws -> Recipe {
        let document = try RecipeDocument(userJSON: try Self.readDocument(at: path), source: path)
        let photo = try photoPath.map { try PhotoStore.readUserPhoto(at: $0) }
        let id = document.id
        if try await runtime.store.read({ db in try Recipe.find(id, in: db) }) != nil {
            throw FerryError(
                .usage,
                "\(path): a recipe with id \(id) already exists here; remove \"id\" from the file to add it as a new recipe"
            )
        }
        let stored = try photo.map { try plugin.photos.write($0.data, id: id, kind: $0.kind) }
        let now = runtime.clock.now()
        let recipe = Recipe(
            id: id,
            title: document.title,
            document: document.data,
            version: nil,
            mine: true,
            remotePhotoSHA256: nil,
            remotePhotoType: nil,
            photoFile: stored?.file,
            photoSHA256: stored?.sha256,
            changedAt: now
        )
        let upload = try NewOperation(
            plugin: RecipesPlugin.name,
            kind: "upload",
            entity: id,
            payload: UploadPayload(
                document: String(decoding: document.data, as: UTF8.self),
                photoFile: stored?.file,
                photoType: photo?.kind.contentType
            )
        )
        let save = try NewOperation(plugin: RecipesPlugin.name, kind: "save", entity: id, payload: [String: String]())
        do {
            try await runtime.commit { db, queue in
                guard try Recipe.find(id, in: db) == nil else {
                    throw FerryError(
                        .usage,
                        "\(path): a recipe with id \(id) already exists here; remove \"id\" from the file to add it as a new recipe"
                    )
                }
                try recipe.save(in: db)
                try SavedSet.insert(id, at: now, in: db)
                queue.enqueue(upload)
                queue.enqueue(save)
            }
        } catch {
            plugin.photos.remove(stored?.file)
            throw error
        }
        return recipe
    }

    /// The bytes of a recipe file a person named, with errors that say what to fix.
    static func readDocument(at path: String) throws -> Data {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: resolved.path)
        } catch {
            throw FerryError(.usage, "no recipe file at \(path); check the path", underlying: error)
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw FerryError(.usage, "\(path) is not a regular file; name a JSON file such as recipe.json")
        }
        if let size = (attributes[.size] as? NSNumber)?.intValue, size > RecipeDocument.maxBytes {
            throw FerryError(.usage, "\(path) is \(size) bytes; a recipe must be at most 1 MiB of JSON")
        }
        do {
            return try Data(contentsOf: resolved)
        } catch {
            throw FerryError(.usage, "cannot read \(path): check its permissions", underlying: error)
        }
    }
}
