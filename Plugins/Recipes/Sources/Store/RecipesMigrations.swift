import GRDB
import SyncKernel

/// The recipes plugin's tables. Ids are never renamed; new steps are appended.
enum RecipesMigrations {
    static let all: [StoreMigration] = [recipes, saved, legacyImports]

    /// Every recipe the client knows: pulled from the remote, or created here.
    static let recipes = StoreMigration("recipes.v1.recipes") { db in
        try db.execute(
            sql: """
                CREATE TABLE recipes_recipes (
                    id TEXT PRIMARY KEY,
                    title TEXT NOT NULL,
                    document BLOB NOT NULL,
                    version INTEGER,
                    mine INTEGER NOT NULL DEFAULT 0,
                    remote_photo_sha256 TEXT,
                    remote_photo_type TEXT,
                    photo_file TEXT,
                    photo_sha256 TEXT,
                    changed_at REAL NOT NULL
                );
                CREATE INDEX recipes_recipes_title ON recipes_recipes(title, id);
                """
        )
    }

    /// The user's saved set as this client knows it: a row is a saved recipe.
    static let saved = StoreMigration("recipes.v1.saved") { db in
        try db.execute(
            sql: """
                CREATE TABLE recipes_saved (
                    recipe_id TEXT PRIMARY KEY,
                    saved_at REAL NOT NULL
                )
                """
        )
    }

    /// Recipe ids already taken from an older layout, so that an import runs once per recipe.
    static let legacyImports = StoreMigration("recipes.v1.legacy_imports") { db in
        try db.execute(
            sql: """
                CREATE TABLE recipes_legacy_imports (
                    recipe_id TEXT PRIMARY KEY,
                    source TEXT NOT NULL,
                    imported_at REAL NOT NULL
                )
                """
        )
    }
}
