/* kcve create: rules, id allocation and the publishing transaction (see create.h). */
#include "store/create.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "core/sha.h"
#include "core/version.h"
#include "core/xalloc.h"
#include "history/history.h"
#include "record/identity.h"
#include "record/record.h"
#include "policy/branches.h"
#include "store/ops.h"
#include "store/store_internal.h"
#include "store/tree_internal.h"
#include "core/text.h"
#include "core/kjson.h"

const char *store_batch_sha(const char *line, char out[41])
{
	const char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (!*p || *p == '\n' || *p == '\r' || *p == '-' || *p == '#')
		return NULL;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		size_t n = strcspn(p, " \t\r\n");
		if (!n)
			break;
		size_t h = hex_run(p);
		if (h == n && n >= 7 && n <= 40) {
			memcpy(out, p, n);
			out[n] = '\0';
			sha_lower(out);
			return out;
		}
		p += n;
	}
	return NULL;
}

/* A record already made for sha although its .sha1 does not name it (a .sha1 naming another
 * commit must not let the fix get a second CVE): its .dyad header says "for git id SHA", or
 * its .json lists SHA among its references. Published and rejected records count (a rejected
 * one is reassigned only with --force); a reserved id holds no fix, at most a note. */
struct fix_named {
	const char *sha[2]; /* the commit, its mainline commit (NULL: none) */
	struct cve_entry found;
	int which;          /* index of the sha found, -1 none */
};

static bool dyad_made_for(const struct cve_entry *e, const char *sha)
{
	struct strbuf sb = STRBUF_INIT;
	bool hit = false;
	if (store_read_cve_file(e, ".dyad", &sb) == 0) {
		const char *h = strstr(sb_str(&sb), "for git id ");
		hit = h && h < sb_str(&sb) + 512 && !strncmp(h + 11, sha, 40);
	}
	sb_release(&sb);
	return hit;
}

/* Index in c->sha of a commit the record's .json references, -1 none. */
static int json_names(const struct cve_entry *e, const struct fix_named *c)
{
	struct strbuf sb = STRBUF_INIT;
	int hit = -1;
	if (store_read_cve_file(e, ".json", &sb) == 0 && sb.len) {
		json_t *root = NULL, *cna = NULL;
		for (int i = 0; i < 2 && hit < 0; i++) {
			/* parsed only when the text holds the id at all */
			if (!c->sha[i] || !memmem(sb.buf, sb.len, c->sha[i], 40))
				continue;
			if (!root) {
				root = kj_loadb(sb.buf, sb.len, 0, NULL);
				cna = json_object_get(json_object_get(root, "containers"), "cna");
			}
			if (store_json_references(cna, c->sha[i]))
				hit = i;
		}
		json_decref(root);
	}
	sb_release(&sb);
	return hit;
}

static int fix_named_cb(const struct cve_entry *e, void *vctx)
{
	struct fix_named *c = vctx;
	for (int i = 0; i < 2 && c->which < 0; i++)
		if (c->sha[i] && dyad_made_for(e, c->sha[i]))
			c->which = i;
	if (c->which < 0)
		c->which = json_names(e, c);
	if (c->which < 0)
		return 0;
	c->found = *e;
	c->found.dir = xstrdup(e->dir);
	return 1; /* stop at the first */
}

/* A commit (or the mainline commit it backports, up) gets one CVE: refused when a .sha1 names
 * either, else when a record was made for either (fix_named). */
static int duplicate_check(struct cve_tree *t, const char *sha, const char *up, bool force,
			   struct kcve_err *err)
{
	static const char *const what[2] = {"commit", "the mainline commit of"};
	struct fix_named c = {.sha = {sha, up}, .which = -1};
	struct cve_entry e;
	for (int i = 0; i < 2 && c.which < 0; i++)
		if (c.sha[i] && !tree_find_sha(t, c.sha[i], &e))
			c.which = i;
	if (c.which < 0) {
		if (strlen(sha) != 40)
			c.sha[0] = NULL;
		if (c.sha[0] || c.sha[1])
			tree_foreach(t, CVE_PUBLISHED | CVE_REJECTED, fix_named_cb, &c);
		if (c.which < 0)
			return 0;
		e = c.found;
	}
	int rc = 0;
	if (!(force && e.state == CVE_REJECTED))
		rc = kcve_err_set(err, KCVE_E_DUPLICATE, "%s %.12s already has a CVE (%s, %s), %s, "
				  "nothing to do%s", what[c.which], c.sha[c.which], e.id,
				  cve_state_dir(e.state), c.sha[c.which],
				  e.state == CVE_REJECTED ? " (--force --reason to reassign a rejected "
							    "fix)" : "");
	cve_entry_release(&e);
	return rc;
}

/* Branches (X.Y) the fix landed on: fixed pairs that shipped vulnerable. */
static int supported_check(struct cve_tree *t, const struct dyad_list *pairs, bool force,
			   struct kcve_err *err)
{
	struct branch_policy bp;
	int rc = branch_policy_load(&bp, tree_root(t), err);
	if (rc)
		return rc;
	if (!bp.has_data) {
		branch_policy_release(&bp);
		return 0;
	}
	time_t now = (time_t)clock_now();
	struct strbuf fixed = STRBUF_INIT;
	bool ok = false;
	for (size_t i = 0; i < pairs->n; i++) {
		const struct dyad_pair *p = &pairs->v[i];
		if (dyad_pair_unfixed(p) || dyad_pair_same_version(p))
			continue;
		char major[32];
		kver_str_major(p->fver, major, sizeof(major));
		if (!major[0])
			continue;
		if (!strstr(fixed.buf ? fixed.buf : "", major))
			sb_addf(&fixed, "%s%s", fixed.len ? " " : "", major);
		if (branch_policy_supported(&bp, major, now))
			ok = true;
	}
	if (!ok && !force) {
		struct strbuf sup = STRBUF_INIT;
		branch_policy_list(&bp, now, &sup);
		rc = kcve_err_set(err, KCVE_E_UNSUPPORTED, "the fix only lands on branches no longer "
				  "supported (%s; supported: %s), %s, no CVE (--force --reason to "
				  "override)", fixed.len ? fixed.buf : "none", sup.buf,
				  BRANCHES_FILE);
		sb_release(&sup);
	}
	sb_release(&fixed);
	branch_policy_release(&bp);
	return rc;
}

/* Write the new CVE's files in one transaction: .sha1, .dyad, .json, .mbox, .vulnerable (when
 * given) and, for --force, the note with the reason appended. */
static int write_new_cve(struct cve_tree *t, const char *cve, const char *sha,
			 const struct store_create_opts *o, const struct record_output *out,
			 struct strbuf *note, struct kcve_err *err)
{
	struct strbuf vuln = STRBUF_INIT;
	for (size_t i = 0; i < o->nvulnerable; i++)
		sb_addf(&vuln, "%s\n", o->vulnerable[i]);
	if (o->force) {
		if (note->len && note->buf[note->len - 1] != '\n')
			sb_addc(note, '\n');
		sb_addf(note, "Forced: %s\n", o->reason);
	}
	struct store_file files[6];
	size_t nf = 0;
	files[nf++] = (struct store_file){".sha1", sha, 40}; /* no newline, like cve_create */
	files[nf++] = (struct store_file){".dyad", sb_str(&out->dyad), out->dyad.len};
	files[nf++] = (struct store_file){".json", sb_str(&out->json), out->json.len};
	files[nf++] = (struct store_file){".mbox", sb_str(&out->mbox), out->mbox.len};
	if (vuln.len)
		files[nf++] = (struct store_file){".vulnerable", vuln.buf, vuln.len};
	if (o->force)
		files[nf++] = (struct store_file){"", sb_str(note), note->len};
	int rc = store_publish(t, cve, files, nf, err);
	sb_release(&vuln);
	return rc;
}

int store_create(struct cve_tree *t, struct history *h, const struct store_create_opts *o,
		 struct store_create_result *res, struct kcve_err *err)
{
	memset(res, 0, sizeof(*res));
	if (o->force && (!o->reason || !*o->reason))
		return kcve_err_set(err, KCVE_E_USAGE, "--force needs --reason TEXT (it is recorded "
				    "in the tree), %s, add a reason", o->sha);
	if (o->cve && !cve_id_valid(o->cve))
		return kcve_err_set(err, KCVE_E_USAGE, "not a CVE id, %s, use CVE-YYYY-NNNNN",
				    o->cve);
	char sha[41];
	int rc = history_resolve(h, o->sha, sha, err);
	if (rc)
		return rc;
	text_snprintf(res->sha, sizeof(res->sha), "%s", sha);
	const char *rel = history_release(h, sha);
	if (!rel)
		return kcve_err_set(err, KCVE_E_UNFIXED, "commit %.12s is not in any released "
				    "kernel (no CVEs for unfixed issues), %s, wait for a release "
				    "containing it or hold an id with 'kcve reserve-for'", sha, o->sha);
	long long ct = history_commit_time(h, sha);
	if (ct < 0)
		return kcve_err_set(err, KCVE_E_GENERIC, "no commit time for %.12s, %s, rebuild "
				    "the index ('kcve index')", sha, o->sha);
	time_t tt = (time_t)ct;
	struct tm tm;
	gmtime_r(&tt, &tm);
	int year = tm.tm_year + 1900;

	rc = tree_lock(t, err);
	if (rc)
		return rc;
	struct record_output out;
	memset(&out, 0, sizeof(out));
	bool built = false;
	struct strbuf note = STRBUF_INIT;
	const struct history_commit *hc = history_commit(h, sha);
	bool backport = hc && hc->upstream[0] && strcmp(hc->upstream, sha) != 0;
	rc = duplicate_check(t, sha, backport ? hc->upstream : NULL, o->force, err);
	char cve[32] = "";
	struct cve_entry e = {0};
	if (!rc && o->cve) {
		text_snprintf(cve, sizeof(cve), "%s", o->cve);
		if (tree_find_cve(t, cve, &e) || e.state != CVE_RESERVED) {
			rc = kcve_err_set(err, e.dir ? KCVE_E_DUPLICATE : KCVE_E_NOTFOUND,
					  "id is not reserved (%s), %s, use a reserved id ('kcve "
					  "reserve list')", e.dir ? cve_state_dir(e.state) :
					  "not in the tree", cve);
		} else {
			store_read_cve_file(&e, "", &note);
			res->was_held = note.len > 0;
		}
	} else if (!rc) {
		rc = store_pick_reserved_except(t, year, o->taken, o->ntaken, cve, err);
	}
	const char *shas[1] = {sha};
	if (!rc) {
		struct record_input in = {
			.cve = cve,
			.shas = shas, .nshas = 1,
			.vulnerable = o->vulnerable, .nvulnerable = o->nvulnerable,
			.vulns_tree = tree_root(t),
			.from = o->who,
		};
		rc = record_build(h, &in, &out, err);
		built = rc == 0;
	}
	if (!rc)
		rc = supported_check(t, &out.pairs, o->force, err);
	if (!rc && !o->dry_run)
		rc = write_new_cve(t, cve, sha, o, &out, &note, err);
	if (!rc) {
		text_snprintf(res->cve, sizeof(res->cve), "%s", cve);
		text_snprintf(res->subject, sizeof(res->subject), "%s", out.subject ? out.subject : "");
	}
	if (built)
		record_output_release(&out);
	cve_entry_release(&e);
	sb_release(&note);
	tree_unlock(t);
	return rc;
}
