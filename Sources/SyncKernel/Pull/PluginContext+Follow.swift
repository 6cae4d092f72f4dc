import Foundation
import GRDB

extension PluginContext {
    /// Applies one change inside the page's transaction and says what it did.
    public typealias ApplyChange = @Sendable (FeedChange, Database) throws -> FeedOutcome
    /// Removes, inside the resync's transaction, the local rows whose ids the remote no
    /// longer has (`live` holds every id it has), except rows with unsent writes; returns
    /// how many it removed.
    public typealias Sweep = @Sendable (_ live: Set<String>, Database) throws -> Int

    /// Follows the changes feed at `path` from the cursor stored under `cursor` to its end.
    ///
    /// Each page's changes and its cursor commit in one transaction, so a pull cut short
    /// resumes where it stopped. It stops when the page says `has_more: false` or its cursor
    /// did not move. The unsent operations of a page's entities come in one query, on each
    /// `FeedChange`; after `apply` stored the remote's state of an entity that has some, the
    /// kernel applies them again on top (`SyncPlugin.reapply(_:in:)`, the rebase). When the remote answers `400 invalid_cursor` (it was reset, or
    /// restored from a backup), the feed is pulled again from the start, as when `layout`
    /// changed, or when a replayed answer asked for it (`SyncCursors.reset`). The first page
    /// presents the lowest and highest change numbers write answers gave since the feed's
    /// last pull (`seen`, docs/protocol.md §6): a remote restored from a backup that forgot
    /// one of those writes answers `invalid_cursor` to them too, though the cursor, from
    /// before the backup, is one it knows. A feed's first pull presents the numbers of the
    /// plugin's writes answered before it (``SyncCursors/unpulled``): the writes a device made
    /// offline before it ever pulled are followed too.
    ///
    /// - Parameters:
    ///   - path: the feed's path below the plugin's remote.
    ///   - cursorName: the name the feed's cursor is stored under (`cursor:`); a plugin with
    ///     several feeds gives each its own.
    ///   - pageSize: the `limit` asked for each page.
    ///   - layout: the version of how the plugin builds its rows from this feed, stored with
    ///     the cursor. When it differs from the stored one (a new build changed its cache's
    ///     tables: bump it with the migration), the feed is pulled again: every page from
    ///     the beginning, applied in one transaction, then `sweep` removes the rows the
    ///     remote no longer has, and the new layout is stored with the cursor. Nil: the
    ///     rows never need rebuilding.
    ///   - apply: applies one change, inside the page's transaction.
    ///   - sweep: removes, during a resync, the rows the remote no longer has; without it,
    ///     a resync removes nothing.
    /// - Returns: what the changes did, counted over every page.
    public func follow(
        _ path: String,
        cursor cursorName: String = "default",
        pageSize: Int = 500,
        layout: String? = nil,
        apply: @escaping ApplyChange,
        sweep: Sweep? = nil
    ) async throws -> PullSummary {
        guard cursorName != SyncCursors.unpulled else {
            throw FerryError(
                .plugin,
                "\(name): '\(cursorName)' is the kernel's own name among cursors;"
                    + " give the feed \(path) another (cursor:)."
            )
        }
        let plugin = name
        let (start, stored, seen) = try await store.read { db in
            let start = try SyncCursors.cursor(plugin: plugin, name: cursorName, in: db)
            // A feed never pulled presents, and resyncs for, what its plugin's others do not.
            let row = start == nil ? SyncCursors.unpulled : cursorName
            return (
                start,
                try SyncCursors.layout(plugin: plugin, name: row, in: db),
                try SyncCursors.seen(plugin: plugin, name: row, in: db)
            )
        }
        let feed = Feed(path: path, cursor: cursorName, pageSize: pageSize, layout: layout, stored: stored, seen: seen)
        if stored == SyncCursors.resyncLayout || layout.map({ $0 != stored }) ?? false {
            return try await resync(feed, apply: apply, sweep: sweep)
        }
        do {
            return try await followPages(feed, from: start, apply: apply)
        } catch let failure as RemoteFailure where failure.status == 400 && failure.code == "invalid_cursor" {
            logger.warning(
                "\(name): the remote no longer knows this store's cursor for \(path) (\(failure.reason)); pulling it again from the start"
            )
            events.emit(.resyncing(plugin: name, reason: failure.reason))
            return try await resync(feed, apply: apply, sweep: sweep)
        }
    }

    /// One feed as `follow` pulls it.
    private struct Feed: Sendable {
        let path: String
        let cursor: String
        let pageSize: Int
        let layout: String?
        /// The layout stored with the feed's cursor.
        let stored: String?
        /// The change numbers the first page presents; the cursor saved after it is done with them.
        let seen: ClosedRange<Int>?
    }

    private func followPages(_ feed: Feed, from start: String?, apply: @escaping ApplyChange) async throws -> PullSummary {
        var summary = PullSummary()
        var cursor = start
        var seen = feed.seen
        while true {
            let page = try await fetchPage(feed.path, since: cursor, seen: seen, pageSize: feed.pageSize)
            // A page that brings nothing new leaves the store as it is: an idle runner's
            // pulls write nothing.
            if page.changes.isEmpty, page.cursor == cursor, seen == nil, feed.layout == feed.stored { return summary }
            summary =
                summary
                + (try await store.write { [seen] db in
                    let applied = try self.apply(page.changes, with: apply, in: db)
                    try self.saveCursor(page.cursor, name: feed.cursor, layout: feed.layout, checked: seen, in: db)
                    return applied
                })
            seen = nil
            guard page.hasMore, page.cursor != cursor else { return summary }
            cursor = page.cursor
        }
    }

    /// Every page from the beginning, then one transaction: the changes, the sweep, the
    /// cursor (done with the feed's `seen`: the resync holds every change the remote has).
    private func resync(_ feed: Feed, apply: @escaping ApplyChange, sweep: Sweep?) async throws -> PullSummary {
        var changes: [ChangesPage.Change] = []
        var cursor: String?
        while true {
            let page = try await fetchPage(feed.path, since: cursor, seen: nil, pageSize: feed.pageSize)
            changes += page.changes
            let done = !page.hasMore || page.cursor == cursor
            cursor = page.cursor
            if done { break }
        }
        let last = cursor
        return try await store.write { [changes] db in
            var summary = try self.apply(changes, with: apply, in: db)
            if let sweep {
                summary.deleted += try sweep(Set(changes.filter { $0.entity != nil }.map(\.id)), db)
            }
            if let last { try self.saveCursor(last, name: feed.cursor, layout: feed.layout, checked: feed.seen, in: db) }
            return summary
        }
    }

    private func fetchPage(
        _ path: String,
        since cursor: String?,
        seen: ClosedRange<Int>?,
        pageSize: Int
    ) async throws -> ChangesPage {
        let presented = seen.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound),\($0.upperBound)" }
        let query = [("limit", String(pageSize))] + (cursor.map { [("since", $0)] } ?? []) + (presented.map { [("seen", $0)] } ?? [])
        let response = try await transport.send(HTTPRequest("GET", path, query: query))
        return try ChangesPage(response.body, feed: path)
    }

    private func apply(_ changes: [ChangesPage.Change], with apply: ApplyChange, in db: Database) throws -> PullSummary {
        let pending = try Outbox.unsentOperations(plugin: self.name, entities: changes.map(\.id), in: db)
        var summary = PullSummary()
        for change in changes {
            let unsent = pending[change.id] ?? []
            var outcome = try apply(FeedChange(id: change.id, entity: change.entity, pending: unsent), db)
            if !unsent.isEmpty, outcome != .skipped {
                try Rebase.reapply(unsent, through: plugin, from: .elsewhere, in: db)
                outcome = .rebased
            }
            summary.count(outcome)
        }
        return summary
    }
}
