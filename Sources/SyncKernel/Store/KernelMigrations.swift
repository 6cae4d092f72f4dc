import GRDB

/// The kernel's own tables. Ids are never renamed; new steps are appended.
enum KernelMigrations {
    static let all: [StoreMigration] = [outbox, conflicts, cursors, idMappings, settings, pluginState]

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
                """)
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
                """)
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
                """)
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
                """)
    }

    static let settings = StoreMigration("kernel.v1.settings") { db in
        try db.execute(
            sql: """
                CREATE TABLE kernel_settings (
                    key TEXT PRIMARY KEY,
                    value TEXT NOT NULL
                );
                """)
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
                """)
    }
}
