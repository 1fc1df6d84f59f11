/* Supported-branch data: import from releases.json, load, decide (see branches.h). */
#include "policy/branches.h"

#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/fileio.h"
#include "core/version.h"
#include "core/xalloc.h"
#include "core/text.h"
#include "core/kjson.h"

/* Days since 1970-01-01 of a YYYY-MM-DD date, -1 if malformed (civil-from-days inverse). */
static long long parse_day(const char *s)
{
	int y, m, d;
	if (sscanf(s, "%4d-%2d-%2d", &y, &m, &d) != 3 || m < 1 || m > 12 || d < 1 || d > 31)
		return -1;
	y -= m <= 2;
	long long era = (y >= 0 ? y : y - 399) / 400;
	long long yoe = y - era * 400;
	long long doy = (153LL * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* A field of the branch file: non-empty, one word, no comment marker, short. */
static bool token_ok(const char *s, size_t max)
{
	size_t n = strlen(s);
	if (!n || n >= max || *s == '#')
		return false;
	for (; *s; s++)
		if (isspace((unsigned char)*s))
			return false;
	return true;
}

int branches_from_releases_json(const char *json, struct strbuf *out, size_t *nbranches,
				struct kcve_err *err)
{
	*nbranches = 0;
	json_error_t je;
	json_t *root = kj_loadb(json, strlen(json), 0, &je);
	if (!root)
		return kcve_err_set(err, KCVE_E_PARSE, "releases.json is not JSON (line %d: %s), "
				    "input, download https://www.kernel.org/releases.json again",
				    je.line, je.text);
	json_t *rel = json_object_get(root, "releases");
	if (!json_is_array(rel)) {
		json_decref(root);
		return kcve_err_set(err, KCVE_E_PARSE, "releases.json has no \"releases\" array, "
				    "input, pass kernel.org's releases.json");
	}
	sb_adds(out, "# Supported kernel branches, imported by 'kcve branches import' from "
		     "kernel.org releases.json.\n# branch moniker latest-release iseol\n");
	size_t i;
	json_t *r;
	json_array_foreach(rel, i, r)
	{
		const char *mon = json_string_value(json_object_get(r, "moniker"));
		const char *ver = json_string_value(json_object_get(r, "version"));
		if (!mon || !ver || !strcmp(mon, "linux-next") || !strncmp(ver, "next-", 5) ||
		    !token_ok(mon, sizeof(((struct branch_row *)0)->moniker)) ||
		    !token_ok(ver, sizeof(((struct branch_row *)0)->latest)))
			continue;
		char major[32];
		kver_str_major(ver, major, sizeof(major));
		if (!token_ok(major, sizeof(((struct branch_row *)0)->branch)))
			continue;
		bool eol = json_is_true(json_object_get(r, "iseol"));
		sb_addf(out, "%s %s %s %d\n", major, mon, ver, eol ? 1 : 0);
		(*nbranches)++;
	}
	json_decref(root);
	if (!*nbranches)
		return kcve_err_set(err, KCVE_E_PARSE, "releases.json lists no kernel branch, "
				    "input, pass kernel.org's releases.json");
	return 0;
}

static struct branch_row *find_row(struct branch_policy *bp, const char *branch)
{
	for (size_t i = 0; i < bp->n; i++)
		if (!strcmp(bp->v[i].branch, branch))
			return &bp->v[i];
	XGROW(bp->v, bp->n + 1, bp->alloc);
	struct branch_row *r = &bp->v[bp->n++];
	memset(r, 0, sizeof(*r));
	text_snprintf(r->branch, sizeof(r->branch), "%s", branch);
	r->eol_day = -1;
	return r;
}

static int load_file(struct branch_policy *bp, const char *root, const char *rel, bool eol_table,
		     struct kcve_err *err)
{
	char *p = path_join(root, rel);
	struct strbuf sb = STRBUF_INIT;
	if (read_file(p, &sb) < 0) {
		free(p);
		return 0;
	}
	bp->has_data = true;
	int rc = 0, lineno = 0;
	char *save = NULL;
	for (char *line = strtok_r(sb.buf ? sb.buf : (char *)"", "\n", &save); line && !rc;
	     line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		while (*line == ' ' || *line == '\t')
			line++;
		if (!*line || *line == '#')
			continue;
		char a[32], b[32], c[40];
		int d = 0;
		if (eol_table) {
			long long day;
			if (sscanf(line, "%31s %31s", a, b) != 2 || (day = parse_day(b)) < 0) {
				rc = kcve_err_set(err, KCVE_E_PARSE, "bad line %d (want \"BRANCH "
						  "YYYY-MM-DD\"), %s, fix the file", lineno, p);
				break;
			}
			find_row(bp, a)->eol_day = day;
		} else {
			if (sscanf(line, "%31s %31s %39s %d", a, b, c, &d) < 3) {
				rc = kcve_err_set(err, KCVE_E_PARSE, "bad line %d (want \"BRANCH "
						  "MONIKER LATEST ISEOL\"), %s, re-import "
						  "releases.json", lineno, p);
				break;
			}
			struct branch_row *r = find_row(bp, a);
			text_snprintf(r->moniker, sizeof(r->moniker), "%s", b);
			text_snprintf(r->latest, sizeof(r->latest), "%s", c);
			r->iseol = d != 0;
		}
	}
	sb_release(&sb);
	free(p);
	return rc;
}

int branch_policy_load(struct branch_policy *bp, const char *tree_root, struct kcve_err *err)
{
	memset(bp, 0, sizeof(*bp));
	int rc = load_file(bp, tree_root, BRANCHES_FILE, false, err);
	if (!rc)
		rc = load_file(bp, tree_root, EOL_FILE, true, err);
	return rc;
}

void branch_policy_release(struct branch_policy *bp)
{
	free(bp->v);
	memset(bp, 0, sizeof(*bp));
}

bool branch_policy_supported(const struct branch_policy *bp, const char *branch, time_t now)
{
	if (!bp->has_data)
		return true;
	long long today = (long long)(now / 86400);
	const char *newest_mainline = NULL;
	for (size_t i = 0; i < bp->n; i++) {
		const struct branch_row *r = &bp->v[i];
		if (!strcmp(r->moniker, "mainline") &&
		    (!newest_mainline || kver_cmp_str(r->branch, newest_mainline) > 0))
			newest_mainline = r->branch;
	}
	for (size_t i = 0; i < bp->n; i++) {
		const struct branch_row *r = &bp->v[i];
		if (strcmp(r->branch, branch) != 0)
			continue;
		if (r->eol_day >= 0)
			return r->eol_day >= today;
		return r->moniker[0] && !r->iseol;
	}
	/* the next mainline release is in development: supported */
	return newest_mainline && kver_cmp_str(branch, newest_mainline) > 0;
}

void branch_policy_list(const struct branch_policy *bp, time_t now, struct strbuf *out)
{
	size_t start = out->len;
	for (size_t i = 0; i < bp->n; i++)
		if (branch_policy_supported(bp, bp->v[i].branch, now))
			sb_addf(out, "%s%s", out->len > start ? ", " : "", bp->v[i].branch);
	if (out->len == start)
		sb_adds(out, "(none)");
}

/* The branches supported on the day the kernel CNA began (see branches.h), oldest first. */
static const char *const cna_start_branches[] = {"4.19", "5.4", "5.10", "5.15", "6.1", "6.6", "6.7"};

bool branch_ended_before_cna(const char *branch)
{
	size_t n = sizeof cna_start_branches / sizeof cna_start_branches[0];
	for (size_t i = 0; i < n; i++)
		if (!strcmp(branch, cna_start_branches[i]))
			return false;
	return kver_cmp_str(branch, cna_start_branches[n - 1]) < 0;
}
