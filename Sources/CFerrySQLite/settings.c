#include "CFerrySQLite.h"

#include <sqlite3.h>

#if defined(_WIN32)
static int configured = -1;

int ferry_sqlite_prepare_process(void) {
    if (configured < 0) configured = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    return configured;
}
#else
#include <pthread.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int configured = SQLITE_OK;

static void configure(void) { configured = sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }

int ferry_sqlite_prepare_process(void) {
    pthread_once(&once, configure);
    return configured;
}
#endif
