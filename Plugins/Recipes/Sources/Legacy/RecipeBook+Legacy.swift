import Foundation
import GRDB
import SyncKernel

extension RecipeBook {
    /// Takes the saved recipes of an older layout (see `LegacyLayout`) into the store, once:
    /// every recipe taken is remembered, so running it again changes nothing, even for
    /// recipes unsaved since.
    ///
    /// A recipe the cache does not know is stored and queued for upload (create-only: a
    /// recipe the server already has is adopted as it is there), then saved.
    ///
    /// `progress` is told how many entries of the layout were taken so far, and of how many.
    public func importLegacy(
        from folder: String,
        progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) async throws -> LegacyImportReport {
        let layout = try LegacyLayout(folder: folder)
        var report = LegacyImportReport(problems: layout.problems)
        let ids = layout.entries.map(\.id)
        let (done, known) = try await runtime.store.read { db in
            (
                try Set(
                    ids.filter {
                        try Bool.fetchOne(
                            db.cachedStatement(
                                sql: "SELECT EXISTS (SELECT 1 FROM recipes_legacy_imports WHERE recipe_id = ?)"
                            ),
                            arguments: [$0]
                        ) ?? false
                    }
                ),
                try Dictionary(
                    uniqueKeysWithValues: ids.compactMap { id in
                        try Recipe.find(id, in: db).map { (id, $0.photoFile != nil) }
                    }
                )
            )
        }
        var written: [String: (file: String, sha256: String)] = [:]
        do {
            for entry in layout.entries where !done.contains(entry.id) {
                // A photo is written only where no photo is stored yet, so no stored photo is replaced.
                let needsPhoto = known[entry.id].map { !$0 } ?? (entry.document != nil)
                if let photo = entry.photo, needsPhoto {
                    written[entry.id] = try plugin.photos.write(photo.data, id: entry.id, kind: photo.kind)
                }
            }
            let now = runtime.clock.now()
            let source = URL(fileURLWithPath: folder).standardizedFileURL.path
            let entries = layout.entries
            let stored = written
            let result = try await runtime.commit { db, queue -> (LegacyImportReport, [String]) in
                var counts = LegacyImportReport()
                var unused: [String] = []
                for (index, entry) in entries.enumerated() {
                    progress(index, entries.count)
                    if try Bool.fetchOne(
                        db.cachedStatement(
                            sql: "SELECT EXISTS (SELECT 1 FROM recipes_legacy_imports WHERE recipe_id = ?)"
                        ),
                        arguments: [entry.id]
                    ) ?? false {
                        counts.alreadyImported += 1
                        continue
                    }
                    try Self.take(
                        entry,
                        photo: stored[entry.id],
                        counts: &counts,
                        unused: &unused,
                        queue: &queue,
                        now: now,
                        in: db
                    )
                    try db.cachedStatement(
                        sql: "INSERT INTO recipes_legacy_imports (recipe_id, source, imported_at) VALUES (?, ?, ?)"
                    ).execute(arguments: [entry.id, source, now.timeIntervalSince1970])
                    counts.imported += 1
                }
                progress(entries.count, entries.count)
                return (counts, unused)
            }
            let (counts, unused) = result.value
            for file in unused { plugin.photos.remove(file) }
            report.imported = counts.imported
            report.alreadyImported = counts.alreadyImported
            report.documents = counts.documents
            report.photos = counts.photos
            report.savesQueued = counts.savesQueued
        } catch {
            for file in written.values { plugin.photos.remove(file.file) }
            throw error
        }
        return report
    }

    /// Takes one entry: its document (if the cache lacks it), its photo, its save.
    private static func take(
        _ entry: LegacyLayout.Entry,
        photo: (file: String, sha256: String)?,
        counts: inout LegacyImportReport,
        unused: inout [String],
        queue: inout OperationsToQueue,
        now: Date,
        in db: Database
    ) throws {
        if var existing = try Recipe.find(entry.id, in: db) {
            if let photo, existing.photoFile == nil {
                existing.photoFile = photo.file
                existing.photoSHA256 = photo.sha256
                try existing.save(in: db)
                counts.photos += 1
            } else if let photo, photo.file != existing.photoFile {
                unused.append(photo.file)
            }
        } else if let document = entry.document {
            let recipe = Recipe(
                id: entry.id,
                title: document.title,
                document: document.data,
                version: nil,
                mine: entry.created,
                remotePhotoSHA256: nil,
                remotePhotoType: nil,
                photoFile: photo?.file,
                photoSHA256: photo?.sha256,
                changedAt: now
            )
            try recipe.save(in: db)
            counts.documents += 1
            if photo != nil { counts.photos += 1 }
            let uploadPhoto = entry.created ? photo : nil
            let upload = try NewOperation(
                plugin: RecipesPlugin.name,
                kind: "upload",
                entity: entry.id,
                payload: UploadPayload(
                    document: String(decoding: document.data, as: UTF8.self),
                    photoFile: uploadPhoto?.file,
                    photoType: uploadPhoto.flatMap { _ in entry.photo?.kind.contentType }
                )
            )
            queue.enqueue(upload)
        } else if let photo {
            unused.append(photo.file)
        }
        if !(try SavedSet.contains(entry.id, in: db)) {
            try SavedSet.insert(entry.id, at: now, in: db)
            var save = try NewOperation(
                plugin: RecipesPlugin.name,
                kind: "save",
                entity: entry.id,
                payload: [String: String]()
            )
            // Before the first pull, an unsave after the import replaces this save.
            save.remoteKnown = try SavedSet.isKnown(in: db)
            queue.enqueue(save)
            counts.savesQueued += 1
        }
    }
}
