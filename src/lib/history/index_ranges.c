/* Which revwalk ranges the index covers (docs/spec/versions.md), discovered from the tags that
 * exist instead of guessing names:
 *  - mainline: between consecutive final releases vX.Y / v2.6.N in version order (this covers
 *    the cross-major jumps 2.6.39..3.0, 3.19..4.0, ...); the oldest final release takes
 *    everything reachable from it (the 2.6.12-rc2..2.6.12 range plus the initial commit,
 *    which the anchor inserts by hand with release 2.6.12);
 *  - the cycle in progress: -rc tags newer than the newest final release give
 *    vX.Y..vX.(Y+1)-rc1 and rcN..rc(N+1) ranges; once the final is tagged those ranges become
 *    obsolete and are replaced by the final's range;
 *  - stable: vX.Y..vX.Y.1 and consecutive vX.Y.(n-1)..vX.Y.n (2.6.N.M alike).
 * Tags that do not peel to a commit are ignored; v2.6.11 and its stable releases (trees in
 * linux-stable, before git history starts) are ignored whatever they point at, as the anchor
 * skips every range touching 2.6.11; and the range ending at 3.16.35 is skipped because that
 * branch's history was rewritten there (the anchor skips it too). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/safefs.h"
#include "core/strmap.h"
#include "core/version.h"
#include "core/xalloc.h"
#include "history/history_internal.h"
#include "core/text.h"

struct tag {
	char name[32]; /* without the leading 'v' */
	struct kver ver;
	git_oid oid;
};

void range_list_release(struct range_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* Accept "X.Y", "X.Y.Z", "2.6.N.M", optionally "-rcN" (digits only). */
static bool kernel_tag_name(const char *s)
{
	int groups = 0;
	const char *p = s;
	for (;;) {
		if (*p < '0' || *p > '9')
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
		groups++;
		if (*p == '.') {
			p++;
			continue;
		}
		break;
	}
	if (groups < 2 || groups > 4)
		return false;
	if (*p == '\0')
		return true;
	if (strncmp(p, "-rc", 3) != 0 || p[3] < '0' || p[3] > '9')
		return false;
	/* -rc tags only exist for mainline releases: X.Y-rcN, 2.6.N-rcN */
	if (groups != 2 && !(groups == 3 && strncmp(s, "2.6.", 4) == 0))
		return false;
	p += 3;
	while (*p >= '0' && *p <= '9')
		p++;
	return *p == '\0';
}

static int tag_cmp(const void *a, const void *b)
{
	const struct tag *x = a, *y = b;
	int c = kver_cmp(&x->ver, &y->ver);
	return c ? c : strcmp(x->name, y->name);
}

static void push_range(struct range_list *l, const struct tag *from, const struct tag *to,
		       bool mainline)
{
	if (strcmp(to->name, "3.16.35") == 0)
		return;
	XGROW(l->v, l->n + 1, l->alloc);
	struct tag_range *r = &l->v[l->n++];
	memset(r, 0, sizeof(*r));
	if (from) {
		text_snprintf(r->from, sizeof(r->from), "%s", from->name);
		r->from_oid = from->oid;
	}
	text_snprintf(r->to, sizeof(r->to), "%s", to->name);
	r->to_oid = to->oid;
	r->mainline = mainline;
}

static const struct tag *find_tag(const struct tag *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i].name, name) == 0)
			return &v[i];
	return NULL;
}

/* The commit a release tag names: from the peeled id packed-refs records and the type in the
 * pack (no object read: on a linux-stable mirror with ~3,700 tags, git_reference_peel's reads
 * were most of an incremental update), else as git_reference_peel finds it. 1 for a commit,
 * 0 when the tag names something else (v2.6.11 names a tree), -1 when it cannot be read (a
 * damaged object is an error, never a release that silently vanishes). */
static int tag_commit(git_reference *ref, const struct packset *ps, git_oid *out)
{
	if (git_reference_type(ref) == GIT_REFERENCE_DIRECT) {
		const git_oid *id = git_reference_target_peel(ref);
		git_object_t type;
		if (!id)
			id = git_reference_target(ref);
		if (id && packset_type(ps, id, &type) == 0 && type != GIT_OBJECT_TAG) {
			git_oid_cpy(out, id);
			return type == GIT_OBJECT_COMMIT;
		}
	}
	git_object *obj = NULL;
	if (git_reference_peel(&obj, ref, GIT_OBJECT_ANY) < 0)
		return -1;
	int r = git_object_type(obj) == GIT_OBJECT_COMMIT;
	if (r)
		git_oid_cpy(out, git_object_id(obj));
	git_object_free(obj);
	return r;
}

int ranges_discover(git_repository *repo, struct range_list *out, struct kcve_err *err)
{
	struct tag *tags = NULL;
	size_t ntags = 0, alloc = 0;
	git_reference_iterator *it = NULL;
	memset(out, 0, sizeof(*out));
	if (git_reference_iterator_glob_new(&it, repo, "refs/tags/v*") < 0)
		return kcve_err_set(err, KCVE_E_NOREPO, "cannot list the tags of the repository (%s)",
				    git_error_last() ? git_error_last()->message : "?");
	git_reference *ref;
	struct packset *ps = packset_open_repo(repo);
	git_oid id;
	while (git_reference_next(&ref, it) == 0) {
		const char *name = git_reference_name(ref) + strlen("refs/tags/v");
		bool pre_git = strncmp(name, "2.6.11", 6) == 0 && (name[6] == '\0' || name[6] == '.');
		int tc = strlen(name) < 32 && kernel_tag_name(name) && !pre_git ? tag_commit(ref, ps, &id) : 0;
		if (tc < 0) {
			char *n = safe_printable(name);
			kcve_err_set(err, KCVE_E_NOREPO, "cannot read the release tag v%s (%s); the "
				     "repository is damaged: check it with git fsck and fetch again",
				     n, git_error_last() ? git_error_last()->message : "unreadable object");
			free(n);
			git_reference_free(ref);
			packset_free(ps);
			git_reference_iterator_free(it);
			free(tags);
			return KCVE_E_NOREPO;
		}
		if (tc > 0) {
			XGROW(tags, ntags + 1, alloc);
			struct tag *t = &tags[ntags++];
			text_snprintf(t->name, sizeof(t->name), "%s", name);
			kver_parse(&t->ver, name);
			git_oid_cpy(&t->oid, &id);
		}
		git_reference_free(ref);
	}
	packset_free(ps);
	git_reference_iterator_free(it);
	if (ntags == 0) {
		free(tags);
		return kcve_err_set(err, KCVE_E_NOTAGS,
				    "no kernel release tags (vX.Y, vX.Y.Z) in the repository");
	}
	qsort(tags, ntags, sizeof(*tags), tag_cmp);

	/* mainline finals, then the -rc tags of the cycle in progress */
	const struct tag *prev = NULL;
	for (size_t i = 0; i < ntags; i++) {
		if (!kver_is_mainline(&tags[i].ver) || tags[i].ver.rc)
			continue;
		push_range(out, prev, &tags[i], true);
		prev = &tags[i];
	}
	for (size_t i = 0; i < ntags; i++) {
		if (!tags[i].ver.rc || !kver_is_mainline(&tags[i].ver))
			continue;
		if (prev && kver_cmp(&tags[i].ver, &prev->ver) <= 0)
			continue;
		push_range(out, prev, &tags[i], true);
		prev = &tags[i];
	}
	/* stable releases, grouped by branch (sorted order keeps a branch's tags together) */
	char cur_major[32] = "";
	prev = NULL;
	for (size_t i = 0; i < ntags; i++) {
		if (kver_is_mainline(&tags[i].ver) || tags[i].ver.ncomp == 0)
			continue;
		char major[32];
		kver_major(&tags[i].ver, major, sizeof(major));
		if (strcmp(major, cur_major) != 0) {
			text_snprintf(cur_major, sizeof(cur_major), "%s", major);
			prev = find_tag(tags, ntags, major);
			if (!prev) { /* no base release: the branch starts at its first stable tag */
				prev = &tags[i];
				continue;
			}
		}
		push_range(out, prev, &tags[i], false);
		prev = &tags[i];
	}
	free(tags);
	if (out->n == 0)
		return kcve_err_set(err, KCVE_E_NOTAGS,
				    "no kernel release ranges could be formed from the repository's tags");
	return 0;
}

void tags_fingerprint(git_repository *repo, char out[17])
{
	unsigned long long hsh = FNV1A64_INIT_OLD;
	git_reference_iterator *it = NULL;
	git_reference *ref;
	if (git_reference_iterator_glob_new(&it, repo, "refs/tags/v*") == 0) {
		while (git_reference_next(&ref, it) == 0) {
			char buf[GIT_OID_HEXSZ + 1] = "";
			const char *name = git_reference_name(ref);
			if (git_reference_type(ref) == GIT_REFERENCE_DIRECT)
				git_oid_tostr(buf, sizeof(buf), git_reference_target(ref));
			else if (git_reference_symbolic_target(ref))
				text_snprintf(buf, sizeof(buf), "%s", git_reference_symbolic_target(ref));
			hsh = fnv1a64(hsh, name, strlen(name));
			hsh = fnv1a64(hsh, "\xff", 1);
			hsh = fnv1a64(hsh, buf, strlen(buf));
			hsh = fnv1a64(hsh, "\xfe", 1);
			git_reference_free(ref);
		}
		git_reference_iterator_free(it);
	}
	text_snprintf(out, 17, "%016llx", hsh);
}
