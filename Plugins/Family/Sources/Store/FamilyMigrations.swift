import GRDB
import SyncKernel

/// The family plugin's tables: a cache of what the remote said (groups, members, rounds,
/// suggestions, picks), the attendees of rounds started offline until the remote has them,
/// and the votes cast from this device.
/// Tallies and other members' votes are never stored: they are fetched fresh.
enum FamilyMigrations {
    static let all: [StoreMigration] = [
        StoreMigration("family.v1.groups") { db in
            try db.execute(
                sql: """
                    CREATE TABLE family_groups (
                        id TEXT PRIMARY KEY,
                        json BLOB NOT NULL,
                        active_round_id TEXT,
                        detailed INTEGER NOT NULL DEFAULT 0,
                        fetched_at DOUBLE NOT NULL
                    )
                    """
            )
        },
        StoreMigration("family.v1.members") { db in
            try db.execute(
                sql: """
                    CREATE TABLE family_members (
                        id TEXT PRIMARY KEY,
                        group_id TEXT NOT NULL,
                        json BLOB NOT NULL
                    );
                    CREATE INDEX family_members_group ON family_members(group_id)
                    """
            )
        },
        StoreMigration("family.v1.rounds") { db in
            try db.execute(
                sql: """
                    CREATE TABLE family_rounds (
                        id TEXT PRIMARY KEY,
                        group_id TEXT NOT NULL,
                        status TEXT NOT NULL,
                        json BLOB NOT NULL,
                        fetched_at DOUBLE NOT NULL
                    );
                    CREATE INDEX family_rounds_group ON family_rounds(group_id, status)
                    """
            )
        },
        StoreMigration("family.v1.suggestions") { db in
            try db.execute(
                sql: """
                    CREATE TABLE family_suggestions (
                        round_id TEXT NOT NULL,
                        tmdb_id INTEGER NOT NULL,
                        json BLOB NOT NULL,
                        PRIMARY KEY (round_id, tmdb_id)
                    )
                    """
            )
        },
        StoreMigration("family.v1.picks") { db in
            try db.execute(
                sql: """
                    CREATE TABLE family_picks (
                        round_id TEXT PRIMARY KEY,
                        tmdb_id INTEGER NOT NULL,
                        json BLOB NOT NULL,
                        state TEXT NOT NULL,
                        lost_tmdb_id INTEGER
                    )
                    """
            )
        },
        StoreMigration("family.v1.attendees") { db in
            try db.execute(
                sql: """
                    CREATE TABLE family_attendees (
                        round_id TEXT NOT NULL,
                        member_id TEXT NOT NULL,
                        PRIMARY KEY (round_id, member_id)
                    )
                    """
            )
        },
        StoreMigration("family.v1.votes") { db in
            try db.execute(
                sql: """
                    CREATE TABLE family_votes (
                        round_id TEXT NOT NULL,
                        tmdb_id INTEGER NOT NULL,
                        member_key TEXT NOT NULL,
                        value TEXT NOT NULL,
                        state TEXT NOT NULL,
                        note TEXT,
                        PRIMARY KEY (round_id, tmdb_id, member_key)
                    )
                    """
            )
        },
    ]
}
