// The OS's SQLite 3 C API (libsqlite3: apt libsqlite3-dev on Debian/Ubuntu; part of the SDK on
// Apple platforms).
#include <sqlite3.h>
