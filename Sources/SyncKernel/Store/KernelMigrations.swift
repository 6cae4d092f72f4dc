import GRDB

/// The kernel's own tables. Ids are never renamed; new steps are appended.
enum KernelMigrations {
    static let all: [StoreMigration] = [
        outbox, conflicts, cursors, idMappings, settings, pluginState, operationCounts, waitingIndex,
        TransferMigration.kernel, DeclaredEntities.migration, holdCredential, dependsOn, configurationHold,
        conflictFields, operationCountsByAccount, cursorLayouts, scheduledAt, cursorSeenChanges,
        remoteUnknown,
    ]

    /// Whether the plugin knew the remote's state of the entity when it made the operation
    /// (`NewOperation.remoteKnown`): a later opposite write cancels it only when it did.
    static let remoteUnknown = StoreMigration("kernel.v3.remote_unknown") { db in
        try db.execute(sql: "ALTER TABLE kernel_operations ADD COLUMN remote_unknown INTEGER NOT NULL DEFAULT 0")
    }

    /// The lowest and highest change numbers write answers gave (`Ferry-Change`) since the
    /// feed was last pulled, beside each of the plugin's cursors: the next pull presents
    /// them (`seen`), so that a remote restored from a backup that forgot a write says so.
    static let cursorSeenChanges = StoreMigration("kernel.v3.cursor_seen_changes") { db in
        try db.execute(sql: "ALTER TABLE kernel_cursors ADD COLUMN seen_first INTEGER")
        try db.execute(sql: "ALTER TABLE kernel_cursors ADD COLUMN seen_last INTEGER")
    }

    /// When an operation's wait started (`OutboxQueries.reschedule`), so that a clock set back
    /// does not lengthen it. Only waiting operations have one: the index stays small.
    static let scheduledAt = StoreMigration("kernel.v3.scheduled_at") { db in
        try db.execute(
            sql: """
                ALTER TABLE kernel_operations ADD COLUMN scheduled_at REAL;
                CREATE INDEX kernel_operations_scheduled ON kernel_operations(scheduled_at)
                    WHERE scheduled_at IS NOT NULL;
                """
        )
    }

    static let outbox = StoreMigration("kernel.v1.outbox") { db in
        try db.execute(
            sql: """
                CREATE TABLE kernel_operations (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    id TEXT NOT NULL UNIQUE,
                    plugin TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    entity TEXT NOT NULL,
                    payload BLOB NOT NULL,
                    base BLOB,
                    created_at REAL NOT NULL,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    next_attempt_at REAL NOT NULL,
                    state TEXT NOT NULL,
                    waiting_for TEXT,
                    lease_owner TEXT,
                    lease_until REAL,
                    last_error TEXT,
                    dispatched INTEGER NOT NULL DEFAULT 0,
                    force INTEGER NOT NULL DEFAULT 0,
                    requires_unmetered INTEGER NOT NULL DEFAULT 0,
                    account TEXT
                );
                CREATE INDEX kernel_operations_entity ON kernel_operations(plugin, entity, seq);
                CREATE INDEX kernel_operations_ready ON kernel_operations(next_attempt_at, seq)
                    WHERE state = 'pending';
                CREATE INDEX kernel_operations_state ON kernel_operations(state, plugin);
                """
        )
    }

    static let conflicts = StoreMigration("kernel.v1.conflicts") { db in
        try db.execute(
            sql: """
                CREATE TABLE kernel_conflicts (
                    id TEXT PRIMARY KEY,
                    operation_id TEXT NOT NULL,
                    plugin TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    entity TEXT NOT NULL,
                    policy TEXT NOT NULL,
                    status INTEGER NOT NULL,
                    local BLOB NOT NULL,
                    remote BLOB,
                    reason TEXT NOT NULL,
                    outcome TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    resolved_at REAL
                );
                CREATE INDEX kernel_conflicts_open ON kernel_conflicts(plugin, outcome);
                """
        )
    }

    static let cursors = StoreMigration("kernel.v1.cursors") { db in
        try db.execute(
            sql: """
                CREATE TABLE kernel_cursors (
                    plugin TEXT NOT NULL,
                    name TEXT NOT NULL,
                    cursor TEXT NOT NULL,
                    updated_at REAL NOT NULL,
                    PRIMARY KEY (plugin, name)
                );
                """
        )
    }

    /// The layout a plugin built its rows of a feed with, beside that feed's cursor
    /// (`PluginContext.follow(_:layout:)`).
    static let cursorLayouts = StoreMigration("kernel.v2.cursor_layouts") { db in
        try db.execute(sql: "ALTER TABLE kernel_cursors ADD COLUMN layout TEXT")
    }

    static let idMappings = StoreMigration("kernel.v1.id_mappings") { db in
        try db.execute(
            sql: """
                CREATE TABLE kernel_id_mappings (
                    plugin TEXT NOT NULL,
                    local_id TEXT NOT NULL,
                    remote_id TEXT NOT NULL,
                    created_at REAL NOT NULL,
                    PRIMARY KEY (plugin, local_id)
                );
                """
        )
    }

    static let settings = StoreMigration("kernel.v1.settings") { db in
        try db.execute(
            sql: """
                CREATE TABLE kernel_settings (
                    key TEXT PRIMARY KEY,
                    value TEXT NOT NULL
                );
                """
        )
    }

    static let pluginState = StoreMigration("kernel.v1.plugin_state") { db in
        try db.execute(
            sql: """
                CREATE TABLE kernel_plugin_state (
                    plugin TEXT PRIMARY KEY,
                    needs_login INTEGER NOT NULL DEFAULT 0,
                    hold_reason TEXT,
                    last_sync_at REAL,
                    last_error TEXT
                );
                """
        )
    }

    /// Counters per plugin and state, kept by triggers, so `ferry status` reads a few rows
    /// instead of counting a queue that may hold millions of operations.
    static let operationCounts = StoreMigration("kernel.v1.operation_counts") { db in
        try db.execute(
            sql: """
                CREATE TABLE kernel_operation_counts (
                    plugin TEXT NOT NULL,
                    state TEXT NOT NULL,
                    n INTEGER NOT NULL,
                    PRIMARY KEY (plugin, state)
                ) WITHOUT ROWID;
                INSERT INTO kernel_operation_counts (plugin, state, n)
                    SELECT plugin, state, count(*) FROM kernel_operations GROUP BY plugin, state;
                CREATE TRIGGER kernel_operations_count_insert AFTER INSERT ON kernel_operations BEGIN
                    INSERT INTO kernel_operation_counts (plugin, state, n) VALUES (NEW.plugin, NEW.state, 1)
                        ON CONFLICT (plugin, state) DO UPDATE SET n = n + 1;
                END;
                CREATE TRIGGER kernel_operations_count_delete AFTER DELETE ON kernel_operations BEGIN
                    UPDATE kernel_operation_counts SET n = n - 1 WHERE plugin = OLD.plugin AND state = OLD.state;
                END;
                CREATE TRIGGER kernel_operations_count_update AFTER UPDATE OF plugin, state ON kernel_operations
                WHEN OLD.plugin IS NOT NEW.plugin OR OLD.state IS NOT NEW.state BEGIN
                    UPDATE kernel_operation_counts SET n = n - 1 WHERE plugin = OLD.plugin AND state = OLD.state;
                    INSERT INTO kernel_operation_counts (plugin, state, n) VALUES (NEW.plugin, NEW.state, 1)
                        ON CONFLICT (plugin, state) DO UPDATE SET n = n + 1;
                END;
                """
        )
    }

    /// Pending operations that wait (for connectivity, a backoff or a login): few, even
    /// when the queue is long, so status counts them through this index alone.
    static let waitingIndex = StoreMigration("kernel.v1.waiting_index") { db in
        try db.execute(
            sql: """
                CREATE INDEX kernel_operations_waiting ON kernel_operations(plugin, waiting_for, next_attempt_at)
                    WHERE state = 'pending' AND waiting_for IS NOT NULL;
                """
        )
    }

    /// Which credential a held queue was refused with (a fingerprint, never the token), so
    /// that the hold ends by itself as soon as another credential is there.
    static let holdCredential = StoreMigration("kernel.v2.hold_credential") { db in
        try db.execute(sql: "ALTER TABLE kernel_plugin_state ADD COLUMN hold_credential TEXT")
    }

    /// The entity an operation waits for (`SendOutcome.waitsFor`): it goes once that entity has
    /// no operation left in the outbox.
    static let dependsOn = StoreMigration("kernel.v2.depends_on") { db in
        try db.execute(sql: "ALTER TABLE kernel_operations ADD COLUMN depends_on TEXT")
    }

    /// The fingerprint of a plugin's configuration when its operations started waiting for
    /// it to change (`SendOutcome.needsConfiguration`).
    static let configurationHold = StoreMigration("kernel.v2.configuration_hold") { db in
        try db.execute(sql: "ALTER TABLE kernel_plugin_state ADD COLUMN configuration_hold TEXT")
    }

    /// The fields of a conflict merged field by field (`FieldConflict`, as JSON).
    static let conflictFields = StoreMigration("kernel.v2.conflict_fields") { db in
        try db.execute(sql: "ALTER TABLE kernel_conflicts ADD COLUMN fields TEXT")
    }

    /// The counters per plugin and state, now per account too (`''` for work made while
    /// nobody was signed in), so that status tells work held for another account from
    /// work ready to send without counting the queue. Still one counter row per write.
    static let operationCountsByAccount = StoreMigration("kernel.v2.operation_counts_by_account") { db in
        try db.execute(
            sql: """
                DROP TRIGGER kernel_operations_count_insert;
                DROP TRIGGER kernel_operations_count_delete;
                DROP TRIGGER kernel_operations_count_update;
                DROP TABLE kernel_operation_counts;
                CREATE TABLE kernel_operation_counts (
                    plugin TEXT NOT NULL,
                    state TEXT NOT NULL,
                    account TEXT NOT NULL,
                    n INTEGER NOT NULL,
                    PRIMARY KEY (plugin, state, account)
                ) WITHOUT ROWID;
                INSERT INTO kernel_operation_counts (plugin, state, account, n)
                    SELECT plugin, state, COALESCE(account, ''), count(*) FROM kernel_operations
                    GROUP BY plugin, state, COALESCE(account, '');
                CREATE TRIGGER kernel_operations_count_insert AFTER INSERT ON kernel_operations BEGIN
                    INSERT INTO kernel_operation_counts (plugin, state, account, n)
                        VALUES (NEW.plugin, NEW.state, COALESCE(NEW.account, ''), 1)
                        ON CONFLICT (plugin, state, account) DO UPDATE SET n = n + 1;
                END;
                CREATE TRIGGER kernel_operations_count_delete AFTER DELETE ON kernel_operations BEGIN
                    UPDATE kernel_operation_counts SET n = n - 1
                        WHERE plugin = OLD.plugin AND state = OLD.state AND account = COALESCE(OLD.account, '');
                END;
                CREATE TRIGGER kernel_operations_count_update AFTER UPDATE OF plugin, state, account ON kernel_operations
                WHEN OLD.plugin IS NOT NEW.plugin OR OLD.state IS NOT NEW.state OR OLD.account IS NOT NEW.account BEGIN
                    UPDATE kernel_operation_counts SET n = n - 1
                        WHERE plugin = OLD.plugin AND state = OLD.state AND account = COALESCE(OLD.account, '');
                    INSERT INTO kernel_operation_counts (plugin, state, account, n)
                        VALUES (NEW.plugin, NEW.state, COALESCE(NEW.account, ''), 1)
                        ON CONFLICT (plugin, state, account) DO UPDATE SET n = n + 1;
                END;
                """
        )
    }
}
