/* kcve create: rules, id allocation and the publishing transaction (see create.h). */
#include "store/create.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* A record whose .dyad was made for sha (its header's "for git id"): a .sha1 that names
 * another commit must not let the fix get a second CVE. */
struct dyad_for {
	const char *sha;
	struct cve_entry found;
	bool hit;
};

static int dyad_for_cb(const struct cve_entry *e, void *vctx)
{
	struct dyad_for *c = vctx;
	char *p = tree_cve_path(e, ".dyad");
	struct strbuf sb = STRBUF_INIT;
	if (read_file(p, &sb) == 0) {
		const char *h = strstr(sb_str(&sb), "for git id ");
		if (h && h < sb_str(&sb) + 512 && !strncmp(h + 11, c->sha, 40)) {
			c->found = *e;
			c->found.dir = xstrdup(e->dir);
			c->hit = true;
		}
	}
	sb_release(&sb);
	free(p);
	return c->hit; /* stop at the first */
}

static int duplicate_check(struct cve_tree *t, const char *sha, const char *what, bool force,
			   struct kcve_err *err)
{
	struct cve_entry e;
	if (tree_find_sha(t, sha, &e)) {
		struct dyad_for c = {.sha = sha};
		if (strlen(sha) == 40)
			tree_foreach(t, CVE_PUBLISHED | CVE_REJECTED, dyad_for_cb, &c);
		if (!c.hit)
			return 0;
		e = c.found;
	}
	int rc = 0;
	if (!(force && e.state == CVE_REJECTED))
		rc = kcve_err_set(err, KCVE_E_DUPLICATE, "%s %.12s already has a CVE (%s, %s), %s, "
				  "nothing to do%s", what, sha, e.id, cve_state_dir(e.state), sha,
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
	time_t now = store_now();
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
	snprintf(res->sha, sizeof(res->sha), "%s", sha);
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
	rc = duplicate_check(t, sha, "commit", o->force, err);
	if (!rc) {
		const struct history_commit *hc = history_commit(h, sha);
		if (hc && hc->upstream[0] && strcmp(hc->upstream, sha) != 0)
			rc = duplicate_check(t, hc->upstream, "the mainline commit of", o->force,
					     err);
	}
	char cve[32] = "";
	struct cve_entry e = {0};
	if (!rc && o->cve) {
		snprintf(cve, sizeof(cve), "%s", o->cve);
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
		snprintf(res->cve, sizeof(res->cve), "%s", cve);
		snprintf(res->subject, sizeof(res->subject), "%s", out.subject ? out.subject : "");
	}
	if (built)
		record_output_release(&out);
	cve_entry_release(&e);
	sb_release(&note);
	tree_unlock(t);
	return rc;
}
