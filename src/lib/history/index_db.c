/* The SQLite file behind the history index: opening, schema creation and version checks.
 *
 * Layout (schema 1). `commits` is verhaal's table plus the metadata records need; the unique
 * index on id and the partial indexes are created after a full build's bulk insert because
 * building them once is much cheaper than maintaining them row by row. `generations` (raw
 * 20-byte id -> generation number, see index_build.c) is a separate table so that indexes
 * written before it existed stay valid: without it dyad asks libgit2 about ancestry. */
#include <stdio.h>
#include <string.h>

#include "history/history_internal.h"
#include "core/text.h"

int index_db_exec(sqlite3 *db, const char *sql, struct kcve_err *err)
{
	char *msg = NULL;
	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		int rc = sqlite3_errcode(db);
		kcve_err_set(err, (rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB) ? KCVE_E_INDEX : KCVE_E_IO,
			     "history index: %s (%s), rerun 'kcve index --rebuild'",
			     msg ? msg : sqlite3_errmsg(db), sqlite3_db_filename(db, "main"));
		sqlite3_free(msg);
		return err->code;
	}
	return 0;
}

int index_db_open(const char *path, bool create, sqlite3 **out, struct kcve_err *err)
{
	sqlite3 *db = NULL;
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0);
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		kcve_err_set(err, KCVE_E_INDEX, "cannot open history index %s: %s, run 'kcve index'",
			     path, db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return err->code;
	}
	sqlite3_busy_timeout(db, 60000);
	/* No WAL checkpoint when the connection closes: it costs two fdatasync()s, which on a busy
	 * disk made up ~85% of an incremental update's 0.8 s (strace). SQLite's automatic
	 * checkpoint (every 1000 WAL pages, by a writer) still bounds the WAL, and WAL mode keeps
	 * the file consistent either way. */
	sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)NULL);
	*out = db;
	return 0;
}

int index_db_create_schema(sqlite3 *db, struct kcve_err *err)
{
	char sql[2048];
	text_snprintf(sql, sizeof(sql),
		 "CREATE TABLE schema_version(version INTEGER NOT NULL, writer TEXT);"
		 "INSERT INTO schema_version VALUES(%d, 'kcve " KCVE_VERSION "');"
		 "CREATE TABLE commits(id TEXT NOT NULL, release TEXT NOT NULL,"
		 " mainline INTEGER NOT NULL, mainline_id TEXT, reverts TEXT, fixes TEXT,"
		 " subject TEXT, author TEXT, author_time INTEGER, commit_time INTEGER);"
		 "CREATE TABLE ranges(version_from TEXT NOT NULL, version_to TEXT NOT NULL,"
		 " mainline INTEGER NOT NULL, commits INTEGER NOT NULL,"
		 " PRIMARY KEY(version_from, version_to));"
		 "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
		 "CREATE TABLE generations(id BLOB PRIMARY KEY, gen INTEGER NOT NULL) WITHOUT ROWID;",
		 HISTORY_SCHEMA_VERSION);
	return index_db_exec(db, sql, err);
}

int index_meta_get(sqlite3 *db, const char *key, char *out, size_t outsz)
{
	sqlite3_stmt *s;
	out[0] = '\0';
	if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key = ?1", -1, &s, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	int rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && sqlite3_column_text(s, 0))
		text_snprintf(out, outsz, "%s", (const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

int index_meta_set(sqlite3 *db, const char *key, const char *value, struct kcve_err *err)
{
	sqlite3_stmt *s;
	if (sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO meta VALUES(?1, ?2)", -1, &s, NULL) != SQLITE_OK)
		return kcve_err_set(err, KCVE_E_IO, "cannot write history index %s: %s",
				    sqlite3_db_filename(db, "main"), sqlite3_errmsg(db));
	sqlite3_bind_text(s, 1, key, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, value, -1, SQLITE_STATIC);
	int rc = sqlite3_step(s);
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE)
		return kcve_err_set(err, KCVE_E_IO, "cannot write history index %s: %s",
				    sqlite3_db_filename(db, "main"), sqlite3_errmsg(db));
	return 0;
}
