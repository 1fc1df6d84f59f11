/* kcve verify, the tree-access part: everything kcve refuses to read or follow in the record
 * tree (safefs.h), one line each, so a hostile or damaged entry is named instead of being
 * silently skipped: links, special files (FIFOs, devices, sockets), files over the size cap,
 * names with control characters, and state directories (.kcve) that are links, foreign or
 * hold an interrupted operation. */
#include "store/verify_access.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/safefs.h"
#include "core/strbuf.h"
#include "store/journal.h"
#include "store/tree_internal.h"

struct actx {
	struct cve_tree *t;
	FILE *out;
	size_t problems;
};

__attribute__((format(printf, 5, 6))) static void report(struct actx *a, const char *dir,
							  const char *name, const char *rule,
							  const char *fmt, ...)
{
	struct strbuf who = STRBUF_INIT;
	sb_adds(&who, dir);
	if (name) {
		sb_addc(&who, '/');
		sb_add_printable(&who, name);
	}
	fprintf(a->out, "%s: %s: ", who.buf, rule);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(a->out, fmt, ap);
	va_end(ap);
	fputc('\n', a->out);
	sb_release(&who);
	a->problems++;
}

enum want { WANT_DIR, WANT_FILE, WANT_ANY };

/* Judge one entry of directory dfd (shown as rel); true if it is usable as wanted. */
static bool judge(struct actx *a, int dfd, const char *rel, const char *name, enum want w)
{
	if (!safe_name(name)) {
		report(a, rel, name, "unsafe-name", "a name with a control character; kcve refuses "
		       "it: rename or remove it");
		return false;
	}
	struct stat st;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return false; /* gone meanwhile */
	if (S_ISLNK(st.st_mode)) {
		report(a, rel, name, "link", "a symbolic link; kcve never follows links in the "
		       "tree: replace it by the file itself or remove it");
		return false;
	}
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		report(a, rel, name, "special-file", "not a regular file (FIFO, device or socket); "
		       "remove it");
		return false;
	}
	if (w == WANT_DIR && !S_ISDIR(st.st_mode)) {
		report(a, rel, name, "not-a-directory", "expected a directory; remove or rename it");
		return false;
	}
	if (w == WANT_FILE && S_ISDIR(st.st_mode)) {
		report(a, rel, name, "stray-directory", "a directory where only CVE files belong; "
		       "move it out of the tree");
		return false;
	}
	if (S_ISREG(st.st_mode) && (size_t)st.st_size > SAFEFS_READ_MAX) {
		report(a, rel, name, "oversize", "%lld bytes, over the %zu MiB limit of a record "
		       "file; kcve will not read it", (long long)st.st_size, SAFEFS_READ_MAX >> 20);
		return false;
	}
	return true;
}

static bool is_year(const char *n)
{
	return strlen(n) == 4 && strspn(n, "0123456789") == 4;
}

static bool is_state(const char *n)
{
	return !strcmp(n, "reserved") || !strcmp(n, "published") || !strcmp(n, "rejected") ||
	       !strcmp(n, "returned");
}

/* A directory stream for rel under the tree root, reached without following links; NULL if
 * it cannot be opened (the entry itself was already judged and reported). */
static DIR *open_dir_at(int rootfd, const char *rel)
{
	int fd = safe_open_dir(rootfd, rel, false, 0);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d && fd >= 0)
		close(fd);
	return d;
}

/* Walk dir rel (already judged usable): every entry judged; level 0 = cve/, 1 = a state
 * directory, 2 = a year directory. */
static void walk(struct actx *a, const char *rel, int level)
{
	DIR *d = open_dir_at(a->t->rootfd, rel);
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		bool sub = (level == 0 && is_state(n)) || (level == 1 && is_year(n));
		enum want w = sub ? WANT_DIR : level == 2 ? WANT_FILE : WANT_ANY;
		if (judge(a, dirfd(d), rel, n, w) && sub) {
			struct strbuf child = STRBUF_INIT;
			sb_addf(&child, "%s/%s", rel, n);
			walk(a, child.buf, level + 1);
			sb_release(&child);
		}
	}
	closedir(d);
}

/* A journal kcve would replay, or one it refuses (with the parser's reason). */
static void judge_journal(struct actx *a, const char *name)
{
	struct strbuf rel = STRBUF_INIT, text = STRBUF_INIT;
	sb_addf(&rel, ".kcve/%s", name);
	struct journal j = {0};
	struct kcve_err err = {0};
	if (safe_read_at(a->t->rootfd, rel.buf, &text, SAFEFS_READ_MAX) < 0)
		report(a, ".kcve", name, "invalid-journal", "unreadable (%s); inspect and remove "
		       "it", safefs_reason(errno));
	else if (journal_parse(text.buf, text.len, rel.buf, &j, &err))
		report(a, ".kcve", name, "invalid-journal", "%s", err.msg);
	else
		report(a, ".kcve", name, "pending-journal", "an interrupted operation waits to be "
		       "completed; run 'kcve verify --recover' (or any writing command)");
	journal_free(&j);
	sb_release(&rel);
	sb_release(&text);
}

static void check_meta(struct actx *a)
{
	struct stat st;
	if (fstatat(a->t->rootfd, ".kcve", &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	if (!judge(a, a->t->rootfd, ".", ".kcve", WANT_DIR))
		return;
	DIR *d = open_dir_at(a->t->rootfd, ".kcve");
	if (!d)
		return;
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		bool journal = !strncmp(n, "journal.", 8), txn = !strncmp(n, "txn.", 4);
		if (!strcmp(n, "lock") || !strcmp(n, ".gitignore")) {
			judge(a, dirfd(d), ".kcve", n, WANT_FILE);
			continue;
		}
		if (!journal && !txn)
			continue;
		if (!judge(a, dirfd(d), ".kcve", n, journal ? WANT_FILE : WANT_DIR))
			continue;
		if (fstatat(dirfd(d), n, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (!tree_trusted_owner(a->t, st.st_uid))
			report(a, ".kcve", n, "foreign-owner", "owned by uid %u, not the tree's owner "
			       "(uid %u); kcve refuses it: inspect and remove it", (unsigned)st.st_uid,
			       (unsigned)a->t->owner);
		else if (journal && !strstr(n, ".tmp."))
			judge_journal(a, n);
	}
	closedir(d);
}

size_t verify_tree_access(struct cve_tree *t, FILE *out)
{
	struct actx a = {.t = t, .out = out};
	if (judge(&a, t->rootfd, ".", "cve", WANT_DIR))
		walk(&a, "cve", 0);
	check_meta(&a);
	return a.problems;
}
