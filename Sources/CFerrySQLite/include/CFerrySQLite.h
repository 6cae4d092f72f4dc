#ifndef CFERRYSQLITE_H
#define CFERRYSQLITE_H

/// Settles SQLite's process-wide settings before the process's first connection, once;
/// later calls do nothing. Today one setting: memory statistics off
/// (`SQLITE_CONFIG_MEMSTATUS`). With them on, every allocation SQLite makes takes one
/// mutex shared by all connections of the process, which connections on other threads
/// (a store's writer and its readers, a server beside its clients) wait on. Without them,
/// `sqlite3_memory_used()` reports 0 and `sqlite3_soft_heap_limit64()` has no effect.
///
/// Returns SQLITE_OK (0), or SQLITE_MISUSE when SQLite already ran in this process before
/// the first call (its statistics then stay on; nothing else changes).
int ferry_sqlite_prepare_process(void);

#endif
