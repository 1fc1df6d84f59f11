/* Fuzz the record tree walker and the tree-access rules on real directories: the input
 * describes entries (regular files, directories, symbolic links, FIFOs, planted journals)
 * created inside a fresh tree next to a sentinel directory; then the tree is walked (ids, sha
 * index, every CVE file read), verified, and locked (which replays what looks like a journal).
 * Invariants: the sentinel directory and the file the links point at are never changed nor
 * removed; no call blocks (FIFOs) or follows a link out of the tree.
 *
 * Input: records of [type][name length][name][content length][content]; type % 5: 0 file,
 * 1 directory, 2 symbolic link (content = target), 3 FIFO, 4 journal .kcve/journal.N (content
 * sealed as a format-2 journal when it starts with '!'). Names are created as given except
 * that ".." components and absolute paths are skipped (the fuzzer must not write outside its
 * own directory while building the input). */
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fileio.h"
#include "store/journal.h"
#include "store/store_internal.h"
#include "store/tree.h"
#include "store/tree_internal.h"
#include "store/verify.h"

static char base[64];
static char sentinel[128];

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st, (void)flag, (void)f;
	return remove(p);
}

static void rm_rf(const char *p)
{
	nftw(p, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static const char secret[] = "sentinel: must never change";

static void check_sentinel(void)
{
	struct strbuf sb = STRBUF_INIT;
	if (read_file(sentinel, &sb) < 0 || strcmp(sb_str(&sb), secret) != 0)
		abort(); /* something outside the tree was changed or removed */
	sb_release(&sb);
	struct stat st;
	if (stat(sentinel, &st) < 0 || (st.st_mode & 07777) != 0600)
		abort();
}

static void cleanup(void)
{
	rm_rf(base);
}

static int init(void)
{
	/* tmpfs when there is one: the walk fsyncs (lock, journals), which costs on a disk */
	struct stat st;
	const char *tmp = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp";
	snprintf(base, sizeof(base), "%s/fuzz_tree_walk.%d", tmp, (int)getpid());
	rm_rf(base);
	char out[128];
	snprintf(out, sizeof(out), "%s/outside", base);
	if (mkdir_p(out, 0755) < 0)
		abort();
	snprintf(sentinel, sizeof(sentinel), "%s/secret", out);
	int fd = open(sentinel, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, secret, strlen(secret)) != (ssize_t)strlen(secret))
		abort();
	close(fd);
	atexit(cleanup);
	return 0;
}

/* Relative name without ".." components or a leading '/'; NULL if nothing is left. */
static char *clean_name(const uint8_t *p, size_t n)
{
	char *s = strndup((const char *)p, n);
	if (!s || !*s || s[0] == '/' || strstr(s, "..")) {
		free(s);
		return NULL;
	}
	return s;
}

static void make_entry(const char *root, int type, const char *name, const uint8_t *c, size_t cl)
{
	char path[4096];
	if (type == 4) {
		snprintf(path, sizeof(path), "%s/.kcve/journal.%u", root, cl ? c[0] % 3u : 0u);
		mkdir_p(path, 0755), rmdir(path); /* parents */
		struct strbuf j = STRBUF_INIT;
		if (cl && c[0] == '!') {
			sb_adds(&j, JOURNAL_MAGIC);
			sb_add(&j, c + 1, cl - 1);
			journal_seal(&j);
		} else {
			sb_add(&j, c, cl);
		}
		atomic_write_file(path, j.buf ? j.buf : "", j.len, 0644);
		sb_release(&j);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", root, name);
	char *slash = strrchr(path, '/');
	*slash = '\0';
	mkdir_p(path, 0755);
	*slash = '/';
	char *target = strndup((const char *)c, cl);
	switch (type) {
	case 0: {
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_NONBLOCK, 0644);
		if (fd >= 0) {
			if (write(fd, c, cl) < 0) {
				/* a FIFO or directory of the same name: fine */
			}
			close(fd);
		}
		break;
	}
	case 1: mkdir(path, 0755); break;
	case 2:
		/* links into the sentinel directory, or whatever target the input names */
		if (cl && c[0] == '@')
			symlink(sentinel, path);
		else if (cl && c[0] == '^')
			symlink("../../../../outside/secret", path);
		else
			symlink(target ? target : "", path);
		break;
	case 3: mkfifo(path, 0644); break;
	}
	free(target);
}

static int read_each(const struct cve_entry *e, void *ctx)
{
	(void)ctx;
	char **names;
	size_t n = store_cve_files(e, &names);
	for (size_t i = 0; i < n; i++) {
		struct strbuf sb = STRBUF_INIT;
		store_read_cve_file(e, names[i] + strlen(e->id), &sb);
		sb_release(&sb);
	}
	store_free_names(names, n);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int once;
	if (!once++)
		init();
	char root[128];
	snprintf(root, sizeof(root), "%s/tree", base);
	rm_rf(root);
	char p[256];
	snprintf(p, sizeof(p), "%s/cve/published/2025", root);
	mkdir_p(p, 0755);
	snprintf(p, sizeof(p), "%s/cve/reserved/2025", root);
	mkdir_p(p, 0755);
	size_t i = 0;
	for (int k = 0; k < 24 && i + 2 <= size; k++) {
		int type = data[i] % 5;
		size_t nl = data[i + 1] % 64;
		i += 2;
		if (i + nl > size)
			break;
		char *name = clean_name(data + i, nl);
		i += nl;
		size_t cl = i < size ? data[i] : 0;
		i++;
		if (i + cl > size)
			cl = i < size ? size - i : 0;
		if (name || type == 4)
			make_entry(root, type, name, data + i, cl);
		free(name);
		i += cl;
	}
	struct cve_tree *t;
	struct kcve_err err;
	if (tree_open(&t, root, &err) == 0) {
		tree_foreach(t, CVE_ALL_STATES, read_each, NULL);
		struct cve_entry e;
		if (tree_find_sha_prefix(t, "0", NULL, NULL) >= 0 &&
		    tree_find_cve(t, "CVE-2025-10000", &e) == 0)
			cve_entry_release(&e);
		FILE *devnull = fopen("/dev/null", "w");
		struct verify_stats st;
		store_verify(t, NULL, devnull, &st, &err);
		fclose(devnull);
		if (tree_lock(t, &err) == 0)
			tree_unlock(t);
		tree_close(t);
	}
	check_sentinel();
	return 0;
}
