/* kcve verify: whole-tree consistency (file presence per state, id/year placement, .sha1
 * syntax, one CVE per commit, the .dyad <-> .json cross-file rules (1)-(4) of docs/spec/record.md "Consistency rules"
 * and its rule (5), the semver/CPE cross-product check inside each .json).
 * Every problem is one line "<CVE or path>: <rule>: <evidence>". */
#include "store/verify.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "core/assert.h"
#include "core/cveid.h"
#include "core/fileio.h"
#include "core/safefs.h"
#include "core/sha.h"
#include "core/strmap.h"
#include "core/version.h"
#include "core/xalloc.h"
#include "history/dyad_text.h"
#include "store/store_internal.h"
#include "store/tree_internal.h"
#include "store/verify_access.h"
#include "core/text.h"
#include "core/kjson.h"

struct vctx {
	FILE *out;
	size_t problems;
	const char *root; /* paths in messages are relative to the tree root */
};

static const char *relp(const struct vctx *v, const char *p)
{
	size_t n = strlen(v->root);
	return strncmp(p, v->root, n) == 0 && p[n] == '/' ? p + n + 1 : p;
}

__attribute__((format(printf, 4, 5))) static void problem(struct vctx *v, const char *who,
							   const char *rule, const char *fmt, ...)
{
	/* the evidence quotes the tree's files: control characters escaped, one line each */
	struct strbuf msg = STRBUF_INIT, line = STRBUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	sb_vaddf(&msg, fmt, ap);
	va_end(ap);
	sb_add_printable(&line, sb_str(&msg));
	fprintf(v->out, "%s: %s: %s\n", who, rule, sb_str(&line));
	sb_release(&msg);
	sb_release(&line);
	v->problems++;
}

static const char *const published_exts[] = {"", ".sha1", ".dyad", ".json", ".mbox",
					     ".vulnerable", ".reference", ".message", ".cvss",
					     ".diff", ".not_affected", NULL};

static bool in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return true;
	return false;
}

/* Sorted, de-duplicated string sets for the cross-file comparisons. */
struct sset {
	char **v;
	size_t n, alloc;
};

static void sset_add(struct sset *s, const char *a, const char *b)
{
	struct strbuf sb = STRBUF_INIT;
	sb_addf(&sb, "%s..%s", a, b);
	XGROW(s->v, s->n + 1, s->alloc);
	s->v[s->n++] = sb_detach(&sb);
}

static void sset_norm(struct sset *s)
{
	if (s->n > 1)
		qsort(s->v, s->n, sizeof(*s->v), cmp_str);
	size_t w = 0;
	for (size_t r = 0; r < s->n; r++) {
		if (w && !strcmp(s->v[w - 1], s->v[r])) {
			free(s->v[r]);
			continue;
		}
		s->v[w++] = s->v[r];
	}
	s->n = w;
	for (size_t i = 1; i < s->n; i++) /* sorted and unique: lookups bsearch it */
		KCVE_ASSERT(strcmp(s->v[i - 1], s->v[i]) < 0);
}

static void sset_free(struct sset *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
}

static void sset_add1(struct sset *s, const char *a)
{
	XGROW(s->v, s->n + 1, s->alloc);
	s->v[s->n++] = xstrdup(a);
}

/* Compare two sets; one problem line naming the values only in one and only in the other. */
static void sset_diff(struct vctx *v, const char *id, const char *rule, const char *wname,
		      struct sset *want, const char *hname, struct sset *have)
{
	sset_norm(want);
	sset_norm(have);
	struct strbuf miss = STRBUF_INIT, extra = STRBUF_INIT;
	size_t i = 0, k = 0;
	while (i < want->n || k < have->n) {
		int c = i >= want->n ? 1 : k >= have->n ? -1 : strcmp(want->v[i], have->v[k]);
		if (c < 0)
			sb_addf(&miss, " %s", want->v[i++]);
		else if (c > 0)
			sb_addf(&extra, " %s", have->v[k++]);
		else
			i++, k++;
	}
	if (miss.len || extra.len)
		problem(v, id, rule, "in %s but not %s:%s; in %s but not %s:%s", wname, hname,
			miss.len ? miss.buf : " -", hname, wname, extra.len ? extra.buf : " -");
	sb_release(&miss);
	sb_release(&extra);
}

/* Compare want (from .dyad) with have (from .json). */
static void sset_compare(struct vctx *v, const char *id, const char *rule, struct sset *want,
			 struct sset *have)
{
	sset_diff(v, id, rule, ".dyad", want, ".json", have);
}

static bool sset_has(const struct sset *s, const char *key)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = strcmp(s->v[mid], key);
		if (!c)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* consistency rule (3) every stable->stable fixed pair has an affected semver range (V, F);
 * (4) every unfixed stable pair on a branch with no fix has an affected semver range
 * starting at V. */
static void check_semver(struct vctx *v, const char *id, json_t *cna, const struct dyad_list *pairs)
{
	struct sset ranges = {0}, starts = {0};
	size_t ai, vi;
	json_t *aff, *ver;
	json_array_foreach(json_object_get(cna, "affected"), ai, aff)
	{
		json_array_foreach(json_object_get(aff, "versions"), vi, ver)
		{
			const char *vt = json_string_value(json_object_get(ver, "versionType"));
			const char *st = json_string_value(json_object_get(ver, "status"));
			const char *vv = json_string_value(json_object_get(ver, "version"));
			const char *lt = json_string_value(json_object_get(ver, "lessThan"));
			if (!vt || !st || !vv || strcmp(vt, "semver") || strcmp(st, "affected"))
				continue;
			if (lt)
				sset_add(&ranges, vv, lt);
			sset_add(&starts, vv, "");
		}
	}
	sset_norm(&ranges);
	sset_norm(&starts);
	struct strbuf miss = STRBUF_INIT;
	for (size_t i = 0; i < pairs->n; i++) {
		const struct dyad_pair *d = &pairs->v[i];
		if (!strcmp(d->vver, "0") || kver_str_is_mainline(d->vver))
			continue;
		struct strbuf key = STRBUF_INIT;
		if (strcmp(d->fver, "0") != 0) {
			if (kver_str_is_mainline(d->fver) || dyad_pair_same_version(d)) {
				sb_release(&key);
				continue;
			}
			sb_addf(&key, "%s..%s", d->vver, d->fver);
			if (!sset_has(&ranges, key.buf))
				sb_addf(&miss, " %s", key.buf);
		} else {
			bool branch_fixed = false;
			for (size_t k = 0; k < pairs->n; k++)
				if (strcmp(pairs->v[k].fver, "0") &&
				    kver_str_same_major(pairs->v[k].fver, d->vver))
					branch_fixed = true;
			sb_addf(&key, "%s..", d->vver);
			if (!branch_fixed && !sset_has(&starts, key.buf))
				sb_addf(&miss, " %s(unfixed)", d->vver);
		}
		sb_release(&key);
	}
	if (miss.len)
		problem(v, id, "dyad-json-semver-ranges", "stable pairs without an affected semver "
			"range in .json:%s", miss.buf);
	sb_release(&miss);
	sset_free(&ranges);
	sset_free(&starts);
}

static size_t count_dots(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += *s == '.';
	return n;
}

/* Both CPE rules read the same nested cpeApplicability[].nodes[].cpeMatch[] layout: walk it
 * once here and hand each match's versionStartIncluding / versionEndExcluding (NULL if absent)
 * to fn. */
static void foreach_cpe_range(json_t *cna, void (*fn)(const char *start, const char *end, void *ctx),
			      void *ctx)
{
	size_t ci, ni, mi;
	json_t *cpe, *node, *m;
	json_array_foreach(json_object_get(cna, "cpeApplicability"), ci, cpe)
	{
		json_array_foreach(json_object_get(cpe, "nodes"), ni, node)
		{
			json_array_foreach(json_object_get(node, "cpeMatch"), mi, m)
			{
				fn(json_string_value(json_object_get(m, "versionStartIncluding")),
				   json_string_value(json_object_get(m, "versionEndExcluding")), ctx);
			}
		}
	}
}

struct cpe_bounds {
	struct sset *starts, *ends;
};

/* every start and every end on its own (semver rule) */
static void add_cpe_bounds(const char *start, const char *end, void *ctx)
{
	struct cpe_bounds *b = ctx;
	if (start)
		sset_add1(b->starts, start);
	if (end)
		sset_add1(b->ends, end);
}

/* complete start/end ranges only (dyad rule) */
static void add_cpe_range(const char *start, const char *end, void *ctx)
{
	if (start && end)
		sset_add(ctx, start, end);
}

/* consistency rule (5), within the .json alone: the fix and introduction versions told by the semver data
 * must be the CPE versionEndExcluding / versionStartIncluding values. Fix versions: every
 * non-git unaffected entry other than "0", plus the lessThan of semver affected ranges of an
 * unaffected-default product when the bound has at least as many dots as the start (so a
 * stable range 5.10.215 <5.10.218 counts, the unfixed-branch ceiling 5.15.95 <5.16 does not).
 * Introduction versions: typeless affected points plus starts of semver affected ranges other
 * than "0". */
static void check_semver_cpe(struct vctx *v, const char *id, json_t *cna)
{
	struct sset fixes = {0}, intros = {0}, ends = {0}, starts = {0};
	size_t ai, vi;
	json_t *aff, *ver;
	json_array_foreach(json_object_get(cna, "affected"), ai, aff)
	{
		const char *ds = json_string_value(json_object_get(aff, "defaultStatus"));
		bool unaffected_default = ds && !strcmp(ds, "unaffected");
		json_array_foreach(json_object_get(aff, "versions"), vi, ver)
		{
			const char *vt = json_string_value(json_object_get(ver, "versionType"));
			const char *st = json_string_value(json_object_get(ver, "status"));
			const char *vv = json_string_value(json_object_get(ver, "version"));
			const char *lt = json_string_value(json_object_get(ver, "lessThan"));
			bool ranged = json_object_get(ver, "lessThan") ||
				      json_object_get(ver, "lessThanOrEqual");
			if (!st || !vv || (vt && !strcmp(vt, "git")))
				continue;
			if (!strcmp(st, "unaffected") && strcmp(vv, "0"))
				sset_add1(&fixes, vv);
			if (strcmp(st, "affected"))
				continue;
			if (!vt && !ranged)
				sset_add1(&intros, vv);
			if (!vt || strcmp(vt, "semver"))
				continue;
			if (strcmp(vv, "0"))
				sset_add1(&intros, vv);
			if (unaffected_default && lt && count_dots(lt) >= count_dots(vv))
				sset_add1(&fixes, lt);
		}
	}
	struct cpe_bounds b = {&starts, &ends};
	foreach_cpe_range(cna, add_cpe_bounds, &b);
	sset_diff(v, id, "semver-cpe-fixes", "semver fix versions", &fixes,
		  "CPE versionEndExcluding", &ends);
	sset_diff(v, id, "semver-cpe-intros", "semver intro versions", &intros,
		  "CPE versionStartIncluding", &starts);
	sset_free(&fixes);
	sset_free(&intros);
	sset_free(&ends);
	sset_free(&starts);
}

/* The commits a .sha1 names (40 hex each, lower case), at most max. */
struct fix_ids {
	char v[8][41];
	size_t n;
};

static void read_fix_ids(const struct cve_entry *e, struct fix_ids *f)
{
	struct strbuf sb = STRBUF_INIT;
	f->n = 0;
	if (store_read_cve_file(e, ".sha1", &sb) == 0)
		for (const char *p = sb_str(&sb); *p && f->n < 8;) {
			size_t n = strspn(p, "0123456789abcdef");
			if (n == 40)
				text_snprintf(f->v[f->n++], 41, "%.40s", p);
			p += n + strcspn(p + n, "\n");
			p += *p == '\n';
		}
	sb_release(&sb);
}

static bool names_fix(const struct fix_ids *f, const char *sha, size_t len)
{
	for (size_t i = 0; i < f->n; i++)
		if (len == 40 && !memcmp(f->v[i], sha, 40))
			return true;
	return false;
}

/* The commits the .dyad's header says it was made for ("... for git id X" comment lines). */
static void dyad_header_ids(const char *dyad, struct fix_ids *f)
{
	f->n = 0;
	for (const char *line = dyad; line && *line == '#' && f->n < 8;) {
		const char *eol = strchr(line, '\n');
		const char *p = strstr(line, "for git id ");
		if (p && (!eol || p < eol)) {
			p += strlen("for git id ");
			if (strspn(p, "0123456789abcdef") == 40)
				text_snprintf(f->v[f->n++], 41, "%.40s", p);
		}
		line = eol ? eol + 1 : NULL;
	}
}

bool store_json_references(json_t *cna, const char *sha)
{
	size_t k;
	json_t *ref;
	json_array_foreach(json_object_get(cna, "references"), k, ref) {
		const char *url = json_string_value(json_object_get(ref, "url"));
		size_t ul = url ? strlen(url) : 0;
		if (ul >= 40 && !strcmp(url + ul - 40, sha))
			return true;
	}
	return false;
}

/* The .sha1 agrees with its record: every commit it names is one the .dyad was made for (when
 * its header says), and is referenced by the .json or named by that header (records exist
 * whose .json was made from another id of the same fix). A .sha1 naming another commit would
 * hide the real fix from search and let create give it a second CVE. */
static void check_sha1_agrees(struct vctx *v, const struct cve_entry *e, json_t *cna,
			      const char *dyad)
{
	struct fix_ids f, d = {.n = 0};
	read_fix_ids(e, &f);
	if (dyad)
		dyad_header_ids(dyad, &d);
	for (size_t i = 0; i < f.n; i++) {
		bool in_dyad = names_fix(&d, f.v[i], 40);
		if (d.n && !in_dyad)
			problem(v, e->id, "sha1-dyad-fix", ".sha1 names %.12s, but the .dyad was made "
				"for %.12s", f.v[i], d.v[0]);
		if (!in_dyad && cna && !store_json_references(cna, f.v[i]))
			problem(v, e->id, "sha1-json-fix", ".sha1 names %.12s, which no reference of "
				"the .json names", f.v[i]);
	}
}

static void check_json(struct vctx *v, const struct cve_entry *e, const struct dyad_list *pairs,
		       const char *dyad)
{
	/* read through the tree rules (no links, no FIFOs, capped), never json_load_file */
	struct strbuf sb = STRBUF_INIT;
	json_error_t je;
	json_t *root = NULL;
	if (store_read_cve_file(e, ".json", &sb) < 0) {
		int en = errno;
		problem(v, e->id, "json-read", ".json: %s", safefs_reason(en));
		return;
	}
	root = kj_loadb(sb.buf, sb.len, 0, &je);
	sb_release(&sb);
	if (!root) {
		problem(v, e->id, "json-parse", "line %d: %s", je.line, je.text);
		return;
	}
	const char *cid = json_string_value(json_object_get(json_object_get(root, "cveMetadata"),
							    "cveId"));
	if (!cid || strcmp(cid, e->id) != 0)
		problem(v, e->id, "json-id", "cveMetadata.cveId is \"%s\"", cid ? cid : "(none)");
	json_t *cna = json_object_get(json_object_get(root, "containers"), "cna");
	check_semver_cpe(v, e->id, cna);
	check_sha1_agrees(v, e, cna, dyad);
	if (!pairs) {
		json_decref(root);
		return;
	}
	/* consistency rule (1): git ranges with lessThan == {(vsha or 1da177e4, fsha)} of fixed pairs */
	struct sset want = {0}, have = {0};
	for (size_t i = 0; i < pairs->n; i++) {
		const struct dyad_pair *d = &pairs->v[i];
		if (!strcmp(d->fsha, "0"))
			continue;
		sset_add(&want, strcmp(d->vsha, "0") ? d->vsha : KCVE_SHA_BEGINNING, d->fsha);
	}
	size_t ai, vi;
	json_t *aff, *ver;
	json_array_foreach(json_object_get(cna, "affected"), ai, aff)
	{
		json_array_foreach(json_object_get(aff, "versions"), vi, ver)
		{
			const char *vt = json_string_value(json_object_get(ver, "versionType"));
			const char *vv = json_string_value(json_object_get(ver, "version"));
			const char *lt = json_string_value(json_object_get(ver, "lessThan"));
			if (vt && vv && lt && !strcmp(vt, "git"))
				sset_add(&have, vv, lt);
		}
	}
	sset_compare(v, e->id, "dyad-json-git-ranges", &want, &have);
	sset_free(&want);
	sset_free(&have);
	/* consistency rule (2): CPE ranges with start and end == {(V,F)} of real (non-same-version) pairs */
	memset(&want, 0, sizeof(want));
	memset(&have, 0, sizeof(have));
	for (size_t i = 0; i < pairs->n; i++) {
		const struct dyad_pair *d = &pairs->v[i];
		if (!strcmp(d->vver, "0") || !strcmp(d->fver, "0") || dyad_pair_same_version(d))
			continue;
		sset_add(&want, d->vver, d->fver);
	}
	foreach_cpe_range(cna, add_cpe_range, &have);
	sset_compare(v, e->id, "dyad-json-cpe-ranges", &want, &have);
	sset_free(&want);
	sset_free(&have);
	check_semver(v, e->id, cna, pairs);
	json_decref(root);
}

struct sha_line_ctx {
	struct vctx *v;
	const char *id;
	const char *file;
	size_t n;
	bool allow_short;
};

static void sha_line(const char *line, size_t len, void *vc)
{
	struct sha_line_ctx *c = vc;
	c->n++;
	bool ok = c->allow_short ? (len >= 7 && len <= 40 && is_hex_n(line, len))
				 : (len == 40 && is_hex_n(line, 40));
	if (!ok)
		problem(c->v, c->id, c->allow_short ? "vulnerable-syntax" : "sha1-syntax",
			"%s line \"%.*s\" is not a %s git id", c->file, (int)(len > 60 ? 60 : len),
			line, c->allow_short ? "hex" : "full 40-hex");
}

static void vuln_tokens(struct sha_line_ctx *c, const char *text)
{
	const char *p = text;
	while (*p) {
		p += strspn(p, " \t\r\n");
		size_t n = strcspn(p, " \t\r\n");
		if (n)
			sha_line(p, n, c);
		p += n;
	}
}

static void check_files(struct vctx *v, const struct cve_entry *e, char **names, size_t n)
{
	size_t idl = strlen(e->id);
	bool has[16] = {0};
	bool has_rejmail = false;
	for (size_t i = 0; i < n; i++) {
		const char *ext = names[i] + idl;
		if (e->state == CVE_RESERVED || e->state == CVE_RETURNED) {
			if (*ext)
				problem(v, e->id, "stray-file", "%s holds %s (a %s id has only its "
					"placeholder)", relp(v, e->dir), names[i], cve_state_dir(e->state));
			continue;
		}
		if (e->state == CVE_REJECTED && !strcmp(ext, ".mbox.rejected")) {
			has_rejmail = true;
			continue;
		}
		if (!in_list(published_exts, ext)) {
			problem(v, e->id, "stray-file", "unknown file %s/%s", relp(v, e->dir), names[i]);
			continue;
		}
		for (int k = 0; published_exts[k]; k++)
			if (!strcmp(published_exts[k], ext))
				has[k] = true;
	}
	if (e->state == CVE_RESERVED || e->state == CVE_RETURNED)
		return;
	/* published: every generated file; rejected after publication: the same + the reply */
	bool was_published = e->state == CVE_PUBLISHED || has[1];
	if (!has[0])
		problem(v, e->id, "missing-file", "%s/%s (the id's own file) is missing", relp(v, e->dir),
			e->id);
	if (!was_published)
		return;
	static const int required_pub[] = {1, 2, 3, 4};
	static const int required_rej[] = {1, 3, 4};
	const int *req = e->state == CVE_PUBLISHED ? required_pub : required_rej;
	size_t nreq = e->state == CVE_PUBLISHED ? 4 : 3;
	for (size_t i = 0; i < nreq; i++)
		if (!has[req[i]])
			problem(v, e->id, "missing-file", "%s/%s%s is missing", relp(v, e->dir), e->id,
				published_exts[req[i]]);
	if (e->state == CVE_REJECTED && !has_rejmail)
		problem(v, e->id, "missing-file", "%s/%s.mbox.rejected is missing", relp(v, e->dir),
			e->id);

	struct strbuf sb = STRBUF_INIT;
	if (has[1] && store_read_cve_file(e, ".sha1", &sb) == 0) {
		struct sha_line_ctx c = {.v = v, .id = e->id, .file = ".sha1"};
		text_foreach_line(sb_str(&sb), sha_line, &c);
		if (!c.n)
			problem(v, e->id, "sha1-syntax", ".sha1 is empty");
	}
	sb_reset(&sb);
	if (has[5] && store_read_cve_file(e, ".vulnerable", &sb) == 0) {
		struct sha_line_ctx c = {.v = v, .id = e->id, .file = ".vulnerable",
					 .allow_short = true};
		vuln_tokens(&c, sb_str(&sb));
	}
	sb_reset(&sb);
	if (has[4] && store_read_cve_file(e, ".mbox", &sb) == 0) {
		char *subj = mail_header(sb_str(&sb), "Subject");
		struct strbuf want = STRBUF_INIT;
		sb_addf(&want, " %s:", e->id);
		if (!subj || strncmp(subj, want.buf, want.len) != 0)
			problem(v, e->id, "mbox-subject", "Subject is \"%s\"", subj ? subj : "(none)");
		free(subj);
		sb_release(&want);
	}
	sb_reset(&sb);
	if (e->state == CVE_PUBLISHED) {
		struct dyad_list pairs;
		dyad_list_init(&pairs);
		bool have_pairs = false;
		if (has[2] && store_read_cve_file(e, ".dyad", &sb) == 0) {
			size_t bad = dyad_parse(sb_str(&sb), &pairs);
			if (bad)
				problem(v, e->id, "dyad-syntax", ".dyad line %zu is not V:VG:F:FG",
					bad);
			else if (!pairs.n)
				problem(v, e->id, "dyad-empty", ".dyad has no pair line");
			else
				have_pairs = true;
		}
		if (has[3])
			check_json(v, e, have_pairs ? &pairs : NULL, has[2] ? sb_str(&sb) : NULL);
		dyad_list_release(&pairs);
	}
	sb_release(&sb);
}

/* Stray files in the state/year directories that belong to no CVE (temp files, typos). */
static bool year_in_scope(const struct verify_scope *sc, int year);

static void check_dirs(struct vctx *v, struct cve_tree *t, const struct verify_scope *scope)
{
	static const enum cve_state st[] = {CVE_RESERVED, CVE_PUBLISHED, CVE_REJECTED,
					    CVE_RETURNED};
	for (size_t s = 0; s < 4; s++) {
		int *years;
		size_t ny = tree_years(t, st[s], &years);
		for (size_t k = 0; k < ny; k++) {
			if (!year_in_scope(scope, years[k]))
				continue;
			char *dir = tree_state_year_dir(t, st[s], years[k]);
			DIR *d = dir_open(dir);
			struct dirent *de;
			while (d && (de = readdir(d))) {
				if (de->d_name[0] == '.' || !safe_name(de->d_name))
					continue; /* unsafe names: verify_tree_access */
				size_t n = cve_id_prefix_len(de->d_name);
				if (!n || tree_is_temp_name(de->d_name) ||
				    (de->d_name[n] && de->d_name[n] != '.'))
					problem(v, relp(v, dir), "stray-file", "%s is not a CVE file",
						de->d_name);
				else if (cve_id_year(de->d_name) != years[k])
					problem(v, relp(v, dir), "wrong-year", "%s is in the %d directory",
						de->d_name, years[k]);
			}
			if (d)
				closedir(d);
			free(dir);
		}
		free(years);
	}
}

/* One CVE's files in one state directory. */
struct group {
	struct cve_entry e;
	char **names;
	size_t n;
};

static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	if (x->e.year != y->e.year)
		return x->e.year < y->e.year ? -1 : 1;
	int c = cveid_cmp(x->e.id, y->e.id);
	if (c)
		return c;
	return (int)x->e.state - (int)y->e.state;
}

/* Read every state/year directory once and group its names by CVE id (a per-CVE directory
 * scan would be quadratic: published/2024 alone holds 17,000 files). */
static size_t collect_groups(struct cve_tree *t, struct group **out)
{
	static const enum cve_state st[] = {CVE_RESERVED, CVE_PUBLISHED, CVE_REJECTED,
					    CVE_RETURNED};
	struct group *g = NULL;
	size_t ng = 0, ag = 0;
	for (size_t s = 0; s < 4; s++) {
		int *years;
		size_t ny = tree_years(t, st[s], &years);
		for (size_t k = 0; k < ny; k++) {
			char *dir = tree_state_year_dir(t, st[s], years[k]);
			DIR *d = dir_open(dir);
			char **names = NULL;
			size_t n = 0, an = 0;
			struct dirent *de;
			while (d && (de = readdir(d))) {
				size_t l = cve_id_prefix_len(de->d_name);
				if (!l || tree_is_temp_name(de->d_name) ||
				    (de->d_name[l] && de->d_name[l] != '.') || !safe_name(de->d_name))
					continue;
				XGROW(names, n + 1, an);
				names[n++] = xstrdup(de->d_name);
			}
			if (d)
				closedir(d);
			if (n > 1)
				qsort(names, n, sizeof(*names), cmp_str);
			for (size_t i = 0; i < n;) {
				size_t l = cve_id_prefix_len(names[i]), j = i + 1;
				while (j < n && strncmp(names[j], names[i], l) == 0 &&
				       cve_id_prefix_len(names[j]) == l)
					j++;
				XGROW(g, ng + 1, ag);
				struct group *gr = &g[ng++];
				memset(gr, 0, sizeof(*gr));
				memcpy(gr->e.id, names[i], l);
				gr->e.year = years[k];
				gr->e.state = st[s];
				gr->e.dir = xstrdup(dir);
				gr->n = j - i;
				gr->names = xmalloc(gr->n * sizeof(char *));
				memcpy(gr->names, names + i, gr->n * sizeof(char *));
				i = j;
			}
			free(names);
			free(dir);
		}
		free(years);
	}
	if (ng > 1)
		qsort(g, ng, sizeof(*g), cmp_group);
	*out = g;
	return ng;
}

/* True if a group is only left-over files (no placeholder, no .sha1) of an id that lives in
 * another state: e.g. a .vulnerable added to published/ after the CVE was rejected. */
static bool leftover(const struct group *g)
{
	for (size_t i = 0; i < g->n; i++) {
		const char *ext = g->names[i] + strlen(g->e.id);
		if (!*ext || !strcmp(ext, ".sha1"))
			return false;
	}
	return true;
}

static bool year_in_scope(const struct verify_scope *sc, int year)
{
	if (!sc || (!sc->nids && !sc->nyears))
		return true;
	for (size_t i = 0; i < sc->nyears; i++)
		if (sc->years[i] == year)
			return true;
	for (size_t i = 0; i < sc->nids; i++)
		if (cve_id_year(sc->ids[i]) == year)
			return true;
	return false;
}

static bool in_scope(const struct verify_scope *sc, const char *id)
{
	if (!sc || (!sc->nids && !sc->nyears))
		return true;
	for (size_t i = 0; i < sc->nyears; i++)
		if (sc->years[i] == cve_id_year(id))
			return true;
	for (size_t i = 0; i < sc->nids; i++)
		if (!strcmp(sc->ids[i], id))
			return true;
	return false;
}

int store_verify(struct cve_tree *t, const struct verify_scope *scope, FILE *out,
		 struct verify_stats *stats, struct kcve_err *err)
{
	(void)err;
	struct vctx v = {.out = out, .root = tree_root(t)};
	memset(stats, 0, sizeof(*stats));
	v.problems += verify_tree_access(t, out);
	check_dirs(&v, t, scope);
	struct group *g;
	size_t n = collect_groups(t, &g);
	for (size_t i = 0; i < n; i++) {
		if (!in_scope(scope, g[i].e.id))
			continue;
		bool same_prev = i && !strcmp(g[i].e.id, g[i - 1].e.id);
		bool same_next = i + 1 < n && !strcmp(g[i].e.id, g[i + 1].e.id);
		if ((same_prev || same_next) && leftover(&g[i])) {
			const struct group *o = same_prev ? &g[i - 1] : &g[i + 1];
			struct strbuf files = STRBUF_INIT;
			for (size_t k = 0; k < g[i].n; k++)
				sb_addf(&files, " %s", g[i].names[k]);
			problem(&v, g[i].e.id, "leftover-file", "%s holds%s but the id is %s",
				relp(&v, g[i].e.dir), files.buf, cve_state_dir(o->e.state));
			sb_release(&files);
		} else {
			if (same_prev && !leftover(&g[i - 1]))
				problem(&v, g[i].e.id, "several-states", "present in %s and in %s",
					cve_state_dir(g[i - 1].e.state), cve_state_dir(g[i].e.state));
			check_files(&v, &g[i].e, g[i].names, g[i].n);
			stats->cves++;
		}
	}
	for (size_t i = 0; i < n; i++) {
		store_free_names(g[i].names, g[i].n);
		free(g[i].e.dir);
	}
	free(g);
	/* one CVE per commit: the same fix sha in two records */
	tree_build_sha_index(t);
	for (size_t i = 1; i < t->nshas; i++) {
		const struct sha_ref *a = &t->shas[i - 1], *b = &t->shas[i];
		if (!strcmp(a->sha, b->sha) && strcmp(a->id, b->id) != 0 && a->line == 0 &&
		    b->line == 0 && (in_scope(scope, a->id) || in_scope(scope, b->id)))
			problem(&v, b->id, "duplicate-fix", "commit %s is also the fix of %s (%s)",
				b->sha, a->id, cve_state_dir(a->state));
	}
	stats->problems = v.problems;
	return 0;
}
