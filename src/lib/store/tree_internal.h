/* Internals shared by the store module's files (not for other areas). */
#ifndef KCVE_STORE_TREE_INTERNAL_H
#define KCVE_STORE_TREE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "store/tree.h"

/* One line of a .sha1 file, for sha -> CVE lookups. */
struct sha_ref {
	char sha[41];
	char id[32];
	int year;
	enum cve_state state;
	int line; /* 0 = main fix */
	char *dir;
};

struct cve_tree {
	char *root;
	int rootfd;  /* opened once; every file is reached relative to it (safefs.h) */
	uid_t owner; /* owner of the root: journals and staging entries must be its (or ours) */
	int lockfd, lockdepth;
	bool lock_wait;
	bool no_replay; /* tree_lock() leaves interrupted operations alone (read-only commands) */
	struct sha_ref *shas; /* sorted by sha, built on demand */
	size_t nshas, ashas;
	bool sha_index_valid;
	int txn_slot; /* journal/staging name suffix of this process (parallel update workers) */
	const struct kcve_diag *diag; /* warnings (NULL: the default sink) */
};

size_t cve_id_prefix_len(const char *name);
struct json_t;
/* tree_record_id_check on a record's parsed JSON (root, read from path; NULL refused). */
int tree_record_root_check(const struct cve_entry *e, const char *path, struct json_t *root,
			   struct kcve_err *err);
char *tree_state_year_dir(const struct cve_tree *t, enum cve_state s, int year);
size_t tree_years(const struct cve_tree *t, enum cve_state s, int **out);
bool tree_is_temp_name(const char *name);
/* All entries (sorted); free with tree_entries_free. */
int tree_collect(struct cve_tree *t, unsigned state_mask, struct cve_entry **out, size_t *nout);
void tree_entries_free(struct cve_entry *v, size_t n);
void tree_build_sha_index(struct cve_tree *t);
void tree_invalidate(struct cve_tree *t);
/* <root>/.kcve[/name]; caller frees. */
char *tree_meta_path(const struct cve_tree *t, const char *name);
/* Trimmed non-empty lines of a text. */
void text_foreach_line(const char *text, void (*fn)(const char *line, size_t len, void *ctx),
		       void *ctx);
/* A journal or staging entry owned by uid may be used (the tree's owner or the running user). */
bool tree_trusted_owner(const struct cve_tree *t, uid_t uid);

/* The mode of a new record file: the tree's top directory's permission bits without execute
 * (a 0755 tree gives 0644, a group-shared 2775 tree 0664), whatever the umask, as git gives
 * a shared repository's files the mode the repository asks for. */
int tree_file_mode(const struct cve_tree *t);

#endif
