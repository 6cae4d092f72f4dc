import Foundation
import SyncKernel

/// The older layout the seed's app kept, as files in one folder:
///
/// ```
/// DIR/saved_recipe_ids.json      ["7F1C...", "demo-dal"]    (required; or saved_recipe_ids_v2.json)
/// DIR/created_recipe_ids.json    ["7F1C..."]                (optional; or created_recipe_ids_v2.json)
/// DIR/recipes/<id>.json          one recipe document each   (optional per id)
/// DIR/recipes/<id>.jpg|png|...   its photo                  (optional per id)
/// ```
struct LegacyLayout {
    /// One saved recipe found in the layout.
    struct Entry {
        var id: String
        var document: RecipeDocument?
        var photo: (data: Data, kind: ImageKind)?
        var created: Bool
    }

    var entries: [Entry]
    /// Ids that could not be taken, each with why; they are not marked imported, so a
    /// later run takes them once fixed.
    var problems: [String]

    /// Reads the layout in `folder`, checking everything before anything is written.
    init(folder: String) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw FerryError(
                .usage,
                "\(folder) is not a folder; name the folder that holds saved_recipe_ids.json and recipes/"
            )
        }
        let root = URL(fileURLWithPath: folder, isDirectory: true)
        guard let savedList = Self.firstExisting(["saved_recipe_ids.json", "saved_recipe_ids_v2.json"], in: root) else {
            throw FerryError(
                .usage,
                "\(folder) has no saved_recipe_ids.json; the legacy layout is a JSON list of saved ids (saved_recipe_ids.json) and a recipes/ folder of <id>.json files"
            )
        }
        let saved = try Self.readIDs(savedList)
        let created =
            try Self.firstExisting(["created_recipe_ids.json", "created_recipe_ids_v2.json"], in: root).map(
                Self.readIDs
            ) ?? []
        let recipes = root.appendingPathComponent("recipes", isDirectory: true)
        var entries: [Entry] = []
        var problems: [String] = []
        var seen: Set<String> = []
        for id in saved where seen.insert(id).inserted {
            guard RecipeID.isValid(id) else {
                problems.append("\(id.prefix(64)): not a valid recipe id; skipped")
                continue
            }
            do {
                entries.append(try Self.entry(id, in: recipes, created: created.contains(id)))
            } catch let error as FerryError {
                problems.append("\(id): \(error.message); skipped")
            }
        }
        self.entries = entries
        self.problems = problems
    }

    private static func entry(_ id: String, in recipes: URL, created: Bool) throws -> Entry {
        let file = recipes.appendingPathComponent("\(id).json")
        var document: RecipeDocument?
        if FileManager.default.fileExists(atPath: file.path) {
            let parsed = try RecipeDocument(
                userJSON: try RecipeBook.readDocument(at: file.path),
                source: file.path,
                fallbackID: id
            )
            guard parsed.id == id else {
                throw FerryError(.usage, "\(file.path) holds recipe \(parsed.id.prefix(64)), not \(id)")
            }
            document = parsed
        }
        var photo: (data: Data, kind: ImageKind)?
        for kind in ImageKind.allCases {
            for ext in Set([kind.fileExtension, kind.rawValue]) {
                let path = recipes.appendingPathComponent("\(id).\(ext)").path
                if photo == nil, FileManager.default.fileExists(atPath: path) {
                    photo = try PhotoStore.readUserPhoto(at: path)
                }
            }
        }
        return Entry(id: id, document: document, photo: photo, created: created)
    }

    private static func firstExisting(_ names: [String], in root: URL) -> URL? {
        names.lazy.map { root.appendingPathComponent($0) }.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    private static func readIDs(_ url: URL) throws -> [String] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw FerryError(.usage, "cannot read \(url.path): check its permissions", underlying: error)
        }
        guard data.count <= 16 << 20, let list = try? JSONSerialization.jsonObject(with: data) as? [Any] else {
            throw FerryError(.usage, "\(url.path) is not a JSON list of recipe ids such as [\"demo-dal\"]")
        }
        return try list.map { item in
            guard let id = item as? String else {
                throw FerryError(
                    .usage,
                    "\(url.path) holds \(String(describing: item).prefix(64)), which is not a recipe id string"
                )
            }
            return id
        }
    }
}
